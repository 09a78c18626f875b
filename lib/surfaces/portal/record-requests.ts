import { env } from '@/lib/platform/settings/env';
import { logger } from '@/lib/platform/logging/logger';
import { postedFormFields } from '@/lib/platform/http/posted-form';
import { referenceSearch, SEARCH_REFERENCE_PARAM } from '@/lib/core/personal-data/search-references';
import { EXPIRED_SEARCH_MESSAGE } from '@/lib/presentation/personal-data-labels';
import { countMatchingRecords } from '@/lib/core/records/count';
import { recordsCsvStream } from '@/lib/core/records/csv';
import { plainText } from '@/lib/platform/http/plain-text';
import { portalDownloadPage } from './download-page';
import { portalDownloadUser } from './downloads';
import { PORTAL_REFUSAL_TITLE, portalRefusalText } from './refusals';
import { portalRecordFilters, PORTAL_RECORDS_PATH, portalRequestIdSearch } from './records';
import { RECORD_READERS } from '@/lib/flows/portal-identity/roles';
import { currentPortalUser } from './session';

// The Consultas routes that are not pages: the search form (posted, so a NIT or CUI never reaches
// an address) and the CSV export (streamed). Both check the session and the role themselves, as the
// portal's downloads do, and read or name only the session's integration.

/** Longest NIT or CUI (or request id) the search box takes; the console's search cuts there too. */
const MAX_TYPED_LENGTH = 200;
/** The list's own filters, carried back from the search form; anything else posted is dropped. */
const LIST_FIELDS = ['consulta', 'estado', 'desde', 'hasta'] as const;

export const PORTAL_EXPORT_MESSAGES = {
  range: 'Elija las fechas desde y hasta de la exportación (AAAA-MM-DD).',
  badForm: 'El formulario no es válido.',
} as const;

function seeOther(location: string): Response {
  // A relative Location: the browser resolves it against the address it asked, whatever the host.
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

function withQuery(path: string, query: URLSearchParams): string {
  return query.size > 0 ? `${path}?${query}` : path;
}

/**
 * POST /portal/consultas/buscar: a request id opens its record (or the list says what happened to
 * it); a NIT or CUI is kept behind a reference only this user can open, and the list opens with
 * ?busqueda=bq_…. Without a session, or for a role that does not read records, nothing is looked up
 * and what was typed is dropped.
 */
export async function portalRecordSearch(request: Request): Promise<Response> {
  const posted = await postedFormFields(request);
  if (!posted) return plainText(400, PORTAL_EXPORT_MESSAGES.badForm);
  const user = await currentPortalUser();
  if (!user || user.pendingStep) return seeOther('/portal/ingresar');
  if (!RECORD_READERS.includes(user.role)) return portalDownloadPage(403, user, PORTAL_REFUSAL_TITLE, portalRefusalText('página', user.integrationName, user.role, RECORD_READERS));
  const back = new URLSearchParams();
  for (const field of LIST_FIELDS) {
    const value = posted.get(field)?.trim();
    if (value) back.set(field, value);
  }
  const typed = (posted.get('identificador') ?? '').trim().slice(0, MAX_TYPED_LENGTH);
  const byRequestId = await portalRequestIdSearch(user, typed);
  if (byRequestId?.kind === 'record') return seeOther(byRequestId.path);
  if (byRequestId) {
    // A trace of this integration, or an id it cannot read (unknown or another integration's): the
    // list says which, by the id alone, which is no personal data.
    return seeOther(withQuery(PORTAL_RECORDS_PATH, new URLSearchParams({ solicitud: byRequestId.kind === 'trace' ? byRequestId.trace.requestId : byRequestId.requestId })));
  }
  if (typed !== '') back.set(SEARCH_REFERENCE_PARAM, await referenceSearch({ portalUserId: user.id }, typed));
  return seeOther(withQuery(PORTAL_RECORDS_PATH, back));
}

/**
 * GET /portal/consultas/exportar?desde=…&hasta=…[&consulta&estado&busqueda]: the session's
 * integration's records of a chosen range as CSV, newest first, streamed in keyset batches (the
 * console's export, lib/core/records/csv.ts), with NIT and CUI masked (docs/decisions.md).
 */
export async function portalRecordsExport(request: Request): Promise<Response> {
  const user = await portalDownloadUser(RECORD_READERS);
  if (user instanceof Response) return user;
  const { filters, problems, expired } = await portalRecordFilters(user, new URL(request.url).searchParams);
  if (expired) return plainText(400, EXPIRED_SEARCH_MESSAGE);
  if (problems.length > 0) return plainText(400, `Filtros no válidos: ${problems.map((problem) => problem.message).join('; ')}`);
  if (!filters.desde || !filters.hasta) return plainText(400, PORTAL_EXPORT_MESSAGES.range);
  const maxRows = env().CSV_EXPORT_MAX_ROWS;
  // Refused up front rather than a file cut short; the rollups count without a scan.
  const matching = await countMatchingRecords(filters);
  if (matching !== undefined && matching > maxRows) {
    return plainText(
      413,
      `Ese rango abarca ${matching.toLocaleString('es-GT')} consultas y una exportación admite como máximo ${maxRows.toLocaleString('es-GT')}. Acorte el rango y exporte por partes.`,
    );
  }
  const log = logger('portal');
  return new Response(
    recordsCsvStream(filters, maxRows, (error) => log.error({ err: error, integrationId: user.integrationId }, 'portal records CSV failed'), { identifiers: 'masked' }),
    {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="consultas-${filters.desde}-a-${filters.hasta}.csv"`,
        'cache-control': 'no-store',
      },
    },
  );
}
