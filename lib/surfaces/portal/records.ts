import type { LookupKind } from '@/db/schema';
import { describeActor } from '@/lib/core/audit/audit';
import { explainRecordError } from '@/lib/presentation/record-errors';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { maskedIdentifiers } from '@/lib/core/sealing/masking';
import { recordListAddress, SEARCH_REFERENCE_PARAM, withSearchedIdentifier } from '@/lib/core/personal-data/search-references';
import { EXPIRED_SEARCH_MESSAGE } from '@/lib/presentation/personal-data-labels';
import { explainCharge, type ChargeExplanation } from '@/lib/presentation/charge-explanation';
import { plainSearchParams, type RecordFilters, type SearchParamsInput } from '@/lib/core/records/filters';
import { parseRecordFilters, type FilterProblem } from '@/lib/presentation/record-filters';
import { findIntegrationRecordDetail, listRecordsPage, type RecordDetail } from '@/lib/core/records/list';
import { isPlausibleRequestId, REPLAY_PARAM, typedRequestId } from '@/lib/core/request-ids/search';
import { requestTrace, type RequestTrace } from '@/lib/core/request-traces/read';
import { requestTraceSettings } from '@/lib/core/request-traces/settings';
import { untracedAnswersText } from '@/lib/presentation/untraced-answers';
import { env } from '@/lib/platform/settings/env';
import type { PortalUserSession } from './session';

// "Consultas": the session's integration's query records, through the console's services
// (lib/core/records, lib/core/request-traces, lib/core/personal-data) with the integration taken from the session
// and nowhere else. A record is addressed by its request id (what the integrator's system logged,
// random, never personal data), looked up within the integration: another integration's request id
// reads exactly as one no record has. Identifiers are masked; a reveal is logged first.

export const PORTAL_RECORDS_PATH = '/portal/consultas';

/** What the list says when a NIT or CUI search's reference no longer opens for this user. */
export const PORTAL_RECORDS_NOTES = { expiredSearch: EXPIRED_SEARCH_MESSAGE } as const;

/** Whether a parameter of the list's address goes with its CSV export (the lookup, the status, a NIT or CUI search's reference). */
export function carriedToRecordsExport(name: string): boolean {
  return name === 'consulta' || name === 'estado' || name === SEARCH_REFERENCE_PARAM;
}

/** What the search says of a request id no trace of the integration has: how long rejections are kept, and the answers that leave no trace. */
export function requestIdUnknownNotes(): { traceRetentionDays: number; untracedAnswers: string } {
  return { traceRetentionDays: requestTraceSettings().REQUEST_TRACE_RETENTION_DAYS, untracedAnswers: untracedAnswersText(env().REQUEST_RECEIVE_TIMEOUT_MS) };
}

/** A row of the list, field by field (nothing of the record goes out unseen). */
export interface PortalRecordRow {
  requestId: string;
  createdAt: Date;
  lookup: LookupKind;
  httpStatus: number;
  chargedCentavos: number;
  responseTimeMs: number;
  /** Masked. */
  nit: string | null;
  /** Masked. */
  cui: string | null;
}

/** The list's filters an integrator may set: never the integration, which is the session's. */
export type PortalRecordFilters = Omit<RecordFilters, 'integracion'>;

export interface PortalRecordsPage {
  rows: PortalRecordRow[];
  older?: string;
  newer?: string;
  /** How many records match (the rollups); undefined for a NIT or CUI search. */
  matching?: number;
  filters: PortalRecordFilters;
  problems: FilterProblem[];
  /** The NIT or CUI search's reference, which links carry instead of the identifier. */
  reference?: string;
  /** A search reference was given that no longer opens for this user. */
  expired: boolean;
}

/**
 * The filters of a portal request: the list's own (lookup, status, dates), the NIT or CUI behind a
 * reference only this user made, and the session's integration, whatever the address says.
 */
export async function portalRecordFilters(
  user: PortalUserSession,
  query: SearchParamsInput,
): Promise<{ filters: RecordFilters; problems: FilterProblem[]; reference?: string; expired: boolean }> {
  const searched = await withSearchedIdentifier({ portalUserId: user.id }, plainSearchParams(query));
  const params = { ...searched.params };
  // A request id is searched on its own (portalRequestIdSearch), never as a filter of the list.
  delete params.solicitud;
  delete params.integracion;
  const { filters, problems } = parseRecordFilters(params);
  return { filters: { ...filters, integracion: user.integrationId, solicitud: undefined }, problems, reference: searched.reference, expired: searched.expired };
}

/** One page of the session's integration's records, newest first (keyset paging, as the console's). */
export async function portalRecordsPage(user: PortalUserSession, query: SearchParamsInput): Promise<PortalRecordsPage> {
  const { filters, problems, reference, expired } = await portalRecordFilters(user, query);
  const plain = plainSearchParams(query);
  const page = expired ? { rows: [], matching: undefined, older: undefined, newer: undefined } : await listRecordsPage(filters, { after: plain.despues, before: plain.antes });
  return {
    rows: page.rows.map((record) => {
      const masked = maskedIdentifiers(record);
      return {
        requestId: record.requestId,
        createdAt: record.createdAt,
        lookup: record.lookup,
        httpStatus: record.httpStatus,
        chargedCentavos: record.chargedCentavos,
        responseTimeMs: record.responseTimeMs,
        nit: masked.nit,
        cui: masked.cui,
      };
    }),
    older: page.older,
    newer: page.newer,
    matching: page.matching,
    filters: withoutIntegration(filters),
    problems,
    reference,
    expired,
  };
}

