import type { Metadata } from 'next';
import Link from 'next/link';
import { CopyableId } from '@/components/console/copyable-id';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { ActiveBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { INTEGRATION_SORTS, INTEGRATIONS_PAGE_SIZE, listIntegrationsPage, type IntegrationSort, type SortDirection } from '@/lib/surfaces/console/integrations';
import { FLAG_LOOKUP, FLAG_NAMES } from '@/lib/surfaces/console/lookup-flags';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';

export const metadata: Metadata = { title: 'Integraciones' };

const SORT_LABELS: Record<IntegrationSort, string> = { nombre: 'Nombre', saldo: 'Saldo', ultima: 'Última consulta' };

interface ListState {
  search: string;
  sort: IntegrationSort;
  direction: SortDirection;
  page: number;
}

/** The list's address for a state: only what differs from the defaults, so links stay short. */
function listHref(state: ListState): string {
  const params = new URLSearchParams();
  if (state.search) params.set('q', state.search);
  const order = orderParam(state.sort, state.direction);
  if (order !== 'nombre') params.set('orden', order);
  if (state.page > 1) params.set('pagina', String(state.page));
  const query = params.toString();
  return query ? `/admin/integraciones?${query}` : '/admin/integraciones';
}

/** `orden`: the column, with `-asc` or `-desc` when not its usual direction ("saldo-asc"). */
function orderParam(sort: IntegrationSort, direction: SortDirection): string {
  return direction === defaultDirection(sort) ? sort : `${sort}-${direction}`;
}

function parseOrder(value: unknown): { sort: IntegrationSort; direction: SortDirection } {
  const [column, turned] = typeof value === 'string' ? value.split('-') : [];
  const sort = INTEGRATION_SORTS.find((option) => option === column) ?? 'nombre';
  const direction = turned === 'asc' || turned === 'desc' ? turned : defaultDirection(sort);
  return { sort, direction };
}

/** The same orders for the menu phones use (their table has no header row to click). */
const ORDER_OPTIONS: Array<{ sort: IntegrationSort; direction: SortDirection; label: string }> = [
  { sort: 'nombre', direction: 'asc', label: 'Nombre (A–Z)' },
  { sort: 'nombre', direction: 'desc', label: 'Nombre (Z–A)' },
  { sort: 'saldo', direction: 'asc', label: 'Saldo, el menor primero' },
  { sort: 'saldo', direction: 'desc', label: 'Saldo, el mayor primero' },
  { sort: 'ultima', direction: 'desc', label: 'Última consulta, la más reciente primero' },
  { sort: 'ultima', direction: 'asc', label: 'Última consulta, sin consultas primero' },
];

/** Names A→Z; balances and latest queries start with the largest and the most recent. */
function defaultDirection(sort: IntegrationSort): SortDirection {
  return sort === 'nombre' ? 'asc' : 'desc';
}

/** A column header that orders the list by it; a second click turns the order around. */
function SortHeader({ column, state, className }: { column: IntegrationSort; state: ListState; className?: string }) {
  const active = state.sort === column;
  const next: SortDirection = active ? (state.direction === 'asc' ? 'desc' : 'asc') : defaultDirection(column);
  const arrow = active ? (state.direction === 'asc' ? ' ↑' : ' ↓') : '';
  return (
    <th className={className} aria-sort={active ? (state.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Link href={listHref({ ...state, sort: column, direction: next, page: 1 })}>
        {SORT_LABELS[column]}
        <span aria-hidden="true">{arrow}</span>
        <span className="sr-only">{`, ordenar ${next === 'asc' ? 'de menor a mayor' : 'de mayor a menor'}`}</span>
      </Link>
    </th>
  );
}

export default async function IntegrationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const params = await searchParams;
  const search = typeof params.q === 'string' ? params.q.slice(0, 64) : '';
  const { sort, direction } = parseOrder(params.orden);
  const requestedPage = typeof params.pagina === 'string' && /^\d{1,6}$/.test(params.pagina) ? Number(params.pagina) : 1;
  const listed = await listIntegrationsPage({ search, sort, direction, page: requestedPage });
  const integrations = listed.items;
  const state: ListState = { search, sort, direction, page: listed.page };
  const first = (listed.page - 1) * INTEGRATIONS_PAGE_SIZE + 1;

  return (
    <>
      <PageHeader
        title="Integraciones"
        description="Sistemas de terceros que consultan la API: sus consultas habilitadas, tarifa y saldo."
        actions={
          user.role === 'admin' && (
            <Link className="button" href="/admin/integraciones/nueva">
              Nueva integración
            </Link>
          )
        }
      />
      {/* Keyed by what it shows: after a header link changes the order, a kept form would show the old one. */}
      <form key={`${search}|${orderParam(sort, direction)}`} className="inline card" role="search" action="/admin/integraciones">
        <div className="field" style={{ flex: '1 1 16rem' }}>
          <label htmlFor="q">Buscar por nombre, razón social, NIT o correo</label>
          <input id="q" name="q" type="search" defaultValue={search} placeholder="p. ej. banco-industrial, Cooperativa El Ejemplo o 576937-K" />
        </div>
        <div className="field">
          <label htmlFor="orden">Ordenar por</label>
          <select id="orden" name="orden" defaultValue={orderParam(sort, direction)}>
            {ORDER_OPTIONS.map((option) => (
              <option key={orderParam(option.sort, option.direction)} value={orderParam(option.sort, option.direction)}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Buscar</button>
        {search && (
          <Link className="button secondary" href="/admin/integraciones">
            Limpiar
          </Link>
        )}
      </form>
      {integrations.length === 0 ? (
        <div className="card">
          {search ? (
            <EmptyState title={`Ninguna integración coincide con «${search}».`}>
              <p>Revise cómo se escribe o <Link href="/admin/integraciones">vea todas</Link>.</p>
            </EmptyState>
          ) : (
            <EmptyState title="Todavía no hay integraciones.">
              <p>
                {user.role === 'admin' ? (
                  <>
                    Cree la primera con <Link href="/admin/integraciones/nueva">Nueva integración</Link>: recibirá su token una sola vez.
                  </>
                ) : (
                  'Un administrador debe crearlas.'
                )}
              </p>
            </EmptyState>
          )}
        </div>
      ) : (
        <>
          <p className="small muted" aria-live="polite">
            {listed.total === 1
              ? '1 integración'
              : `${first.toLocaleString('es-GT')}–${(first + integrations.length - 1).toLocaleString('es-GT')} de ${listed.total.toLocaleString('es-GT')} integraciones`}
            {search && `${listed.total === 1 ? ' que coincide' : ' que coinciden'} con «${search}»`}
          </p>
          <div className="table-wrap" role="region" aria-label="Integraciones" tabIndex={0}>
            <table className="data stacked" data-testid="integrations">
              <thead>
                <tr>
                  <SortHeader column="nombre" state={state} />
                  <th>Estado</th>
                  <th>Consultas habilitadas</th>
                  <th className="num">Tarifa</th>
                  <SortHeader column="saldo" state={state} className="num" />
                  <SortHeader column="ultima" state={state} />
                </tr>
              </thead>
              <tbody>
                {integrations.map((integration) => (
                  <tr key={integration.id}>
                    <td data-label="Nombre">
                      <div>
                        {/* The name is the integrator's login (x-integracion-login): support pastes it into replies. */}
                        <CopyableId value={integration.nombre} what="el nombre de la integración">
                          <Link href={integrationPath(integration.id)}>{integration.nombre}</Link>
                        </CopyableId>
                        {/* The company, as a deposit slip or an e-mail names it. */}
                        <div className="small" data-testid="integration-legal-name">
                          {integration.legalName ?? <span className="muted">Sin razón social</span>}
                          {integration.nit && <span className="muted"> · NIT {integration.nit}</span>}
                        </div>
                        <div className="small muted mono">{integration.tokenPrefixes ?? 'Sin token vigente'}</div>
                      </div>
                    </td>
                    <td data-label="Estado" data-testid="integration-status">
                      <ActiveBadge active={integration.active} />
                    </td>
                    <td data-label="Consultas habilitadas">
                      <div className="flags">
                        {FLAG_NAMES.map((flag) => (
                          <span key={flag} className={`badge ${integration[flag] ? 'ok' : 'off'}`} title={integration[flag] ? 'Habilitada' : 'Deshabilitada'}>
                            <span aria-hidden="true">{integration[flag] ? '✓ ' : '✕ '}</span>
                            {LOOKUP_LABELS[FLAG_LOOKUP[flag]]}
                            <span className="sr-only">{integration[flag] ? ' (habilitada)' : ' (deshabilitada)'}</span>
                          </span>
                        ))}
                      </div>
                    </td>
                    <td className="num" data-label="Tarifa">
                      {formatQuetzales(integration.tariffCentavos)}
                    </td>
                    <td className="num" data-label="Saldo" data-testid="integration-balance">
                      {formatQuetzales(integration.balanceCentavos)}
                    </td>
                    <td className="nowrap" data-label="Última consulta">
                      {integration.lastQueryAt ? formatDateTime(integration.lastQueryAt) : <span className="muted">Nunca</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {listed.pageCount > 1 && (
            <nav className="pagination" aria-label="Páginas">
              {listed.page > 1 ? (
                <Link className="button secondary" href={listHref({ ...state, page: listed.page - 1 })} rel="prev">
                  ← Anterior
                </Link>
              ) : (
                <span />
              )}
              <span className="small muted">
                Página {listed.page} de {listed.pageCount}
              </span>
              {listed.page < listed.pageCount ? (
                <Link className="button secondary" href={listHref({ ...state, page: listed.page + 1 })} rel="next">
                  Siguiente →
                </Link>
              ) : (
                <span />
              )}
            </nav>
          )}
        </>
      )}
    </>
  );
}
