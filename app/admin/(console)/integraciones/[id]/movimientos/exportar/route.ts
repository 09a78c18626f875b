// GET /admin/integraciones/:id/movimientos/exportar - the balance history as CSV (admin and support).
import { consoleUserWithAccess } from '@/lib/surfaces/console/session';
import { historyCsvStream } from '@/lib/core/billing/history';
import { parseHistoryFilters } from '@/lib/presentation/history-filters';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { logger } from '@/lib/platform/logging/logger';

export const dynamic = 'force-dynamic';

const log = logger('console');

function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  const { id } = await params;
  const integration = /^\d{1,9}$/.test(id) ? await findIntegration(Number(id)) : undefined;
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
