import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { BalanceHistoryTable, HeldInFlightNotice } from '@/components/console/balance-history';
import { DateRangeFields, FilterForm, FilterSelect, labelOptions } from '@/components/console/filter-form';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { balanceHistoryFilters, balanceHistoryView } from '@/lib/surfaces/console/balance-history';
import { HISTORY_KIND_LABELS } from '@/lib/vocabulary/labels';
import { integrationOfAddress } from '@/lib/surfaces/console/integration-pages';
import { formatQuetzales } from '@/lib/platform/money';
import { balanceHistoryPath, integrationPath } from '@/lib/surfaces/console/integration-sections';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const integration = await integrationOfAddress(id);
  return { title: integration ? `Historial de saldo de ${integration.nombre}` : 'Historial de saldo' };
}

export default async function BalanceHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser('support');
  const { id } = await params;
  const integration = await integrationOfAddress(id);
  if (!integration) notFound();
  const query = await searchParams;
  const { filters, problems, hastaProblem } = balanceHistoryFilters(query);
  // A reversed range is shown on the "Hasta" field, with what was typed; the rest in the notice.
  const ignored = problems.filter((problem) => problem !== hastaProblem);
  const position = {
    after: typeof query.despues === 'string' ? query.despues : undefined,
    before: typeof query.antes === 'string' ? query.antes : undefined,
  };
  const { page, held } = await balanceHistoryView(integration.id, filters, position);
  const base = balanceHistoryPath(integration.id);
  const filterParams = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const link = (extra: Record<string, string>) => `${base}?${new URLSearchParams({ ...Object.fromEntries(filterParams), ...extra })}`;
  const filtered = [...filterParams.keys()].length > 0;

  return (
    <>
      <PageHeader
        title={`Historial de saldo de ${integration.nombre}`}
        back={{ href: integrationPath(integration.id, 'saldo'), label: `Saldo de ${integration.nombre}` }}
        description={
          <>
            Cada recarga, ajuste y consulta cobrada, con el saldo después de cada movimiento. Saldo actual:{' '}
            <strong data-testid="current-balance">{formatQuetzales(integration.balanceCentavos)}</strong>.
          </>
        }
        actions={
          <a className="button secondary" href={`${base}/exportar?${filterParams}`} download>
            Exportar CSV{filtered ? ' (filtrado)' : ''}
          </a>
        }
      />
      <FilterForm action={base} reset={filtered ? { href: base, label: 'Quitar filtros' } : undefined}>
        <FilterSelect name="tipo" label="Movimiento" value={filters.tipo} all="Todos" options={labelOptions(HISTORY_KIND_LABELS)} />
        <DateRangeFields
          desde={filters.desde}
          hasta={hastaProblem && typeof query.hasta === 'string' ? query.hasta : filters.hasta}
          hastaProblem={hastaProblem}
          presets={{ path: base, filters: filterParams }}
        />
      </FilterForm>
      {ignored.length > 0 && (
        <p className="notice warn" role="alert">
          Se ignoraron filtros no válidos: {ignored.join(' ')}
        </p>
      )}
      <HeldInFlightNotice held={held} />
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'Ningún movimiento coincide con estos filtros.' : 'Esta integración todavía no tiene movimientos de saldo.'} />
        </div>
      ) : (
        <>
          <BalanceHistoryTable rows={page.rows} integrationId={integration.id} canReadAudit={user.role === 'admin'} />
          <Pagination
            newer={page.newer ? link({ antes: page.newer }) : undefined}
            older={page.older ? link({ despues: page.older }) : undefined}
            olderLabel="Más antiguos"
          />
        </>
      )}
    </>
  );
}
