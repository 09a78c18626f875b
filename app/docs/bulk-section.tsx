// The bulk jobs (lotes) in /docs, from the same OpenAPI document as the lookups (tagged-operations.tsx).
import { EXAMPLE_JOB_ID } from '@/lib/surfaces/api/bulk-openapi';
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import { OperationSection, operationsTagged, type TaggedOperation } from './tagged-operations';

/** The operations tagged lotes, in the document's order. */
export function bulkOperations(document: OpenApiDocument): TaggedOperation[] {
  return operationsTagged(document, 'lotes', ['get', 'post']);
}

export function BulkSection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
  return (
    <section id="lotes" className="support" aria-labelledby="lotes-title">
      <h2 id="lotes-title">Lotes: muchas consultas en segundo plano</h2>
      <p>
        Envíe hasta 10,000 NIT o CUI de un catálogo en una sola solicitud: el servicio los consulta por usted, uno a uno, con la misma tarifa y el mismo
        registro que una consulta individual, y solo cobra lo encontrado. Cuando el lote termina, su webhook recibe <code>lote_completado</code> (vea{' '}
        <a href="#webhook">Avisos por webhook</a>); si prefiere consultar su estado, hágalo una vez por minuto o menos, guiado por <code>estimado_fin</code>.
        Estas operaciones no tienen consola de prueba en esta página: un lote corre en segundo plano y cobra lo que encuentra.
      </p>
      {bulkOperations(document).map((entry) => (
        <OperationSection key={`${entry.method} ${entry.path}`} baseUrl={baseUrl} document={document} entry={entry} exampleId={EXAMPLE_JOB_ID} idempotencyKey="proveedores-2026-11" />
      ))}
    </section>
  );
}
