import type { Metadata } from 'next';
import Link from 'next/link';
import { CopyableId } from '@/components/console/copyable-id';
import { DateRangeFields, FilterForm, FilterSelect } from '@/components/console/filter-form';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import type { PersonalDataAccessKind } from '@/db/schema';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { describeAuditActor } from '@/lib/presentation/audit-labels';
import { formatDateTime, isCalendarDay } from '@/lib/platform/time/guatemala-time';
import type { AccessEntry, AccessFilters } from '@/lib/core/personal-data/access-log';
import { ACCESS_KIND_LABELS, describeAccessDetails } from '@/lib/presentation/personal-data-labels';
import { personalDataAccessView } from '@/lib/surfaces/console/personal-data';

export const metadata: Metadata = { title: 'Accesos a datos personales' };

function text(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function readFilters(params: Record<string, string | string[] | undefined>): { filters: AccessFilters; problem?: string } {
  const user = text(params.quien);
  const record = text(params.consulta);
  const kind = text(params.tipo);
  const since = text(params.desde);
  const until = text(params.hasta);
  const filters: AccessFilters = {
    userId: user && /^\d{1,9}$/.test(user) ? Number(user) : undefined,
    recordId: record && /^\d{1,15}$/.test(record) ? Number(record) : undefined,
    kind: kind && Object.hasOwn(ACCESS_KIND_LABELS, kind) ? (kind as PersonalDataAccessKind) : undefined,
    since: since && isCalendarDay(since) ? since : undefined,
    until: until && isCalendarDay(until) ? until : undefined,
  };
  if (filters.since && filters.until && filters.until < filters.since) {
    return { filters: { ...filters, until: undefined }, problem: 'La fecha final es anterior a la inicial.' };
  }
  return { filters };
}

export default async function PersonalDataAccessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('admin');
  const params = await searchParams;
  const { filters, problem } = readFilters(params);
  const after = text(params.despues);
  const { page, users } = await personalDataAccessView(filters, after);
  const base = new URLSearchParams();
  const filterParams: Array<[string, string | number | undefined]> = [
    ['quien', filters.userId],
    ['consulta', filters.recordId],
    ['tipo', filters.kind],
    ['desde', filters.since],
    ['hasta', filters.until],
  ];
  for (const [key, value] of filterParams) if (value !== undefined) base.set(key, String(value));
  const filtered = [...base.keys()].length > 0;

  return (
    <>
      <PageHeader
        title="Accesos a datos personales"
        description="Cada vez que alguien vio NIT o CUI completos: los que se mostraron en una consulta con su motivo, las exportaciones con identificadores completos (consola o línea de comandos) y los informes de quién consultó un identificador."
        actions={
          <Link className="button secondary" href="/admin/datos-personales/quien-consulto">
            ¿Quién consultó este CUI o NIT?
          </Link>
        }
      />
      <FilterForm action="/admin/datos-personales" reset={filtered || after ? { href: '/admin/datos-personales', label: 'Ver todo desde el más reciente' } : undefined}>
        <FilterSelect name="quien" label="Quién" value={filters.userId} all="Todos" options={users.map((user) => ({ value: user.id, label: `${user.name} (${user.email})` }))} />
        <FilterSelect name="tipo" label="Acceso" value={filters.kind} all="Todos" options={Object.entries(ACCESS_KIND_LABELS).map(([value, label]) => ({ value, label }))} />
        <div className="field">
          <label htmlFor="consulta">Consulta n.º</label>
          <input id="consulta" name="consulta" inputMode="numeric" defaultValue={filters.recordId ?? ''} placeholder="Por ejemplo 1042" />
        </div>
        <DateRangeFields
          desde={filters.since}
          hasta={problem ? text(params.hasta) : filters.until}
          hastaProblem={problem}
          presets={{ path: '/admin/datos-personales', filters: base }}
        />
      </FilterForm>
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'Ningún acceso coincide con estos filtros.' : 'Todavía nadie ha visto datos personales completos.'} />
        </div>
      ) : (
        <div className="table-wrap" role="region" aria-label="Accesos registrados" tabIndex={0}>
          <table className="data stacked" data-testid="personal-data-access">
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Quién</th>
                <th>Acceso</th>
                <th>Consulta</th>
                <th>Motivo o detalle</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((entry) => (
                <AccessRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.older && (
        <Pagination
          newer={undefined}
          older={`/admin/datos-personales?${new URLSearchParams({ ...Object.fromEntries(base), despues: page.older })}`}
          olderLabel="Accesos anteriores"
        />
      )}
    </>
  );
}

function AccessRow({ entry }: { entry: AccessEntry }) {
  return (
    <tr data-testid={`access-${entry.id}`}>
      <td className="nowrap" data-label="Fecha">
        {formatDateTime(entry.createdAt)}
      </td>
      <td className="small" data-label="Quién">
        {entry.userName !== null ? (
          <>
            {entry.userName} <span className="muted">({entry.userEmail})</span>
          </>
        ) : entry.actor?.startsWith('integrator:') ? (
          // A person of an integrator who revealed one of their integration's records in the portal.
          describeAuditActor(entry.actor, new Map())
        ) : (
          <>
            Línea de comandos <span className="muted">({entry.actor?.startsWith('cli:') ? `usuario del sistema ${entry.actor.slice(4)}` : 'operador'})</span>
          </>
        )}
      </td>
      <td data-label="Acceso">{ACCESS_KIND_LABELS[entry.kind]}</td>
      <td data-label="Consulta">
        {entry.recordId === null ? (
          '—'
        ) : (
          <CopyableId value={String(entry.recordId)} what="el número de consulta">
            <Link href={`/admin/registros/${entry.recordId}`} prefetch={false}>
              {entry.recordId}
            </Link>
          </CopyableId>
        )}
      </td>
      <td className="small" data-label="Motivo o detalle">
        {/* A record's reveal has its reason only; an export with a reason and a bulk job row's reveal have both. */}
        {entry.reason && (entry.kind !== 'reveal' || entry.details !== null) ? (
          <>
            <strong>{entry.reason}</strong>
            <br />
            {describeAccessDetails(entry.kind, entry.details)}
          </>
        ) : (
          (entry.reason ?? describeAccessDetails(entry.kind, entry.details))
        )}
      </td>
    </tr>
  );
}
