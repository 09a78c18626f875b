// An integration's balance history («Movimientos»): its filters as the address carries them, one
// page of movements with the holds still in flight, and the whole history as CSV.
import { heldInFlight, historyCsvStream, listHistoryPage, type HistoryFilters } from '@/lib/core/billing/history';
import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { logger } from '@/lib/platform/logging/logger';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { integrationOfAddress } from '@/lib/surfaces/console/integration-pages';
import { parseHistoryFilters } from '@/lib/presentation/history-filters';

const log = logger('console');

/** The movements' filters in the address, and what was wrong with them (the reversed range on «Hasta»). */
export function balanceHistoryFilters(query: Parameters<typeof parseHistoryFilters>[0]) {
  return parseHistoryFilters(query);
}

/** One page of movements (newest first) and the holds in flight. */
export async function balanceHistoryView(integrationId: number, filters: HistoryFilters, position: { after?: string; before?: string }) {
  const [page, held] = await Promise.all([listHistoryPage(integrationId, filters, position), heldInFlight(integrationId)]);
  return { page, held };
}

function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/** The balance history as CSV (administrators and support), with the filters of the address. */
export async function balanceHistoryCsvDownload(request: Request, id: string): Promise<Response> {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  const integration = await integrationOfAddress(id);
  if (!integration) return plainText(404, 'No existe esa integración.');
  const { filters, problems } = parseHistoryFilters(new URL(request.url).searchParams);
  if (problems.length > 0) return plainText(400, `Filtros no válidos: ${problems.join(' ')}`);
  return new Response(
    historyCsvStream(integration.id, filters, (error) => log.error({ err: error, integrationId: integration.id }, 'balance history export failed')),
    {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="saldo-${integration.nombre}-${guatemalanToday()}.csv"`,
        'cache-control': 'no-store',
      },
    },
  );
}