function withoutIntegration(filters: RecordFilters): PortalRecordFilters {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { integracion, ...rest } = filters;
  return rest;
}

/** The list's address for these filters: the search's reference in place of the identifier, never an integration. */
export function portalRecordsAddress(filters: PortalRecordFilters, reference: string | undefined): URLSearchParams {
  return recordListAddress({ ...filters, solicitud: undefined }, reference);
}

/** A record's page. */
export function portalRecordPath(requestId: string): string {
  return `${PORTAL_RECORDS_PATH}/${encodeURIComponent(requestId)}`;
}

/** What a request id typed in the search box leads to, within the session's integration only. */
export type PortalRequestIdAnswer =
  | { kind: 'record'; path: string }
  /** One of the integration's refusals, unserved answers or replays whose query has no record. */
  | { kind: 'trace'; trace: RequestTrace }
  /** Unknown, or another integration's: the same answer. */
  | { kind: 'unknown'; requestId: string };

export async function portalRequestIdSearch(user: PortalUserSession, typed: string): Promise<PortalRequestIdAnswer | undefined> {
  const requestId = typedRequestId(typed);
  if (!requestId) return undefined;
  if (!isPlausibleRequestId(requestId)) return { kind: 'unknown', requestId };
  if (await findIntegrationRecordDetail(user.integrationId, requestId)) return { kind: 'record', path: portalRecordPath(requestId) };
  const trace = await requestTrace(requestId);
  // A trace names an integration only when the request's login was known; one that names none, or
  // another, is not this integration's to read.
  if (!trace || trace.integration?.id !== user.integrationId) return { kind: 'unknown', requestId };
  if (trace.kind === 'replay' && trace.originalRecordId !== null && (await findIntegrationRecordDetail(user.integrationId, trace.replayOf))) {
    return { kind: 'record', path: `${portalRecordPath(trace.replayOf)}?${new URLSearchParams({ [REPLAY_PARAM]: requestId })}` };
  }
  return { kind: 'trace', trace };
}

/** A record's page as the portal shows it: identifiers masked, what happened and the charge in words. */
export interface PortalRecordDetail {
  requestId: string;
  createdAt: Date;
  lookup: LookupKind;
  httpStatus: number;
  responseTimeMs: number;
  /** Masked. */
  nit: string | null;
  /** Masked. */
  cui: string | null;
  hasIdentifiers: boolean;
  /** "Qué pasó", as the console says it; undefined for a success without error. */
  explanation: string | undefined;
  charge: ChargeExplanation;
  tariffCentavos: number | null;
  /** Opened by a replay's request id that really repeated this query. */
  replay?: { requestId: string; at: Date; httpStatus: number };
}

/** A record's page: the record with this request id, and the replay its address names (?repeticion=), or undefined. */
export function portalRecordPage(user: PortalUserSession, requestIdText: string, searchParams: Record<string, string | string[] | undefined>): Promise<PortalRecordDetail | undefined> {
  const replayParam = searchParams[REPLAY_PARAM];
  return portalRecordDetail(user, requestIdText, typeof replayParam === 'string' ? replayParam : undefined);
}

/** The session's integration's record with this request id (as the address spelled it), or undefined. */
export async function portalRecordDetail(user: PortalUserSession, requestIdText: string, replayText?: string): Promise<PortalRecordDetail | undefined> {
  const detail = await ownRecord(user, requestIdText);
  if (!detail) return undefined;
  const masked = maskedIdentifiers(detail.record);
  const replayId = replayText ? typedRequestId(replayText) : undefined;
  const replayTrace = replayId && isPlausibleRequestId(replayId) ? await requestTrace(replayId) : undefined;
  const replay = replayTrace?.kind === 'replay' && replayTrace.replayOf === masked.requestId && replayTrace.integration?.id === user.integrationId ? replayTrace : undefined;
  return {
    requestId: masked.requestId,
    createdAt: masked.createdAt,
    lookup: masked.lookup,
    httpStatus: masked.httpStatus,
    responseTimeMs: masked.responseTimeMs,
    nit: masked.nit,
    cui: masked.cui,
    hasIdentifiers: detail.record.nit !== null || detail.record.cui !== null,
    explanation: explainRecordError(masked),
    charge: explainCharge(masked, detail.ledger, masked.lookup),
    tariffCentavos: masked.tariffCentavos,
    replay: replay ? { requestId: replay.requestId, at: replay.at, httpStatus: replay.httpStatus } : undefined,
  };
}

async function ownRecord(user: PortalUserSession, requestIdText: string): Promise<RecordDetail | undefined> {
  const requestId = typedRequestId(requestIdText);
  if (!requestId || !isPlausibleRequestId(requestId)) return undefined;
  return findIntegrationRecordDetail(user.integrationId, requestId);
}

/**
 * "Mostrar": one record's NIT and CUI in full for a person of its integration, with a reason. The
 * access log's entry (the portal user as actor, "Integrador: correo (integración)", the record, the
 * reason) is written before anything is returned; undefined when the record is not the integration's.
 */
export async function revealPortalRecordIdentifiers(user: PortalUserSession, requestIdText: string, reason: string): Promise<{ nit: string | null; cui: string | null } | undefined> {
  const detail = await ownRecord(user, requestIdText);
  if (!detail) return undefined;
  await writeAccessEntry({ actor: describeActor(user.actor), kind: 'reveal', recordId: detail.record.id, reason });
  return { nit: detail.record.nit, cui: detail.record.cui };
}
