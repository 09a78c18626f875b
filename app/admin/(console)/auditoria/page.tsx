import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { DateRangeFields, FilterForm, FilterSelect, labelOptions } from '@/components/console/filter-form';
import { IntegrationFilterField } from '../_components/integration-suggestions';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { auditChanges, auditPageNames, formatAuditValue, isAccessEvent, isNoAccount, listAuditPage, type AuditFilters } from '@/lib/surfaces/console/audit';
import { integrationChoiceLabel } from '@/lib/surfaces/console/integration-choice';
import { resolveIntegrationFilter } from '@/lib/surfaces/console/integrations';
import { ANONYMOUS_ACTOR_LABEL, auditFieldLabel, describeAuditActor, INTEGRATOR_ACTOR_LABEL } from '@/lib/presentation/audit-labels';
import { AUDIT_ACTION_LABELS } from '@/lib/presentation/labels';
import { formatDateTime, isCalendarDay } from '@/lib/platform/time/guatemala-time';
import { suggestIntegrations } from '../integration-suggestions';
import { integrationPath, sectionOfAuditAction } from '@/lib/surfaces/console/integration-sections';

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
    targetType: tipo === 'integration' || tipo === 'console_user' || tipo === 'portal_user' ? tipo : undefined,
    targetId: text(params.id) && /^\d{1,12}$/.test(params.id as string) ? (params.id as string) : undefined,
    actor: actor === 'cli' || actor === 'system' || actor === 'anonymous' || actor === 'integrator' || (actor && /^\d{1,9}$/.test(actor)) ? actor : undefined,
    action: action && Object.hasOwn(AUDIT_ACTION_LABELS, action) ? action : undefined,
    since: since && isCalendarDay(since) ? since : undefined,
    until: until && isCalendarDay(until) ? until : undefined,
  };
  if (filters.since && filters.until && filters.until < filters.since) {
    return { filters: { ...filters, until: undefined }, problem: 'La fecha final es anterior a la inicial.' };
  }
  return { filters };
}

