// /docs - the integrator documentation, rendered from the OpenAPI document (lib/openapi/document.ts).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { publicOrigin } from '@/lib/http/base-url';
import { CopyButton } from '@/components/console/copy-button';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { requestSamples, SAMPLE_LANGUAGES } from '@/lib/openapi/samples';
import { CredentialsForm, CredentialsProvider } from './credentials';
import { FieldsTable, typeLabel } from './schema-view';
import { TryIt } from './try-it';
import './docs.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Documentación de la API · Consulta de contribuyentes' };

type JsonObject = Record<string, unknown>;

interface MediaType {
  schema?: JsonObject;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  requestBody: { content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}

function Paragraphs({ text }: { text: string }) {
  return text.split('\n\n').map((paragraph, index) => <p key={index}>{paragraph}</p>);
}

function resolve(schema: JsonObject | undefined, components: Record<string, JsonObject>): JsonObject | undefined {
  if (typeof schema?.$ref === 'string') return components[schema.$ref.replace('#/components/schemas/', '')];
  return schema;
}

export default async function DocsPage() {
  const baseUrl = `${publicOrigin(await headers())}/api`;
  const document = buildOpenApiDocument(baseUrl);
  const components = document.components.schemas;
  const operations = Object.entries(document.paths).map(([path, item]) => ({ path, operation: (item as { post: Operation }).post }));

  return (
    <CredentialsProvider>
      <div className="docs docs-layout">
        <nav className="docs-nav" aria-label="Secciones de la documentación">
          <p className="docs-nav-title">Contenido</p>
          <ul>
            <li>
              <a href="#inicio">Inicio y credenciales</a>
            </li>
            {operations.map(({ path, operation }) => (
              <li key={path}>
                <a href={`#${operation.operationId}`}>
                  <code>{path}</code>
                </a>
              </li>
            ))}
            <li>
              <a href="#esquemas">Esquemas</a>
            </li>
          </ul>
        </nav>
        <main className="docs-content">
          <header id="inicio">
            <p className="muted">
              Versión del contrato {document.info.version} · <a href="/api/openapi.json">openapi.json</a> ({document.info.title})
            </p>
            <h1>API de consulta de contribuyentes</h1>
            <p>
              Consultas de contribuyentes de Guatemala para sistemas integradores: RENAP por CUI, RTU por NIT y los catálogos de CUI/NIT, RTU completo y
              omisos. Base: <code>{baseUrl}</code>
            </p>
            <Paragraphs text={document.info.description} />
            <ul>
              {operations.map(({ path, operation }) => (
                <li key={path}>
                  <a href={`#${operation.operationId}`}>
                    <code>POST {path}</code>
                  </a>{' '}
                  — {operation.summary}
                </li>
              ))}
            </ul>
          </header>
          <CredentialsForm />

          {operations.map(({ path, operation }) => {
            const request = operation.requestBody.content['application/json']!;
            const requestSchema = resolve(request.schema, components);
            return (
              <section key={path} id={operation.operationId} className="operation">
                <h2>
                  <span className="method">POST</span> <code>{path}</code>
                </h2>
                <p className="muted">
                  operationId <code>{operation.operationId}</code>
                </p>
                <p>
                  <strong>{operation.summary}</strong>
                </p>
                <Paragraphs text={operation.description} />
                <h3>Cabeceras</h3>
                <p>
                  <code>x-integracion-login</code> y <code>x-integracion-token</code>, siempre juntas; <code>content-type: application/json</code>.
                </p>
                <h3>Cuerpo</h3>
                {requestSchema && <FieldsTable schema={requestSchema} />}
                <pre>{JSON.stringify(request.example, null, 2)}</pre>
                <h3>Respuestas</h3>
                <table className="responses">
                  <tbody>
                    {Object.entries(operation.responses).map(([status, response]) => (
                      <tr key={status}>
                        <td className={`status status-${status[0]}`}>{status}</td>
                        <td>
                          <p>{response.description}</p>
                          {Object.entries(response.content ?? {}).map(([mediaType, media]) => (
                            <div key={mediaType} className="media">
                              <p className="muted">
                                {mediaType}: {typeLabel(media.schema)}
                              </p>
                              {media.examples && (
                                <ul className="examples">
                                  {Object.entries(media.examples).map(([name, example]) => (
                                    <li key={name}>
                                      <code>{JSON.stringify(example.value)}</code>
                                    </li>
                                  ))}
                                </ul>
                              )}
                              {typeof media.example === 'string' && <code>{media.example}</code>}
                            </div>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <h3>Ejemplos de solicitud</h3>
                {Object.entries(requestSamples(`${baseUrl}${path}`, request.example)).map(([language, code]) => (
                  <details key={language} className="sample" data-language={language}>
                    <summary>{SAMPLE_LANGUAGES.find((entry) => entry.key === language)!.label}</summary>
                    <pre>{code}</pre>
                    <CopyButton text={code} label={`Copiar ejemplo en ${SAMPLE_LANGUAGES.find((entry) => entry.key === language)!.label}`} />
                  </details>
                ))}
                <TryIt baseUrl={baseUrl} path={path} exampleBody={request.example} />
              </section>
            );
          })}

          <section className="schemas" id="esquemas">
            <h2>Esquemas</h2>
            {Object.entries(components).map(([name, schema]) => (
              <article key={name} id={`schema-${name}`}>
                <h3>{name}</h3>
                {typeof schema.description === 'string' && <p>{schema.description}</p>}
                <FieldsTable schema={schema} />
              </article>
            ))}
          </section>
        </main>
      </div>
    </CredentialsProvider>
  );
}
