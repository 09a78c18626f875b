// The bulk jobs (lotes) in /docs, from the same OpenAPI document as the lookups: each operation with
// its parameters, body, answers with their examples and request samples. No "try it" console here:
// the lookups' consoles answer at once and cost one lookup, while a job submitted from a page would
// run in the background and charge for everything it finds.
import { CopyButton } from '@/components/console/copy-button';
import { EXAMPLE_JOB_ID, type OpenApiDocument } from '@/lib/openapi/document';
import { operationSamples, SAMPLE_LANGUAGES } from '@/lib/openapi/samples';
import { Paragraphs, resolve, ResponsesTable, type Operation } from './operation-parts';
import { FieldsTable } from './schema-view';

export interface BulkOperation {
  path: string;
  method: 'GET' | 'POST';
  operation: Operation;
}

/** The operations tagged lotes, in the document's order. */
export function bulkOperations(document: OpenApiDocument): BulkOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'post'] as const)
      .map((method) => ({ path, method: method.toUpperCase() as 'GET' | 'POST', operation: (item as Record<string, Operation | undefined>)[method] }))
      .filter((entry): entry is BulkOperation => entry.operation?.tags?.includes('lotes') === true),
  );
}

export function BulkSection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
  const components = document.components.schemas;
  return (
    <section id="lotes" className="support" aria-labelledby="lotes-title">
      <h2 id="lotes-title">Lotes: muchas consultas en segundo plano</h2>
      <p>
        Envíe hasta 10,000 NIT o CUI de un catálogo en una sola solicitud: el servicio los consulta por usted, uno a uno, con la misma tarifa y el mismo
        registro que una consulta individual, y solo cobra lo encontrado. Cuando el lote termina, su webhook recibe <code>lote_completado</code> (vea{' '}
        <a href="#webhook">Avisos por webhook</a>); si prefiere consultar su estado, hágalo una vez por minuto o menos, guiado por <code>estimado_fin</code>.
        Estas operaciones no tienen consola de prueba en esta página: un lote corre en segundo plano y cobra lo que encuentra.
      </p>
      {bulkOperations(document).map(({ path, method, operation }) => {
        const request = operation.requestBody?.content['application/json'];
        const requestSchema = resolve(request?.schema, components);
        const idempotency = operation.parameters?.find((parameter) => parameter.name === 'Idempotency-Key');
        const samples = operationSamples(baseUrl, path.replace('{id}', EXAMPLE_JOB_ID), { method, body: request?.example, headers: idempotency ? { 'Idempotency-Key': 'proveedores-2026-11' } : undefined });
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
            <h4>Respuestas</h4>
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
