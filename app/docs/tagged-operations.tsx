// The API's operations beside the lookups in /docs (Lotes, Vigilancia, Cuenta), each from the OpenAPI document: its
// parameters, body, answers with their examples and request samples with BASE_URL, LOGIN and TOKEN.
// No "try it" console, unlike the lookups': a job or a watch list created from a page would run,
// and charge, in the background.
import { CopyButton } from '@/components/console/copy-button';
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import { operationSamples, SAMPLE_LANGUAGES } from '@/lib/surfaces/openapi/samples';
import { Paragraphs, resolve, ResponsesTable, type Operation } from './operation-parts';
import { FieldsTable } from './schema-view';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TaggedOperation {
  path: string;
  method: Method;
  operation: Operation;
}

/** The operations with `tag`, path by path in the document's order, each path's methods in `methods`' order. */
export function operationsTagged(document: OpenApiDocument, tag: string, methods: readonly Lowercase<Method>[]): TaggedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods
      .map((method) => ({ path, method: method.toUpperCase() as Method, operation: (item as Record<string, Operation | undefined>)[method] }))
      .filter((entry): entry is TaggedOperation => entry.operation?.tags?.includes(tag) === true),
  );
}

/**
 * One operation's section. `exampleId` stands for `{id}` in the samples' addresses, so they read as
 * real ones; `idempotencyKey` is the Idempotency-Key the samples send where the operation takes one.
 */
export function OperationSection({
  baseUrl,
  document,
  entry: { path, method, operation },
  exampleId,
  idempotencyKey,
}: {
  baseUrl: string;
  document: OpenApiDocument;
  entry: TaggedOperation;
  exampleId: string;
  idempotencyKey: string;
}) {
  const request = operation.requestBody?.content['application/json'];
  const requestSchema = resolve(request?.schema, document.components.schemas);
  const idempotency = operation.parameters?.some((parameter) => parameter.name === 'Idempotency-Key');
  const samples = operationSamples(baseUrl, path.replace(/\{[a-z_]+\}/, exampleId), {
    method,
    body: request?.example,
    headers: idempotency ? { 'Idempotency-Key': idempotencyKey } : undefined,
  });
  return (
    <section id={operation.operationId} className="operation">
      <h3>
        <span className="method">{method}</span> <code>{path}</code>
      </h3>
      <p className="muted">
        operationId <code>{operation.operationId}</code>
      </p>
      <p>
        <strong>{operation.summary}</strong>
      </p>
      {operation.description && <Paragraphs text={operation.description} />}
      <h4>Cabeceras y parámetros</h4>
      {/* An empty security list (GET /estado) means no credentials. */}
      {operation.security?.length === 0 ? (
        <p>Sin credenciales.</p>
      ) : (
        <p>
          <code>x-integracion-login</code> y <code>x-integracion-token</code>, siempre juntas{request ? <>; <code>content-type: application/json</code></> : null}.
        </p>
      )}
      {operation.parameters?.map((parameter) => (
        <p key={parameter.name}>
          <code>{parameter.name}</code>: {parameter.description}
        </p>
      ))}
      {request && (
        <>
          <h4>Cuerpo</h4>
          {requestSchema && <FieldsTable schema={requestSchema} />}
          {/* Focusable: a long example (a receipt's JWS) scrolls, and a keyboard must reach it (axe: scrollable-region-focusable). */}
          <pre tabIndex={0} role="region" aria-label={`Cuerpo de ejemplo de ${operation.operationId}`}>
            {JSON.stringify(request.example, null, 2)}
          </pre>
        </>
      )}
      <h4>Respuestas y errores</h4>
      <ResponsesTable responses={operation.responses} />
      <h4>Ejemplos de solicitud</h4>
      {Object.entries(samples).map(([language, code]) => {
        const label = SAMPLE_LANGUAGES.find((entry) => entry.key === language)!.label;
        return (
          <details key={language} className="sample" data-language={language}>
            <summary>{label}</summary>
            <pre>{code}</pre>
            <CopyButton text={code} label={`Copiar ejemplo en ${label}`} failedHint="No se pudo copiar: seleccione el texto y cópielo a mano." />
          </details>
        );
      })}
    </section>
  );
}
