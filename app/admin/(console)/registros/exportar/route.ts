// GET /admin/registros/exportar - the filtered query records as CSV, streamed (admin and support).
// Identifiers are masked; an administrator gets them in full with ?identificadores=completos,
// which is written to the personal-data access log (filters, range, rows) before anything is sent.
import { consoleUserWithAccess } from '@/lib/auth/session';
import { env } from '@/lib/env';
import { guatemalanToday } from '@/lib/format/guatemala-time';
import { logger } from '@/lib/logging/logger';
import { completeAccessEntry, writeAccessEntry } from '@/lib/personal-data/access-log';
import { exportFiltersForLog } from '@/lib/personal-data/export-log';
import { countMatchingRecords } from '@/lib/records/count';
import { recordsCsvStream } from '@/lib/records/csv';
import { parseRecordFilters } from '@/lib/records/filters';

export const dynamic = 'force-dynamic';

function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

export async function GET(request: Request) {
  // Both roles may export; the session is checked here, not only by the pages that link here.
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Tu sesión terminó. Vuelve a iniciar sesión en /admin/login.');
  const searchParams = new URL(request.url).searchParams;
  const full = searchParams.get('identificadores') === 'completos';
  if (full && user.role !== 'admin') {
    return plainText(403, 'Solo un administrador exporta los NIT y CUI completos. Exporta sin esa opción: los identificadores salen enmascarados.');
  }
  searchParams.delete('identificadores');
  const { filters, problems } = parseRecordFilters(searchParams);
  if (problems.length > 0) return plainText(400, `Filtros no válidos: ${problems.map((problem) => problem.message).join('; ')}`);
  const maxRows = env().CSV_EXPORT_MAX_ROWS;
  // Refuse up front rather than send a file cut short; the rollups give the count without a scan.
  const matching = await countMatchingRecords(filters);
  if (matching !== undefined && matching > maxRows) {
    return plainText(
      413,
      `Estos filtros abarcan ${matching.toLocaleString('es-GT')} consultas y una exportación admite como máximo ${maxRows.toLocaleString('es-GT')}. ` +
        'Acota el rango de fechas o agrega filtros y exporta por partes.',
    );
  }
  const log = logger('console');
  // Logged before the first byte: an export that cannot be logged is not sent.
  const accessId = full ? await writeAccessEntry({ userId: user.id, kind: 'export', details: exportFiltersForLog(filters) }) : undefined;
  return new Response(
    recordsCsvStream(filters, maxRows, (error) => log.error({ err: error }, 'CSV export failed'), {
      identifiers: full ? 'full' : 'masked',
      onFinished: async (rows) => {
        if (accessId === undefined) return;
        await completeAccessEntry(accessId, { rows }).catch((error: unknown) => log.error({ err: error, accessId }, 'export row count not logged'));
      },
    }),
    {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="registros-${guatemalanToday()}${full ? '-identificadores-completos' : ''}.csv"`,
        'cache-control': 'no-store',
      },
    },
  );
}
