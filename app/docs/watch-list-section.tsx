// The watch lists (vigilancias) in /docs, from the same OpenAPI document as the lookups and the bulk
// jobs: each operation with its parameters, body, answers with their examples, and request samples
// with BASE_URL, LOGIN and TOKEN. No "try it" console, as for the jobs: a list created from a page
// would run, and charge, on its schedule.
import { CopyButton } from '@/components/console/copy-button';
import type { OpenApiDocument } from '@/lib/openapi/document';
import { operationSamples, SAMPLE_LANGUAGES } from '@/lib/openapi/samples';
import { Paragraphs, resolve, ResponsesTable, type Operation } from './operation-parts';
import { FieldsTable } from './schema-view';

type WatchListMethod = 'GET' | 'POST' | 'DELETE';

export interface WatchListOperation {
  path: string;
  method: WatchListMethod;
  operation: Operation;
}

/** The operations tagged vigilancias, in the document's order. */
export function watchListOperations(document: OpenApiDocument): WatchListOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['post', 'get', 'delete'] as const)
      .map((method) => ({ path, method: method.toUpperCase() as WatchListMethod, operation: (item as Record<string, Operation | undefined>)[method] }))
      .filter((entry): entry is WatchListOperation => entry.operation?.tags?.includes('vigilancias') === true),
  );
}

/** The id the document's examples give a list (vig_…), so a sample's address reads as a real one. */
function exampleListId(document: OpenApiDocument): string {
  const get = (document.paths['/vigilancias/{id}'] as { get?: Operation } | undefined)?.get;
  const example = get?.responses['200']?.content?.['application/json']?.example as { id?: unknown } | undefined;
  return typeof example?.id === 'string' ? example.id : 'vig_0123456789abcdef0123';
}

export function WatchListSection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
  const components = document.components.schemas;
  const listId = exampleListId(document);
  return (
    <section id="vigilancias" className="support" aria-labelledby="vigilancias-title">
      <h2 id="vigilancias-title">Vigilancia: su lista de NIT revisada cada mes o cada semana</h2>
      <p>
        Guarde una vez hasta 10,000 NIT con un catálogo (<code>omisos</code> o <code>rtu</code>) y una frecuencia (<code>mensual</code> o{' '}
        <code>semanal</code>): el servicio los consulta según esa frecuencia y le dice solo lo que cambió desde la ejecución anterior (pasó a omiso, entró
        o salió de un cobro coactivo, cambió su estado en el RTU, apareció o dejó de aparecer en el catálogo). Cada ejecución es un lote (vea{' '}
        <a href="#lotes">Lotes</a>): se cobra igual, solo lo encontrado, y cuenta en el mismo límite por minuto. La primera es la base y no reporta cambios.
      </p>
      <p>
        Cuando una ejecución encuentra cambios, su webhook recibe <code>vigilancia_cambios</code> (vea <a href="#webhook">Avisos por webhook</a>) sin
        ningún NIT; lea el antes y el después con <code>GET /vigilancias/{'{id}'}/cambios</code>. En el portal, la página de cada vigilancia muestra los
        cambios con el NIT enmascarado; propietarios y desarrolladores ven el NIT y el nombre de un cambio, o descargan los cambios en CSV para Excel,
        indicando un motivo que queda registrado. Estas operaciones no tienen consola de prueba en esta página: una vigilancia corre y cobra según su
        frecuencia.
      </p>
      {watchListOperations(document).map(({ path, method, operation }) => {
        const request = operation.requestBody?.content['application/json'];
        const requestSchema = resolve(request?.schema, components);
        const idempotency = operation.parameters?.find((parameter) => parameter.name === 'Idempotency-Key');
        const samples = operationSamples(baseUrl, path.replace('{id}', listId), {
          method,
          body: request?.example,
          headers: idempotency ? { 'Idempotency-Key': 'proveedores-vigilancia' } : undefined,
        });
        return (
          <section key={`${method} ${path}`} id={operation.operationId} className="operation">
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
            <p>
              <code>x-integracion-login</code> y <code>x-integracion-token</code>, siempre juntas{request ? <>; <code>content-type: application/json</code></> : null}.
            </p>
            {operation.parameters?.map((parameter) => (
              <p key={parameter.name}>
                <code>{parameter.name}</code>: {parameter.description}
              </p>
            ))}
            {request && (
              <>
                <h4>Cuerpo</h4>
                {requestSchema && <FieldsTable schema={requestSchema} />}
                <pre>{JSON.stringify(request.example, null, 2)}</pre>
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
      })}
    </section>
  );
}
