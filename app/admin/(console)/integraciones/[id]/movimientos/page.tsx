import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { BalanceHistoryTable, HeldInFlightNotice } from '@/components/console/balance-history';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/auth/session';
import { heldInFlight, listHistoryPage, parseHistoryFilters } from '@/lib/billing/history';
import { HISTORY_KIND_LABELS } from '@/lib/format/labels';
import { findIntegration } from '@/lib/integrations/service';
import { formatQuetzales } from '@/lib/money';

export const metadata: Metadata = { title: 'Historial de saldo' };

export default async function BalanceHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser('support');
  const { id } = await params;
  if (!/^\d{1,9}$/.test(id)) notFound();
  const integration = await findIntegration(Number(id));
  if (!integration) notFound();
  const query = await searchParams;
  const { filters, problems } = parseHistoryFilters(query);
  const position = {
    after: typeof query.despues === 'string' ? query.despues : undefined,
    before: typeof query.antes === 'string' ? query.antes : undefined,
  };
  const [page, held] = await Promise.all([listHistoryPage(integration.id, filters, position), heldInFlight(integration.id)]);
  const base = `/admin/integraciones/${integration.id}/movimientos`;
  const filterParams = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const link = (extra: Record<string, string>) => `${base}?${new URLSearchParams({ ...Object.fromEntries(filterParams), ...extra })}`;
  const filtered = [...filterParams.keys()].length > 0;

  return (
    <>
      <PageHeader
        title={`Historial de saldo de ${integration.nombre}`}
        back={{ href: `/admin/integraciones/${integration.id}`, label: integration.nombre }}
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
      <form className="card filters" action={base} role="search" aria-label="Filtros">
        <div className="field">
          <label htmlFor="tipo">Movimiento</label>
          <select id="tipo" name="tipo" defaultValue={filters.tipo ?? ''}>
            <option value="">Todos</option>
            {Object.entries(HISTORY_KIND_LABELS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="desde">Desde</label>
          <input id="desde" name="desde" type="date" defaultValue={filters.desde ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="hasta">Hasta (incluido)</label>
          <input id="hasta" name="hasta" type="date" defaultValue={filters.hasta ?? ''} />
        </div>
        <div className="actions">
          <button type="submit">Filtrar</button>
          {filtered && (
            <Link className="button secondary" href={base}>
              Quitar filtros
            </Link>
          )}
        </div>
      </form>
      {problems.length > 0 && (
        <p className="notice warn" role="alert">
          Se ignoraron filtros no válidos: {problems.join(' ')}
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
          <nav className="pagination" aria-label="Páginas">
            {page.newer ? (
              <Link className="button secondary" href={link({ antes: page.newer })}>
                ← Más recientes
              </Link>
            ) : (
              <span />
            )}
            {page.older && (
              <Link className="button secondary" href={link({ despues: page.older })}>
                Más antiguos →
              </Link>
            )}
          </nav>
        </>
      )}
    </>
  );
}