function withoutDates(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...params].filter(([key]) => key !== 'desde' && key !== 'hasta'));
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('admin');
  const params = await searchParams;
  // The integration field sends what it shows (a name, or a suggestion with its number); the URL
  // keeps the integration as the changed object, tipo=integration&id=N, as links from elsewhere do.
  const typedIntegration = typeof params.integracion === 'string' ? params.integracion.trim() : undefined;
  let integrationProblem: string | undefined;
  if (typedIntegration !== undefined) {
    const rest = Object.entries(params).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '' && !['integracion', 'tipo', 'id', 'despues'].includes(entry[0]),
    );
    if (typedIntegration === '') {
      // Emptied: no integration, whatever object type is chosen.
      if (params.tipo === 'integration' && params.id) redirect(`/admin/auditoria?${new URLSearchParams([['tipo', 'integration'], ...rest])}`);
    } else {
      const resolved = await resolveIntegrationFilter(typedIntegration);
      if ('id' in resolved) redirect(`/admin/auditoria?${new URLSearchParams([['tipo', 'integration'], ['id', String(resolved.id)], ...rest])}`);
      integrationProblem = resolved.problem;
    }
  }
  const { filters, problem } = readFilters(params);
  const after = text(params.despues);
  const chosenIntegration = filters.targetType === 'integration' && filters.targetId ? Number(filters.targetId) : undefined;
  const page = await listAuditPage(filters, after);
  const { users, names, portalEmails } = await auditPageNames(page.rows, chosenIntegration);
  const userNames = new Map(users.map((user) => [user.id, user.name]));
  const chosenName = chosenIntegration === undefined ? undefined : names.get(chosenIntegration);
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

  const target = (type: string, id: string, action: string) => {
    if (type === 'integration') {
      const nombre = names.get(Number(id));
      // The section the change was made in, where its current value shows.
      return <Link href={integrationPath(id, sectionOfAuditAction(action))}>{nombre ? `Integración ${nombre}` : `Integración ${id}`}</Link>;
    }
    // A sign-in with an e-mail no account has: the e-mail itself is never kept.
    if (type === 'console_user' && isNoAccount(id)) return 'Correo sin cuenta';
    if (type === 'console_user') return `Usuario ${userNames.get(Number(id)) ?? id}`;
    if (type === 'portal_user' && isNoAccount(id)) return 'Correo sin cuenta del portal';
    if (type === 'portal_user') return `Usuario del portal ${portalEmails.get(Number(id)) ?? id}`;
    if (type === 'ledger') return 'Todas las integraciones';
    if (type === 'alerts') return 'Canales de alerta';
    return `${type} ${id}`;
  };

  return (
    <>
      <PageHeader
        title="Auditoría"
        description="Cada cambio a integraciones, consultas habilitadas, tarifas, saldos, tokens y usuarios, y los inicios de sesión, intentos fallidos y bloqueos: quién, cuándo, antes y después."
      />
      <FilterForm action="/admin/auditoria" reset={filtered || after ? { href: '/admin/auditoria', label: 'Ver todo desde el más reciente' } : undefined}>
        <FilterSelect name="quien" label="Quién" value={filters.actor} all="Todos" options={users.map((user) => ({ value: user.id, label: user.name }))}>
          <option value="cli">Operador (CLI)</option>
          <option value="system">El sistema</option>
          <option value="anonymous">{ANONYMOUS_ACTOR_LABEL}</option>
          <option value="integrator">{INTEGRATOR_ACTOR_LABEL}</option>
        </FilterSelect>
        <FilterSelect name="accion" label="Cambio" value={filters.action} all="Todos" options={labelOptions(AUDIT_ACTION_LABELS)} />
        <FilterSelect
          name="tipo"
          label="Objeto"
          value={filters.targetType}
          all="Todos"
          options={[
            { value: 'integration', label: 'Integraciones' },
            { value: 'console_user', label: 'Usuarios' },
            { value: 'portal_user', label: 'Usuarios del portal' },
          ]}
        />
        <IntegrationFilterField
          suggest={suggestIntegrations}
          defaultValue={
            integrationProblem ? (typedIntegration ?? '') : chosenIntegration !== undefined ? (chosenName ? integrationChoiceLabel({ id: chosenIntegration, nombre: chosenName }) : String(chosenIntegration)) : ''
          }
          problem={integrationProblem}
        />
        <DateRangeFields
          desde={filters.since}
          hasta={problem ? text(params.hasta) : filters.until}
          hastaProblem={problem}
          presets={{ path: '/admin/auditoria', filters: withoutDates(base) }}
        />
        {/* A user as the changed object (a link from the users page): the integration has its own field. */}
        {filters.targetId && filters.targetType !== 'integration' && <input type="hidden" name="id" value={filters.targetId} />}
      </FilterForm>
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
                    <td data-label="Objeto">{target(entry.targetType, entry.targetId, entry.action)}</td>
                    <td className="small" data-label="Antes → después">
                      {changes.length === 0 ? (
                        // Sign-ins and failed attempts are events: they change nothing to compare.
                        <span className="muted">{isAccessEvent(entry.action) ? '—' : 'sin diferencias'}</span>
                      ) : (
                        <ul className="changes">
                          {changes.map((change) => (
                            <li key={change.field}>
                              {auditFieldLabel(change.field, entry.targetType)}:{' '}
                              {change.stated ? (
                                formatAuditValue(change.field, change.after)
                              ) : (
                                <>
                                  {formatAuditValue(change.field, change.before)} → {formatAuditValue(change.field, change.after)}
                                </>
                              )}
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
        <Pagination
          newer={undefined}
          older={`/admin/auditoria?${new URLSearchParams({ ...Object.fromEntries(base), despues: page.older })}`}
          olderLabel="Cambios anteriores"
        />
      )}
    </>
  );
}
