// «Registros de consultas»: the query records, newest first, by the list's filters (a NIT or CUI
// behind its search reference, never in the address), identifiers masked for every role; what a
// request id that left no record says (its trace, or the refusals around it); one record's page;
// and the request-id search that opens a record by its id.
import { recordListAddress, SEARCH_REFERENCE_PARAM, withSearchedIdentifier } from '@/lib/core/personal-data/search-references';
import { REVEAL_REASON_MAX_LENGTH } from '@/lib/core/personal-data/access-log';
import { plainSearchParams, type RecordFilters, type SearchParamsInput } from '@/lib/core/records/filters';
import { findRecordDetail, listRecordsPage } from '@/lib/core/records/list';
import { recordIdForRequestId, recordOfReplay, refusalReasonsAround, replayRecordPath, REFUSAL_WINDOW_HOURS, REPLAY_PARAM, typedRequestId, type RefusalReasonCount } from '@/lib/core/request-ids/search';
import { requestTrace, untracedSince, type RequestTrace } from '@/lib/core/request-traces/read';
import { requestTraceSettings } from '@/lib/core/request-traces/settings';
import { maskedIdentifiers } from '@/lib/core/sealing/masking';
import { consoleUserWithAccess } from '@/lib/flows/auth/session';
import { env } from '@/lib/platform/settings/env';
import { parseRecordFilters } from '@/lib/presentation/record-filters';
import { untracedAnswersText } from '@/lib/presentation/untraced-answers';

/** The record page's parameter for the replayed answer's request id that opened it; the longest reason asked for revealing identifiers. */
export { REPLAY_PARAM, REVEAL_REASON_MAX_LENGTH };

/** The list's filters as the address (or a posted form) holds them, and what was wrong with them. */
export function recordFiltersOf(params: SearchParamsInput) {
  return parseRecordFilters(params);
}

/** The filters as links carry them: the search's reference, never the identifier. */
export function recordListQuery(filters: RecordFilters, reference: string | undefined): URLSearchParams {
  return recordListAddress(filters, reference);
}

/** The address's parameters with the NIT or CUI its search reference stands for (`expired` when that reference no longer opens). */
export async function searchedRecordParams(consoleUserId: number, query: SearchParamsInput) {
  return withSearchedIdentifier({ consoleUserId }, plainSearchParams(query));
}

/**
 * A request id searched in the list: the record it left or the query a replay repeated (where the
 * page goes), or its trace, or, without one, the refusals around it that support can answer with.
 */
export async function requestIdOutcome(
  requestId: string,
  filters: RecordFilters,
): Promise<{ redirectTo: string } | { trace: RequestTrace | undefined; refusals: RefusalReasonCount[] | undefined; untraced: number }> {
  const recordId = await recordIdForRequestId(requestId);
  if (recordId !== undefined) return { redirectTo: `/admin/registros/${recordId}` };
  const trace = await requestTrace(requestId);
  const replayed = replayRecordPath(trace);
  if (replayed) return { redirectTo: replayed };
  if (trace) return { trace, refusals: undefined, untraced: 0 };
  const [refusals, untraced] = await Promise.all([
    refusalReasonsAround(new Date(), { integrationId: filters.integracion, lookup: filters.consulta }),
    untracedSince(new Date(), REFUSAL_WINDOW_HOURS),
  ]);
  return { trace, refusals, untraced };
}

/** What the page says of request ids that left no trace: how long traces are kept, how many a minute, over which window refusals are counted. */
export function requestTraceTerms() {
  const settings = requestTraceSettings();
  return {
    retentionDays: settings.REQUEST_TRACE_RETENTION_DAYS,
    maxPerMinute: settings.REQUEST_TRACE_MAX_PER_MINUTE,
    refusalWindowHours: REFUSAL_WINDOW_HOURS,
    untracedAnswers: untracedAnswersText(env().REQUEST_RECEIVE_TIMEOUT_MS),
  };
}

/** One page of records, identifiers masked ("Mostrar" on a record's page reveals one record's, with a reason, logged). */
export async function maskedRecordsPage(filters: RecordFilters, position: { after?: string; before?: string }) {
  const page = await listRecordsPage(filters, position);
  return { ...page, rows: page.rows.map((record) => maskedIdentifiers(record)) };
}

/** The list's query the record page's back link returns to (only the list's own filters, re-encoded, never a raw link). */
export function recordListBackQuery(volver: unknown): string {
  const back = typeof volver === 'string' ? new URLSearchParams(volver) : undefined;
  return back ? recordListAddress(parseRecordFilters(back).filters, back.get(SEARCH_REFERENCE_PARAM) ?? undefined).toString() : '';
}

/**
 * A record by its id, its identifiers masked (and masked inside the source's error detail), with
 * its ledger entries; and the replay that opened it, said only when its trace really repeated this query.
 */
export async function recordView(id: number, replayParam: unknown) {
  const detail = await findRecordDetail(id);
  if (!detail) return undefined;
  const record = maskedIdentifiers(detail.record);
  const replayId = typeof replayParam === 'string' ? typedRequestId(replayParam) : undefined;
  const replayTrace = replayId ? await requestTrace(replayId) : undefined;
  const replay = replayTrace?.kind === 'replay' && replayTrace.replayOf === record.requestId ? replayTrace : undefined;
  return { record, ledger: detail.ledger, hasIdentifiers: detail.record.nit !== null || detail.record.cui !== null, replay };
}

function redirectTo(location: string): Response {
  // A relative Location: the browser resolves it against the address it asked, whatever the host.
  return new Response(null, { status: 307, headers: { location, 'cache-control': 'no-store' } });
}

/**
 * The records list's search for a request id (GET /admin/registros/solicitud): its record, or the
 * record of the query a replayed answer repeated; when no record has it, back to the list with
 * ?solicitud=, which says why.
 */
export async function requestIdSearchRedirect(request: Request): Promise<Response> {
  const searchParams = new URL(request.url).searchParams;
  const requestId = typedRequestId(searchParams.get('identificador') ?? searchParams.get('solicitud') ?? undefined);
  // Only the list's own filters go back to it (with the request id as its filter).
  const back = new URLSearchParams(searchParams);
  back.delete('identificador');
  if (requestId) back.set('solicitud', requestId);
  const list = `/admin/registros?${back}`;
  // Signed out (or mid sign-in): the list page sends to sign-in and back; nothing is looked up.
  if (!requestId || !(await consoleUserWithAccess())) return redirectTo(list);
  const recordId = await recordIdForRequestId(requestId);
  if (recordId !== undefined) return redirectTo(`/admin/registros/${recordId}`);
  const replayed = await recordOfReplay(requestId);
  return redirectTo(replayed ?? list);
}
