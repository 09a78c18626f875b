// GET /admin/registros/exportar - the filtered query records as CSV, streamed (admin and support).
import { currentConsoleUser } from '@/lib/auth/session';
import { guatemalanToday } from '@/lib/console/time';
import { recordsCsvStream } from '@/lib/records/csv';
import { parseRecordFilters } from '@/lib/records/filters';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  // Both roles may export; the session is checked here, not only by the pages that link here.
  const user = await currentConsoleUser();
  if (!user) return new Response('Tu sesión terminó. Vuelve a iniciar sesión en /admin/login.', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const { filters, problems } = parseRecordFilters(new URL(request.url).searchParams);
  if (problems.length > 0) {
    return new Response(`Filtros no válidos: ${problems.join('; ')}`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return new Response(recordsCsvStream(filters), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="registros-${guatemalanToday()}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
