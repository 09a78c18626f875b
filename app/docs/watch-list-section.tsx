// The watch lists (vigilancias) in /docs, from the same OpenAPI document as the lookups and the bulk
// jobs (tagged-operations.tsx).
import type { OpenApiDocument } from '@/lib/surfaces/openapi/document';
import type { Operation } from './operation-parts';
import { OperationSection, operationsTagged, type TaggedOperation } from './tagged-operations';

/** The operations tagged vigilancias, in the document's order. */
export function watchListOperations(document: OpenApiDocument): TaggedOperation[] {
  return operationsTagged(document, 'vigilancias', ['get', 'post', 'patch', 'delete']);
}

/** The id the document's examples give a list (vig_…), so a sample's address reads as a real one. */
function exampleListId(document: OpenApiDocument): string {
  const get = (document.paths['/vigilancias/{id}'] as { get?: Operation } | undefined)?.get;
  const example = get?.responses['200']?.content?.['application/json']?.example as { id?: unknown } | undefined;
  return typeof example?.id === 'string' ? example.id : 'vig_0123456789abcdef0123';
}

export function WatchListSection({ baseUrl, document }: { baseUrl: string; document: OpenApiDocument }) {
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
      {watchListOperations(document).map((entry) => (
        <OperationSection key={`${entry.method} ${entry.path}`} baseUrl={baseUrl} document={document} entry={entry} exampleId={listId} idempotencyKey="proveedores-vigilancia" />
      ))}
    </section>
  );
}
