// The pieces every operation of /docs is drawn with: the lookups (page.tsx) and the bulk jobs
// (bulk-section.tsx) read the same OpenAPI document and show its answers the same way.
import { typeLabel } from './schema-view';

export type JsonObject = Record<string, unknown>;

interface MediaType {
  schema?: JsonObject;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags?: string[];
  /** Absent on the bulk jobs' GETs and on their cancel and retry. */
  requestBody?: { content: Record<string, MediaType> };
  /** Headers (the Idempotency-Key) and, on the bulk jobs, the job's id in the path. */
  parameters?: Array<{ name: string; in?: string; description: string }>;
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
  /** Empty on an operation that takes no credentials (GET /estado). */
  security?: unknown[];
}

export function Paragraphs({ text }: { text: string }) {
  return text.split('\n\n').map((paragraph, index) => <p key={index}>{paragraph}</p>);
}

/** An example body: short ones inline, whole answers as a block a reader can scan. */
export function ExampleBody({ value, summary }: { value: unknown; summary?: string }) {
  const text = JSON.stringify(value);
  if (text.length <= 120) return <code>{text}</code>;
  return (
    <details className="example-body">
      <summary>{summary ?? 'Ejemplo de respuesta'}</summary>
      {/* It scrolls past its height: reachable and named for the keyboard, as the webhook's examples. */}
      <pre tabIndex={0} role="region" aria-label={summary ?? 'Ejemplo de respuesta'}>
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

export function resolve(schema: JsonObject | undefined, components: Record<string, JsonObject>): JsonObject | undefined {
  if (typeof schema?.$ref === 'string') return components[schema.$ref.replace('#/components/schemas/', '')];
  return schema;
}

/** An operation's answers: each status, what it means, its media types and their examples. */
export function ResponsesTable({ responses }: { responses: Operation['responses'] }) {
  return (
    <table className="responses">
      <tbody>
        {Object.entries(responses).map(([status, response]) => (
          <tr key={status}>
            <td className={`status status-${status[0]}`}>{status}</td>
            <td>
              <p>{response.description}</p>
              {status === '402' && (
                <p>
                  <a href="#portal-saldo">Dónde ver el saldo y cómo recargar</a>
                </p>
              )}
              {Object.entries(response.content ?? {}).map(([mediaType, media]) => (
                <div key={mediaType} className="media">
                  <p className="muted">
                    {mediaType}: {typeLabel(media.schema)}
                  </p>
                  {media.examples && (
                    <ul className="examples">
                      {Object.entries(media.examples).map(([name, example]) => (
                        <li key={name}>
                          <ExampleBody value={example.value} summary={example.summary} />
                        </li>
                      ))}
                    </ul>
                  )}
                  {typeof media.example === 'string' && (media.example.includes('\n') ? <pre>{media.example}</pre> : <code>{media.example}</code>)}
                  {media.example !== undefined && typeof media.example !== 'string' && <ExampleBody value={media.example} />}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
