// /docs - the integrator documentation, rendered from the OpenAPI document (lib/surfaces/openapi/document.ts).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { env } from '@/lib/platform/settings/env';
import { requestTraceSettings } from '@/lib/core/request-traces/settings';
import { topUpSettings } from '@/lib/flows/top-ups/settings';
import { publicOrigin } from '@/lib/platform/http/base-url';
import { CopyButton } from '@/components/console/copy-button';
import { webhookDocsSettings } from '@/lib/reactions/integrator-notifications/webhook-docs';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { requestSamples, SAMPLE_LANGUAGES } from '@/lib/surfaces/openapi/samples';
import { CredentialsForm, CredentialsProvider } from './credentials';
import { PortalSection } from './portal-section';
import { paymentsConfigured } from '@/lib/providers/payments/configured';
import { paymentSettings } from '@/lib/providers/payments/settings';
import { AccountSection, accountOperations } from './account-section';
import { BulkSection, bulkOperations } from './bulk-section';
import { Paragraphs, resolve, ResponsesTable, type Operation } from './operation-parts';
import { FieldsTable } from './schema-view';
import { TryIt } from './try-it';
import { WatchListSection, watchListOperations } from './watch-list-section';
import { HistorySection, historyOperations } from './history-section';
import { ConstanciasSection } from './constancias-section';
import { ClientsSection } from './clients-section';
import { WebhookSection } from './webhook-section';
import './docs.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Documentación de la API · Consulta de contribuyentes' };

