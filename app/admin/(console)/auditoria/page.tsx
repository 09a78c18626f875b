import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/auth/session';
import { auditChanges, listAuditPage, type AuditFilters } from '@/lib/console/audit';
import { integrationOptions } from '@/lib/console/integrations';
import { auditFieldLabel, describeAuditActor, formatAuditValue } from '@/lib/format/audit-labels';
import { AUDIT_ACTION_LABELS } from '@/lib/format/labels';
import { formatDateTime, isCalendarDay } from '@/lib/format/guatemala-time';
import { listConsoleUsers } from '@/lib/users/service';

export const metadata: Metadata = { title: 'Auditoría' };

function text(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readFilters(params: Record<string, string | string[] | undefined>): { filters: AuditFilters; problem?: string } {
  const tipo = text(params.tipo);
  const actor = text(params.quien);
  const action = text(params.accion);
  const since = text(params.desde);
  const until = text(params.hasta);
  const filters: AuditFilters = {
    targetType: tipo === 'integration' || tipo === 'console_user' ? tipo : undefined,
    targetId: text(params.id) && /^\d{1,12}$/.test(params.id as string) ? (params.id as string) : undefined,
    actor: actor === 'cli' || actor === 'system' || (actor && /^\d{1,9}$/.test(actor)) ? actor : undefined,
    action: action && Object.hasOwn(AUDIT_ACTION_LABELS, action) ? action : undefined,
    since: since && isCalendarDay(since) ? since : undefined,
    until: until && isCalendarDay(until) ? until : undefined,
  };
  if (filters.since && filters.until && filters.until < filters.since) {
    return { filters: { ...filters, until: undefined }, problem: 'La fecha final es anterior a la inicial.' };
  }
  return { filters };
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('admin');
  const params = await searchParams;
  const { filters, problem } = readFilters(params);
  const after = text(params.despues);
  const [page, users, integrations] = await Promise.all([listAuditPage(filters, after), listConsoleUsers(), integrationOptions()]);
  const userNames = new Map(users.map((user) => [user.id, user.name]));
  const integrationNames = new Map(integrations.map((integration) => [String(integration.id), integration.nombre]));
  const base = new URLSearchParams();
  const filterParams: Array<[string, string | undefined]> = [
    ['tipo', filters.targetType],
    ['id', filters.targetId],
    ['quien', filters.actor],
    ['accion', filters.action],
    ['desde', filters.since],
    ['hasta', filters.until],
  ];
  for (const [key, value] of filterParams) if (value) base.set(key, value);
  const filtered = [...base.keys()].length > 0;

  const target = (type: string, id: string) => {
    if (type === 'integration') {
      const nombre = integrationNames.get(id);
      return <Link href={`/admin/integraciones/${id}`}>{nombre ? `Integración ${nombre}` : `Integración ${id}`}</Link>;
    }
    if (type === 'console_user') return `Usuario ${userNames.get(Number(id)) ?? id}`;
    return `${type} ${id}`;
  };

  return (
    <>
      <PageHeader
        title="Auditoría"
        description="Cada cambio a integraciones, consultas habilitadas, tarifas, saldos, tokens y usuarios: quién, cuándo, antes y después."
      />
      <form className="card filters" action="/admin/auditoria" aria-label="Filtros">
        <div className="field">
          <label htmlFor="quien">Quién</label>
          <select id="quien" name="quien" defaultValue={filters.actor ?? ''}>
            <option value="">Todos</option>
            {users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name}
              </option>
            ))}
            <option value="cli">Operador (CLI)</option>
            <option value="system">El sistema</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="accion">Cambio</label>
          <select id="accion" name="accion" defaultValue={filters.action ?? ''}>
            <option value="">Todos</option>
            {Object.entries(AUDIT_ACTION_LABELS).map(([action, label]) => (
              <option key={action} value={action}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="tipo">Objeto</label>
          <select id="tipo" name="tipo" defaultValue={filters.targetType ?? ''}>
            <option value="">Todos</option>
            <option value="integration">Integraciones</option>
            <option value="console_user">Usuarios</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="desde">Desde</label>
          <input id="desde" name="desde" type="date" defaultValue={filters.since ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="hasta">Hasta (incluido)</label>
          <input
            id="hasta"
            name="hasta"
            type="date"
            defaultValue={problem ? text(params.hasta) : (filters.until ?? '')}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'hasta-error' : undefined}
          />
          {problem && (
            <span className="error" id="hasta-error">
              {problem}
            </span>
          )}
        </div>
        {filters.targetId && <input type="hidden" name="id" value={filters.targetId} />}
        <div className="actions">
          <button type="submit">Filtrar</button>
          {(filtered || after) && (
            <Link className="button secondary" href="/admin/auditoria">
              Ver todo desde el más reciente
            </Link>
          )}
        </div>
      </form>
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title="No hay cambios registrados con estos filtros." />
        </div>
      ) : (
        <div className="table-wrap" role="region" aria-label="Cambios registrados" tabIndex={0}>
          <table className="data stacked" data-testid="audit">
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Quién</th>
                <th>Cambio</th>
                <th>Objeto</th>
                <th>Antes → después</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((entry) => {
                const changes = auditChanges(entry);
                return (
                  <tr key={entry.id}>
                    <td className="nowrap" data-label="Fecha">
                      {formatDateTime(entry.createdAt)}
                    </td>
                    <td className="small" data-label="Quién">
                      {describeAuditActor(entry.actor, userNames)}
                    </td>
                    <td data-label="Cambio">{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</td>
                    <td data-label="Objeto">{target(entry.targetType, entry.targetId)}</td>
                    <td className="small" data-label="Antes → después">
                      {changes.length === 0 ? (
                        <span className="muted">sin diferencias</span>
                      ) : (
                        <ul className="changes">
                          {changes.map((change) => (
                            <li key={change.field}>
                              {auditFieldLabel(change.field, entry.targetType)}: {formatAuditValue(change.field, change.before)} →{' '}
                              {formatAuditValue(change.field, change.after)}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {page.older && (
        <nav className="pagination" aria-label="Páginas">
          <span />
          <Link className="button secondary" href={`/admin/auditoria?${new URLSearchParams({ ...Object.fromEntries(base), despues: page.older })}`}>
            Cambios anteriores →
          </Link>
        </nav>
      )}
    </>
  );
}
