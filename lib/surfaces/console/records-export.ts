// The filtered query records as CSV, streamed (app/admin/(console)/registros/exportar/route.ts):
// masked for both roles; in full for an administrator, the list's filters and a reason (motivo),
// written to the personal-data access log before anything is sent. A search for a NIT or CUI
// travels as its reference (busqueda).
import { consoleUserWithAccess, type ConsoleUserSession } from '@/lib/flows/auth/session';
import { env } from '@/lib/platform/settings/env';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { logger } from '@/lib/platform/logging/logger';
import { completeAccessEntry, writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { exportFiltersForLog } from '@/lib/core/personal-data/export-log';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { withSearchedIdentifier } from '@/lib/core/personal-data/search-references';
import { countMatchingRecords } from '@/lib/core/records/count';
import { recordsCsvStream } from '@/lib/core/records/csv';
import { plainSearchParams } from '@/lib/core/records/filters';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { EXPIRED_SEARCH_MESSAGE } from '@/lib/presentation/personal-data-labels';
import { parseRecordFilters } from '@/lib/presentation/record-filters';

function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

/** GET: identifiers masked (administrators and support). */
export async function maskedRecordsExport(request: Request): Promise<Response> {
  // Both roles may export; the session is checked here, not only by the pages that link here.
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  const searchParams = new URL(request.url).searchParams;
  if (searchParams.get('identificadores') === 'completos') {
    return plainText(400, 'La exportación con NIT y CUI completos se pide desde «Registros de consultas», con un motivo: queda registrada.');
  }
  return exportRecords(user, plainSearchParams(searchParams), undefined);
}

/** POST: identifiers in full (an administrator, with a reason, logged before anything is sent). */
export async function fullRecordsExport(request: Request): Promise<Response> {
  const user = await consoleUserWithAccess();
  if (!user) return plainText(401, 'Su sesión terminó. Vuelva a iniciar sesión en /admin/login.');
  if (user.role !== 'admin') {
    return plainText(403, 'Solo un administrador exporta los NIT y CUI completos. Exporte sin esa opción: los identificadores salen enmascarados.');
  }
  const posted = await postedFormFields(request);
  if (!posted) return plainText(400, 'El formulario no es válido.');
  const fields = Object.fromEntries(posted);
  const { motivo, ...filters } = fields;
  const reason = accessReasonSchema.safeParse(motivo ?? '');
  if (!reason.success) return plainText(400, `${reason.error.issues[0]!.message} Vuelva a la lista y exporte de nuevo.`);
  return exportRecords(user, filters, reason.data);
}

/** Masked without a reason; in full with one (an administrator's POST), logged first. */
async function exportRecords(user: ConsoleUserSession, params: Record<string, string>, fullReason: string | undefined): Promise<Response> {
  const searched = await withSearchedIdentifier({ consoleUserId: user.id }, params);
  if (searched.expired) return plainText(400, EXPIRED_SEARCH_MESSAGE);
  const { filters, problems } = parseRecordFilters(searched.params);
  if (problems.length > 0) return plainText(400, `Filtros no válidos: ${problems.map((problem) => problem.message).join('; ')}`);
  const maxRows = env().CSV_EXPORT_MAX_ROWS;
  // Refuse up front rather than send a file cut short; the rollups give the count without a scan.
  const matching = await countMatchingRecords(filters);
  if (matching !== undefined && matching > maxRows) {
    return plainText(
      413,
      `Estos filtros abarcan ${matching.toLocaleString('es-GT')} consultas y una exportación admite como máximo ${maxRows.toLocaleString('es-GT')}. ` +
        'Acote el rango de fechas o agregue filtros y exporte por partes.',
    );
  }
  const full = fullReason !== undefined;
  const log = logger('console');
  // Logged before the first byte: an export that cannot be logged is not sent.
  const accessId = full ? await writeAccessEntry({ userId: user.id, kind: 'export', reason: fullReason, details: exportFiltersForLog(filters) }) : undefined;
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