export default async function DocsPage() {
  const baseUrl = `${publicOrigin(await headers())}/api`;
  const document = buildOpenApiDocument(baseUrl);
  const components = document.components.schemas;
  const supportEmail = env().SUPPORT_CONTACT_EMAIL;
  const traceDays = requestTraceSettings().REQUEST_TRACE_RETENTION_DAYS;
  const statusLimit = env().RATE_LIMIT_STATUS_API_PER_MINUTE;
  // The five lookups, each with its console; the bulk jobs (tag lotes) and the watch lists (tag vigilancias) in sections of their own, without one.
  const bulk = bulkOperations(document);
  const watchLists = watchListOperations(document);
  const history = historyOperations(document);
  const accountReads = accountOperations(document);
  const operations = Object.entries(document.paths)
    .map(([path, item]) => ({ path, operation: (item as { post?: Operation }).post }))
    .filter((entry): entry is { path: string; operation: Operation } => entry.operation?.tags?.includes('consultas') === true);

  return (
    <CredentialsProvider>
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <div className="docs docs-layout">
        <nav className="docs-nav" aria-label="Secciones de la documentación">
          <p className="docs-nav-title">Contenido</p>
          <ul>
            <li>
              <a href="#inicio">Inicio y credenciales</a>
            </li>
            <li>
              <a href="#portal">Portal de integradores</a>
            </li>
            {operations.map(({ path, operation }) => (
              <li key={path}>
                <a href={`#${operation.operationId}`}>
                  <code>{path}</code>
                </a>
              </li>
            ))}
            <li>
              <a href="#lotes">Lotes</a>
            </li>
            <li>
              <a href="#vigilancias">Vigilancia</a>
            </li>
            <li>
              <a href="#cuenta">Su cuenta y estado</a>
            </li>
            <li>
              <a href="#historial">Historial</a>
            </li>
            <li>
              <a href="#constancias">Constancias de consulta</a>
            </li>
            <li>
              <a href="#soporte">Soporte e identificador de solicitud</a>
            </li>
            <li>
              <a href="#webhook">Avisos por webhook</a>
            </li>
            <li>
              <a href="#esquemas">Esquemas</a>
            </li>
            <li>
              <a href="/estado">Estado de las fuentes</a>
            </li>
          </ul>
        </nav>
        <main className="docs-content" id="contenido" tabIndex={-1}>
          <header id="inicio">
            <p className="muted">
              Versión del contrato {document.info.version} · <a href="/api/openapi.json">openapi.json</a> ({document.info.title}) ·{' '}
              <a href="/estado">Estado de las fuentes</a>
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
              {[...bulk, ...watchLists, ...history, ...accountReads].map(({ path, method, operation }) => (
                <li key={`${method} ${path}`}>
                  <a href={`#${operation.operationId}`}>
                    <code>
                      {method} {path}
                    </code>
                  </a>{' '}
                  — {operation.summary}
                </li>
              ))}
            </ul>
          </header>
          <PortalSection sandbox={env().APP_ENV === 'development'} depositAccounts={topUpSettings().TOP_UP_BANK_ACCOUNTS} supportEmail={supportEmail ?? null} paysOnline={paymentsConfigured(paymentSettings())} />
          <section id="soporte" className="support" aria-labelledby="soporte-title">
            <h2 id="soporte-title">Soporte e identificador de solicitud</h2>
            <p>
              Cada respuesta, también las de error, trae la cabecera <code>x-request-id</code> (<code>req_…</code>), única para esa solicitud.
              Guárdela en sus registros junto con la ruta, la hora y el estado HTTP.
            </p>
            <p>
              Cuando una respuesta diga «Escribe a soporte», o quiera saber por qué falló una consulta y si se cobró, escriba{' '}
              {supportEmail ? (
                <>
                  a <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
                </>
              ) : (
                <>
                  al <strong>contacto de soporte de este servicio</strong>
                </>
              )}{' '}
              con
              el <code>x-request-id</code>, la ruta y la hora. Con él, soporte encuentra la consulta exacta en segundos, también la original de una
              repetición con <code>Idempotency-Key</code>; el de una solicitud rechazada antes de consultar la fuente (400, 401, 402, 403 o 429) le
              dice por qué se rechazó, durante {traceDays} días. No envíe su token: soporte nunca lo pide.
            </p>
            <p>
              Una consulta que llegó a la fuente también la encuentra usted, con su estado y su cobro, en el{' '}
              <a href="#portal">portal de integradores</a>: en <strong>Consultas</strong>, buscándola por su <code>x-request-id</code>.
            </p>
            <p>
              Si las consultas responden 502 (catálogos) o 500 (registros), vea en <a href="/estado">Estado de las fuentes</a> si la fuente está degradada o sin
              servicio y desde cuándo; los mismos datos, en JSON, en <code>GET /api/estado</code>. Ese estado tiene su propio límite por IP (
              {statusLimit} por minuto) y no gasta del límite global de las consultas: puede leerlo aunque sus consultas estén limitadas. Pasado
              el límite responde 429 con <code>Retry-After: 60</code> y <code>{'{"message": …}'}</code>.
            </p>
            <p className="muted">
              Una solicitud rechazada antes de llegar a la fuente (credenciales, bandera, límite, saldo) no queda registrada como consulta; soporte
              ve igualmente cuántos rechazos tuvo su integración y por qué.
            </p>
          </section>
          <section id="idempotencia" className="support" aria-labelledby="idempotencia-title">
            <h2 id="idempotencia-title">Reintentos seguros: Idempotency-Key</h2>
            <p>
              Envíe en cada consulta de catálogo la cabecera opcional <code>Idempotency-Key</code>: una clave suya de 1 a 255 caracteres ASCII
              imprimibles, nueva para cada consulta distinta (un UUID, por ejemplo). Si su cliente no recibió la respuesta (cortó antes de los 30
              segundos, se cayó la red) y usted no sabe si la consulta se cobró, repítala con la misma clave. No ponga datos personales en la clave.
            </p>
            <ul>
              <li>
                La misma clave con el mismo cuerpo y la misma ruta, en las 24 horas siguientes a la primera solicitud: recibe la primera respuesta otra
                vez (mismo estado y cuerpo) con la cabecera <code>Idempotency-Replayed: true</code>. No se cobra otra vez ni se consulta la fuente.
              </li>
              <li>Si la primera todavía está en curso, la repetición la espera, hasta 30 segundos; pasado ese tiempo recibe 502 y puede reintentar.</li>
              <li>
                La misma clave con otro cuerpo u otra ruta: 400 <code>Los datos de la consulta no son validos.</code> Una clave vacía, de más de 255
                caracteres o con caracteres no imprimibles: el mismo 400.
              </li>
              <li>
                Se guardan el 200 y los 400 y 404 de la fuente. Un 402, 429, 500 o 502 no se guarda: repetir con la misma clave vuelve a intentar la
                consulta, como indica el contrato.
              </li>
              <li>Cada repetición cuenta para el límite por minuto de los catálogos y para el global, como cualquier solicitud.</li>
            </ul>
            <p className="muted">Sin la cabecera, los catálogos funcionan exactamente como siempre.</p>
          </section>
          <CredentialsForm />

          {operations.map(({ path, operation }) => {
            const request = operation.requestBody!.content['application/json']!;
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
                {operation.parameters?.map((parameter) => (
                  <p key={parameter.name}>
                    <code>{parameter.name}</code>: {parameter.description}{' '}
                    {parameter.name === 'Idempotency-Key' ? (
                      <>
                        Vea <a href="#idempotencia">Reintentos seguros</a>.
                      </>
                    ) : (
                      <>
                        Vea <a href="#constancias">Constancias de consulta</a>.
                      </>
                    )}
                  </p>
                ))}
                <h3>Cuerpo</h3>
                {requestSchema && <FieldsTable schema={requestSchema} />}
                <pre>{JSON.stringify(request.example, null, 2)}</pre>
                <h3>Respuestas</h3>
                <ResponsesTable responses={operation.responses} />
                <h3>Ejemplos de solicitud</h3>
                {Object.entries(requestSamples(baseUrl, path, request.example)).map(([language, code]) => (
                  <details key={language} className="sample" data-language={language}>
                    <summary>{SAMPLE_LANGUAGES.find((entry) => entry.key === language)!.label}</summary>
                    <pre>{code}</pre>
                    <CopyButton
                      text={code}
                      label={`Copiar ejemplo en ${SAMPLE_LANGUAGES.find((entry) => entry.key === language)!.label}`}
                      failedHint="No se pudo copiar: seleccione el texto y cópielo a mano."
                    />
                  </details>
                ))}
                <TryIt baseUrl={baseUrl} path={path} exampleBody={request.example} />
              </section>
            );
          })}

          <BulkSection baseUrl={baseUrl} document={document} />

          <WatchListSection baseUrl={baseUrl} document={document} />

          <AccountSection baseUrl={baseUrl} document={document} accountLimit={env().ACCOUNT_API_PER_MINUTE} />
          <HistorySection baseUrl={baseUrl} document={document} />
          <ConstanciasSection baseUrl={baseUrl} document={document} />
          <ClientsSection baseUrl={baseUrl} document={document} />

          <WebhookSection settings={webhookDocsSettings()} />

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
