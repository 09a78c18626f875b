import { inTurn, SHED } from '@/lib/core/admission/lookup-admission';
import { noteRegistryIntent, recordUnbilledOrKeep } from '@/lib/core/record-journal';
import type { QueryRecordInput } from '@/lib/core/records/types';
import type { LookupReceipt } from './receipt';
import type { BodyRead } from '@/lib/platform/http/json-body';
import { integrationDirectory, type AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { consumeIntegrationLimit } from '@/lib/core/limits/limits';
import { noteLookup, timeStage } from '@/lib/platform/http/lookup-trace';
import { countRefusal } from '@/lib/core/rollups/refusals';
import { refuseAddress } from './address-refusal';
import { sourceClients } from '@/lib/sources';
import type { Credentials } from './credentials';
import { traceUnserved } from '@/lib/core/request-traces/buffer';
import { LookupSeals } from '@/lib/core/records/sealed';
import { unavailable as tracedUnavailable, type Unavailable } from './unavailable';
import { parseRenapRequest, parseRtuNitsRequest, type RegistryRequestProblem } from './registry-request';

/** Outcomes shared by the person registry and RTU-by-NIT routes before the registry is called. */
export type RegistryRefusal =
  | { kind: 'unauthenticated' }
  | { kind: 'not_enabled' }
  | { kind: 'rate_limited' }
  | { kind: 'invalid_request'; problem: RegistryRequestProblem };

export type RenapOutcome =
  | RegistryRefusal
  | Unavailable
  | { kind: 'answered'; httpStatus: number; responseCode: number; message: string; data: Record<string, unknown> | null }
  | { kind: 'registry_failed' };

export type RtuNitsOutcome =
  | RegistryRefusal
  | Unavailable
  | { kind: 'found'; records: Array<Record<string, unknown>>; requested: number }
  | { kind: 'too_many_nits' }
  | { kind: 'registry_failed' };

export interface RegistryLookupInput<Outcome = RenapOutcome | RtuNitsOutcome> {
  credentials: Credentials;
  readBody: () => Promise<BodyRead>;
  requestId: string;
  /** A receipt asked for with the lookup, written with its record. */
  receipt?: LookupReceipt<Outcome>;
}

/**
 * Credentials, flag and per-minute limit for the registry routes. The contract gives these
 * routes one authentication error (403): missing, partial and wrong credentials all get it.
 */
async function admit(
  lookup: RegistryLookup,
  { credentials, requestId }: RegistryLookupInput,
): Promise<{ ok: true; integration: AuthenticatedIntegration } | { ok: false; refusal: RegistryRefusal | Unavailable }> {
  const authentication = await timeStage('auth', () => integrationDirectory().authenticate(credentials.login, credentials.token, credentials.clientAddress));
  if (authentication.status === 'unavailable') return { ok: false, refusal: unavailable({ requestId, lookup }, 'credentials_unavailable') };
  if (authentication.status === 'address_refused') {
    // Answered as wrong credentials (it reveals nothing), counted under its own reason.
    refuseAddress(authentication, lookup);
    noteLookup({ outcome: 'credentials_invalid' });
    return { ok: false, refusal: { kind: 'unauthenticated' } };
  }
  if (authentication.status !== 'authenticated') {
    const reason = authentication.status === 'missing' ? 'credentials_missing' : 'credentials_invalid';
    countRefusal({ lookup, reason });
    noteLookup({ outcome: reason });
    return { ok: false, refusal: { kind: 'unauthenticated' } };
  }
  const integration = authentication.integration;
  noteLookup({ integration: integration.nombre, integrationId: integration.id });
  if (!integration[LOOKUP_FLAGS[lookup]]) return { ok: false, refusal: refuse(lookup, integration, { kind: 'not_enabled' }) };
  if (!(await consumeIntegrationLimit(lookup, integration.nombre))) return { ok: false, refusal: refuse(lookup, integration, { kind: 'rate_limited' }) };
  return { ok: true, integration };
}

type RegistryLookup = 'renap' | 'rtu_nits';

/** A refusal after authentication, counted against the integration (never recorded). */
function refuse<T extends Exclude<RegistryRefusal, { kind: 'unauthenticated' }> | { kind: 'too_many_nits' }>(
  lookup: RegistryLookup,
  integration: AuthenticatedIntegration,
  refusal: T,
): T {
  countRefusal({ integrationId: integration.id, lookup, reason: refusal.kind });
  noteLookup({ outcome: refusal.kind });
  return refusal;
}

function unavailable(request: { requestId: string; lookup: RegistryLookup; integrationId?: number }, cause: Unavailable['cause']): Unavailable {
  noteLookup({ outcome: cause });
  return tracedUnavailable(request, cause);
}

/** A registry call its guard never sent (breaker open, bulkhead full): answered 500, unrecorded, so traced. */
function notSent<T extends RenapOutcome | RtuNitsOutcome>(request: { requestId: string; lookup: RegistryLookup; integrationId: number }, outcome: T): T {
  traceUnserved({ ...request, cause: 'source_not_sent' });
  return outcome;
}

/** 4xx statuses about the gateway's own relation with the registry: its credentials, its quota. */
const GATEWAY_RELATION_STATUSES = new Set([401, 403, 407, 429]);

/** Records a registry's answer, with the receipt asked for it when it gets one. */
async function recordWithReceipt<Outcome>(
  receipt: LookupReceipt<Outcome> | undefined,
  integration: AuthenticatedIntegration,
  outcome: Outcome,
  record: QueryRecordInput,
  seals: LookupSeals,
): Promise<void> {
  const companion = await receipt?.companionFor(outcome, integration);
  await recordUnbilledOrKeep(record, seals, companion);
}

/**
 * Registry statuses that describe the person lookup itself (2xx, and 4xx other than the gateway's
 * own) are passed through (the contract: the HTTP status is the registry's). The gateway's own
 * relation with the registry, a redirect (the client never follows one: docs/sources.md) and a
 * registry fault are "failure querying the registry".
 */
function isPassThroughStatus(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && !GATEWAY_RELATION_STATUSES.has(status);
}

export async function runRenapLookup(input: RegistryLookupInput<RenapOutcome>): Promise<RenapOutcome> {
  const startedAt = performance.now();
  const admitted = await admit('renap', input);
  if (!admitted.ok) return admitted.refusal;
  const parsed = parseRenapRequest(await input.readBody());
  if (!parsed.ok) return refuse('renap', admitted.integration, { kind: 'invalid_request', problem: parsed.problem });

  // Nothing costly has happened yet: a lookup that finds the queue full leaves its count and its trace, no record.
  const turn = await inTurn('renap', () => queryRenap(admitted.integration, parsed.value.cui, input, startedAt));
  return turn === SHED ? unavailable({ requestId: input.requestId, lookup: 'renap', integrationId: admitted.integration.id }, 'shed') : turn;
}

async function queryRenap(integration: AuthenticatedIntegration, cui: string, { requestId, receipt }: RegistryLookupInput<RenapOutcome>, startedAt: number): Promise<RenapOutcome> {
  // Should this process die while the registry is asked, a restart records the query.
  const seals = new LookupSeals();
  const ended = noteRegistryIntent({ integrationId: integration.id, lookup: 'renap', nit: null, cui, identifiers: [cui], requestId }, seals);
  try {
    return await askRenap(integration, cui, requestId, startedAt, seals, receipt);
  } finally {
    ended();
  }
}

async function askRenap(
  integration: AuthenticatedIntegration,
  cui: string,
  requestId: string,
  startedAt: number,
  seals: LookupSeals,
  receipt: LookupReceipt<RenapOutcome> | undefined,
): Promise<RenapOutcome> {
  const answer = await timeStage('source', () => sourceClients().renap.searchByCui(cui));
  const outcome: RenapOutcome =
    answer.ok && isPassThroughStatus(answer.httpStatus)
      ? { kind: 'answered', httpStatus: answer.httpStatus, responseCode: answer.responseCode, message: answer.message, data: answer.data }
      : { kind: 'registry_failed' };
  noteLookup({ outcome: outcome.kind });
  // Failed fast (breaker open, bulkhead full): it never reached the registry, so no record (a trace).
  if (!answer.ok && answer.notSent) return notSent({ requestId, lookup: 'renap', integrationId: integration.id }, outcome);
  // Written, or kept on disk until the database takes it: the source was called, so it is recorded.
  await timeStage('settle', async () => recordWithReceipt(receipt, integration, outcome, {
    integrationId: integration.id,
    lookup: 'renap',
    httpStatus: outcome.kind === 'answered' ? outcome.httpStatus : 500,
    responseTimeMs: Math.round(performance.now() - startedAt),
    nit: null,
    cui,
    identifiers: [cui],
    errorMessage: answer.ok ? (outcome.kind === 'answered' ? null : `registry answered ${answer.httpStatus}`) : answer.detail,
    failure: answer.ok ? (outcome.kind === 'answered' ? null : { kind: 'status', status: answer.httpStatus }) : answer.fault,
    // A 200 without a person (the registry's responseCode says why: not found, its backend down).
    answerEmpty: outcome.kind === 'answered' && outcome.httpStatus === 200 ? outcome.data === null : null,
    requestId,
  }, seals));
  return outcome;
}

export async function runRtuNitsLookup(input: RegistryLookupInput<RtuNitsOutcome>): Promise<RtuNitsOutcome> {
  const startedAt = performance.now();
  const admitted = await admit('rtu_nits', input);
  if (!admitted.ok) return admitted.refusal;
  const parsed = parseRtuNitsRequest(await input.readBody());
  if (!parsed.ok) return refuse('rtu_nits', admitted.integration, { kind: 'invalid_request', problem: parsed.problem });

  // Nothing costly has happened yet: a lookup that finds the queue full leaves its count and its trace, no record.
  const turn = await inTurn('rtu_nits', () => queryRtuNits(admitted.integration, parsed.value.nits, input, startedAt));
  return turn === SHED ? unavailable({ requestId: input.requestId, lookup: 'rtu_nits', integrationId: admitted.integration.id }, 'shed') : turn;
}

async function queryRtuNits(integration: AuthenticatedIntegration, nits: string[], { requestId, receipt }: RegistryLookupInput<RtuNitsOutcome>, startedAt: number): Promise<RtuNitsOutcome> {
  // Should this process die while the registry is asked, a restart records the query.
  const seals = new LookupSeals();
  const ended = noteRegistryIntent({ integrationId: integration.id, lookup: 'rtu_nits', nit: nits.join(','), cui: null, identifiers: nits, requestId }, seals);
  try {
    return await askRtuNits(integration, nits, requestId, startedAt, seals, receipt);
  } finally {
    ended();
  }
}

async function askRtuNits(
  integration: AuthenticatedIntegration,
  nits: string[],
  requestId: string,
  startedAt: number,
  seals: LookupSeals,
  receipt: LookupReceipt<RtuNitsOutcome> | undefined,
): Promise<RtuNitsOutcome> {
  const answer = await timeStage('source', () => sourceClients().rtu.searchByNits(nits));
  // Refused by the client before any network call: it never reached the registry, so no record.
  if (!answer.ok && answer.reason === 'too_many_nits') return refuse('rtu_nits', integration, { kind: 'too_many_nits' });
  const outcome: RtuNitsOutcome = answer.ok
    ? { kind: 'found', records: answer.records, requested: nits.length }
    : { kind: 'registry_failed' };
  noteLookup({ outcome: outcome.kind });
  // Failed fast (breaker open, bulkhead full): it never reached the registry, so no record (a trace).
  if (!answer.ok && answer.notSent) return notSent({ requestId, lookup: 'rtu_nits', integrationId: integration.id }, outcome);
  // Written, or kept on disk until the database takes it: the source was called, so it is recorded.
  await timeStage('settle', async () => recordWithReceipt(receipt, integration, outcome, {
    integrationId: integration.id,
    lookup: 'rtu_nits',
    httpStatus: answer.ok ? 200 : 500,
    responseTimeMs: Math.round(performance.now() - startedAt),
    nit: nits.join(','),
    cui: null,
    identifiers: nits,
    errorMessage: answer.ok ? null : answer.detail,
    failure: answer.ok ? null : answer.fault,
    // A 200 that found none of the batch's NITs.
    answerEmpty: answer.ok ? answer.records.length === 0 : null,
    requestId,
  }, seals));
  return outcome;
}
