// Your account (cuenta) and the sources' status (estado) in /docs, from the same OpenAPI document as
// the lookups (tagged-operations.tsx).
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import { OperationSection, operationsTagged, type TaggedOperation } from './tagged-operations';

/** The operations tagged cuenta, then estado, in the document's order. */
export function accountOperations(document: OpenApiDocument): TaggedOperation[] {
  return [...operationsTagged(document, 'cuenta', ['get']), ...operationsTagged(document, 'estado', ['get'])];
}

export function AccountSection({ baseUrl, document, accountLimit }: { baseUrl: string; document: OpenApiDocument; accountLimit: number }) {
  return (
    <section id="cuenta" className="support" aria-labelledby="cuenta-title">
      <h2 id="cuenta-title">Su cuenta y el estado de las fuentes</h2>
      <p>
        Lo que Inicio y Movimientos muestran en el <a href="#portal">portal de integradores</a>, para su sistema: el saldo y su umbral de saldo bajo,
        la tarifa, las consultas habilitadas, los límites por minuto con lo usado en el minuto en curso, lo gastado este mes y el anterior, y cada
        recarga, ajuste y consulta cobrada con el saldo que dejó. Estas lecturas tienen su propio límite ({accountLimit} por minuto por
        integración): no gastan el de sus consultas ni el global por IP. <code>GET /estado</code> no requiere credenciales.
      </p>
      {accountOperations(document).map((entry) => (
        <OperationSection key={`${entry.method} ${entry.path}`} baseUrl={baseUrl} document={document} entry={entry} exampleId="" idempotencyKey="" />
      ))}
    </section>
  );
}
