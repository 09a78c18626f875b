// The integration's query records and request ids (tag historial) in /docs, from the same OpenAPI
// document as the lookups, the bulk jobs and the watch lists (tagged-operations.tsx).
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import { OperationSection, operationsTagged, type TaggedOperation } from './tagged-operations';

/** The operations tagged historial, in the document's order. */
export function historyOperations(document: OpenApiDocument): TaggedOperation[] {
  return operationsTagged(document, 'historial', ['get']);
}

export function HistorySection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
  return (
    <section id="historial" className="support" aria-labelledby="historial-title">
      <h2 id="historial-title">Historial: sus consultas y sus solicitudes</h2>
      <p>
        Lo mismo que Consultas en el portal, para sus sistemas (por ejemplo, conciliar cada noche sus llamadas con este registro): la lista de consultas
        registradas, con el NIT y el CUI enmascarados, y lo que pasó con una solicitud por su x-request-id, con su cobro explicado. Estas lecturas cuentan en el límite por
        minuto de <code>/lotes</code>, nunca en el de las consultas de contribuyentes.
      </p>
      {historyOperations(document).map((entry) => (
        <OperationSection key={`${entry.method} ${entry.path}`} baseUrl={baseUrl} document={document} entry={entry} exampleId="req_5f0c3a9d2b7e41c8a6f1" idempotencyKey="" />
      ))}
    </section>
  );
}
