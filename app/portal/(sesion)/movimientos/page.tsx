import type { Metadata } from 'next';
import Link from 'next/link';
import { HeldInFlightNotice } from '@/components/console/balance-history';
import { DateRangeFields, FilterForm, FilterSelect, labelOptions } from '@/components/console/filter-form';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { HISTORY_KIND_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { portalBalance } from '@/lib/surfaces/portal/home';
import { portalMovementsPage } from '@/lib/surfaces/portal/movements';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Movimientos' };

const BASE = '/portal/movimientos';

// Movimientos: every top-up, adjustment and charged query of the session's integration, newest
// first, with the balance each one left; paged and filtered like the console's balance history.
export default async function PortalMovementsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(BILLING_READERS);
  const query = await searchParams;
  const [page, balanceCentavos] = await Promise.all([portalMovementsPage(user, query), portalBalance(user)]);
  const { filters, hastaProblem } = page;
  const ignored = page.problems.filter((problem) => problem !== hastaProblem);
  const filterParams = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const link = (extra: Record<string, string>) => `${BASE}?${new URLSearchParams({ ...Object.fromEntries(filterParams), ...extra })}`;
  const filtered = [...filterParams.keys()].length > 0;
  return (
    <>
      <PageHeader
        title="Movimientos"
        description={
          <>
            Cada recarga, ajuste y consulta cobrada de su integración, con el saldo que dejó. Saldo actual:{' '}
            <strong data-testid="portal-current-balance">{formatQuetzales(balanceCentavos)}</strong>.
          </>
        }
      />
      <FilterForm action={BASE} reset={filtered ? { href: BASE, label: 'Quitar filtros' } : undefined}>
        <FilterSelect name="tipo" label="Movimiento" value={filters.tipo} all="Todos" options={labelOptions(HISTORY_KIND_LABELS)} />
        <DateRangeFields
          desde={filters.desde}
          hasta={hastaProblem && typeof query.hasta === 'string' ? query.hasta : filters.hasta}
          hastaProblem={hastaProblem}
          presets={{ path: BASE, filters: filterParams }}
        />
      </FilterForm>
      {ignored.length > 0 && (
        <p className="notice warn" role="alert">
          Se ignoraron filtros no válidos: {ignored.join(' ')}
        </p>
      )}
      <HeldInFlightNotice held={page.held} />
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'Ningún movimiento coincide con estos filtros.' : 'Su integración todavía no tiene movimientos de saldo.'} />
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Movimientos" tabIndex={0}>
            <table className="data stacked" data-testid="portal-movements">
              <thead>
                <tr>
                  <th>Fecha (hora de Guatemala)</th>
                  <th>Movimiento</th>
                  <th className="num">Monto</th>
                  <th className="num">Saldo después</th>
                  <th>Origen</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((row) => (
                  <tr key={row.id}>
                    <td className="nowrap" data-label="Fecha">
                      {formatDateTime(row.createdAt)}
                    </td>
                    <td data-label="Movimiento">{HISTORY_KIND_LABELS[row.kind]}</td>
                    <td className="num" data-label="Monto">
                      {formatQuetzales(row.amountCentavos)}
                    </td>
                    <td className="num" data-label="Saldo después" data-testid="portal-balance-after">
                      {formatQuetzales(row.balanceAfterCentavos)}
                    </td>
                    <td className="small" data-label="Origen">
                      <span>
                        {row.origin}
                        {row.note ? ` · ${row.note}` : ''}
                        {row.invoiceId !== null && (
                          <>
                            {' · '}
                            <Link href={`/portal/facturas/${row.invoiceId}`} data-testid="movement-invoice">
                              Factura
                            </Link>
                          </>
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination newer={page.newer ? link({ antes: page.newer }) : undefined} older={page.older ? link({ despues: page.older }) : undefined} olderLabel="Más antiguos" />
        </>
      )}
    </>
  );
}
