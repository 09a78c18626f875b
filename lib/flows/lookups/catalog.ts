import { inTurn, SHED } from '@/lib/core/admission/lookup-admission';
import { balanceSeen } from '@/lib/core/billing/events';
import { outcomeUnknownRecord, placeHold, settleHold, voidHoldUnrecorded, type Hold } from '@/lib/core/billing/holds';
import { keepRecord } from '@/lib/core/record-journal';
import type { SQL } from 'drizzle-orm';
import type { BodyRead } from '@/lib/platform/http/json-body';
import { integrationDirectory, type AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { describeError } from '@/lib/platform/logging/errors';
import { balanceSettings } from '@/lib/core/billing/settings';
import { sourceSettings } from '@/lib/sources/settings';
import { idempotencyKeyHash, readIdempotencyKey } from '@/lib/core/idempotency/key';
import { replayableAnswer } from '@/lib/flows/lookups/replayable-answer';
import { claimIdempotencyKey, releaseIdempotencyKey, settleIdempotencyKey, type IdempotencyTarget } from '@/lib/core/idempotency/store';
import { logger } from '@/lib/platform/logging/logger';
import { consumeIntegrationLimit } from '@/lib/core/limits/limits';
import { noteLookup, timeStage } from '@/lib/platform/http/lookup-trace';
import { metrics } from '@/lib/platform/metrics/registry';
import { countRefusal } from '@/lib/core/rollups/refusals';
import { traceReplay, traceUnserved } from '@/lib/core/request-traces/buffer';
import { refuseAddress } from './address-refusal';
import { sourceClients } from '@/lib/sources';
import { answeredPair } from '@/lib/core/records/answered-pair';
import { LookupSeals } from '@/lib/core/records/sealed';
import { catalogAnswerIsEmpty } from '@/lib/core/records/empty-answer';
import type { RecordFailure } from '@/lib/core/records/failure';
import type { QueryRecordInput } from '@/lib/core/records/types';
import type { SourceFailure, SourceResult } from '@/lib/sources/outcomes';
import { normalizedRequest, parseCatalogRequest, type CatalogName, type CatalogRequest } from './catalog-request';
import type { CatalogData, CatalogOutcome } from './catalog-outcome';
import type { Credentials } from './credentials';
import { unavailable } from './unavailable';

export type { CatalogData, CatalogOutcome };

/** The outcomes that end a lookup before it reaches the source: counted, never recorded. */
type Refusal = Extract<CatalogOutcome, { kind: 'credentials_missing' | 'credentials_invalid' | 'not_enabled' | 'rate_limited' | 'invalid_request' | 'balance_exhausted' }>;

export interface CatalogLookupInput {
  catalog: CatalogName;
  credentials: Credentials;
  /** Read only once the cheap checks passed, so refused requests never cost a body read. */
  readBody: () => Promise<BodyRead>;
  requestId: string;
  /** The Idempotency-Key header as sent; null when absent. */
  idempotencyKey: string | null;
  /**
   * Set by a bulk job's item (lib/flows/bulk): one more CTE for the settlement statement, written from the
   * outcome (the item's answer, committed with the charge and the record). Its refusals are not
   * counted as the API's refusals: nobody sent them, the item only waits (or pauses its job).
   */
  bulkItem?: {
    settlement: (outcome: CatalogOutcome) => SQL;
    /** Asked in the lookup's turn, before any hold: false when the item's claim is no longer this lookup's. */
    renewClaim: () => Promise<boolean>;
  };
}

/** A lookup past its credentials: what runAuthenticatedCatalogLookup and the stages after it read. */
export type AuthenticatedLookupInput = Omit<CatalogLookupInput, 'credentials'>;

/**
 * The catalog pipeline (docs/decisions.md, "Precedence of checks"): credentials, flag,
 * per-minute limit, body, the Idempotency-Key when sent (lib/core/idempotency: a repeat ends here with
 * the stored answer), a turn (lib/core/admission), balance hold, source call, then settlement and record
 * (and the key's stored answer) in one statement.
 */
export async function runCatalogLookup(input: CatalogLookupInput): Promise<CatalogOutcome> {
  const outcome = await runPipeline(input);
  noteLookup({ outcome: lookupOutcomeName(outcome) });
  return outcome;
}

/** The outcome's name on the lookup's log line and metrics (and a bulk item's line, lib/flows/bulk). */
export function lookupOutcomeName(outcome: CatalogOutcome): string {
  switch (outcome.kind) {
    case 'source_failure':
      return `source_${outcome.failure}`;
    case 'unavailable':
      return outcome.cause;
    case 'replay':
      return 'idempotent_replay';
    default:
      return outcome.kind;
  }
}

async function runPipeline(input: CatalogLookupInput): Promise<CatalogOutcome> {
  const startedAt = performance.now();
  const refused = <T extends Refusal>(outcome: T, integrationId?: number): T => {
    countRefusal({ integrationId, lookup: input.catalog, reason: outcome.kind });
    return outcome;
  };
  const { login, token, clientAddress } = input.credentials;
  const authentication = await timeStage('auth', () => integrationDirectory().authenticate(login, token, clientAddress));
  if (authentication.status === 'missing') return refused({ kind: 'credentials_missing' });
  if (authentication.status === 'unavailable') return unavailable({ requestId: input.requestId, lookup: input.catalog }, 'credentials_unavailable');
  if (authentication.status === 'address_refused') {
    // Answered as unknown credentials (it reveals nothing), counted under its own reason.
    refuseAddress(authentication, input.catalog);
    return { kind: 'credentials_invalid' };
  }
  if (authentication.status !== 'authenticated') return refused({ kind: 'credentials_invalid' });
  return runAuthenticatedCatalogLookup(input, authentication.integration, startedAt);
}

/**
 * Everything after the credentials, for an authenticated integration: the API's requests and a
 * bulk job's items (lib/flows/bulk) run this same code, so an item is flagged, limited, held, sent,
 * settled and recorded exactly as a single request is.
 */
export async function runAuthenticatedCatalogLookup(
  input: AuthenticatedLookupInput,
  integration: AuthenticatedIntegration,
  startedAt: number = performance.now(),
): Promise<CatalogOutcome> {
  const refused = <T extends Refusal>(outcome: T, integrationId?: number): T => {
    if (!input.bulkItem) countRefusal({ integrationId, lookup: input.catalog, reason: outcome.kind });
    return outcome;
  };
  noteLookup({ integration: integration.nombre, integrationId: integration.id });

  if (!integration[LOOKUP_FLAGS[input.catalog]]) return refused({ kind: 'not_enabled' }, integration.id);
  if (!(await consumeIntegrationLimit('catalogs', integration.nombre))) return refused({ kind: 'rate_limited' }, integration.id);

  const parsed = parseCatalogRequest(input.catalog, await input.readBody());
  if (!parsed.ok) return refused({ kind: 'invalid_request', problem: parsed.problem }, integration.id);
  const idempotencyKey = readIdempotencyKey(input.idempotencyKey);
  if (idempotencyKey.kind === 'invalid') return refused({ kind: 'invalid_request', problem: 'idempotency_key_invalid' }, integration.id);
  if (idempotencyKey.kind === 'absent') return runLookup(input, integration, parsed.request, startedAt, refused);

  // With a key: the first request runs and its answer is kept; a repeat gets that answer.
  const idempotent = { integrationId: integration.id, keyHash: idempotencyKeyHash(idempotencyKey.key), requestId: input.requestId };
  const request = normalizedRequest(input.catalog, parsed.request);
  // A repeat waits for the first no longer than the source's ceiling (the contract's 30 seconds).
  const waitUntil = performance.now() + sourceSettings().SOURCE_TIMEOUT_MS;
  const { HOLD_SWEEP_AFTER_SECONDS } = balanceSettings();
  for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS)) {
    const claim = await timeStage('idempotency', () => claimIdempotencyKey(idempotent, request, HOLD_SWEEP_AFTER_SECONDS));
    if (claim.kind === 'replay') {
      // The replay's own request id must lead support to the query it repeated.
      traceReplay({ requestId: input.requestId, integrationId: integration.id, lookup: input.catalog, httpStatus: claim.answer.status, replayOf: claim.originalRequestId });
      return { kind: 'replay', answer: claim.answer };
    }
    if (claim.kind === 'mismatch') return refused({ kind: 'invalid_request', problem: 'idempotency_key_reused' }, integration.id);
    if (claim.kind === 'claimed') return runClaimedLookup(input, integration, parsed.request, startedAt, refused, idempotent);
    if (performance.now() + pauseMs > waitUntil) return unavailable({ requestId: input.requestId, lookup: input.catalog, integrationId: integration.id }, 'key_in_use');
    await timeStage('idempotency', () => new Promise((resolve) => setTimeout(resolve, pauseMs)));
  }
}

// A repeat asks again after 25 ms, then each time twice as late, at most every half second.
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 500;

type Refuse = <T extends Refusal>(outcome: T, integrationId?: number) => T;

/**
 * Runs a lookup that owns its Idempotency-Key. Its settlement stores the answer (or releases the
 * key) in the same statement as the charge; a lookup that ends before any settlement releases the
 * key itself, so a repeat runs again.
 */
async function runClaimedLookup(
  input: AuthenticatedLookupInput,
  integration: { id: number; nombre: string },
  request: CatalogRequest,
  startedAt: number,
  refused: Refuse,
  target: IdempotencyTarget,
): Promise<CatalogOutcome> {
  const idempotent = { target, settled: false };
  let outcome: CatalogOutcome = { kind: 'unhandled' };
  try {
    outcome = await runLookup(input, integration, request, startedAt, refused, idempotent);
    return outcome;
  } finally {
    if (!idempotent.settled) {
      // Nothing stored: a repeat runs again. If the database is away this fails too, and the key
      // stays running until it is abandoned (docs/decisions.md): nothing was charged meanwhile.
      await timeStage('idempotency', () => releaseIdempotencyKey(target)).catch((error: unknown) =>
        logger('lookups').error({ err: error, catalog: input.catalog, outcome: outcome.kind }, 'releasing an idempotency key failed'),
      );
    }
  }
}

/** What a lookup with an Idempotency-Key carries to its settlement. */
interface IdempotentSettlement {
  target: IdempotencyTarget;
  /** Set once the settlement statement stored the answer or released the key. */
  settled: boolean;
}

async function runLookup(
  input: AuthenticatedLookupInput,
  integration: { id: number; nombre: string },
  request: CatalogRequest,
  startedAt: number,
  refused: Refuse,
  idempotent?: IdempotentSettlement,
): Promise<CatalogOutcome> {
  const traced = { requestId: input.requestId, lookup: input.catalog, integrationId: integration.id };
  // The source is known to be down: fail fast before waiting or holding money (no database trip at all).
  if (sourceClients().guards.catalog.refusesNow()) return sourceNotSent(traced);
  // Nothing costly has happened yet: a lookup that finds the queue full leaves its count and its trace, no record.
  const settled = await inTurn(input.catalog, async (): Promise<CatalogOutcome> => {
    // A bulk item may have waited for this turn longer than its claim's lease: renewed here, before
    // anything is held, or the item is left to whoever holds it now (never charged twice).
    if (input.bulkItem && !(await timeStage('hold', () => input.bulkItem!.renewClaim()))) return { kind: 'claim_lost' };
    const seals = new LookupSeals();
    const hold = await timeStage('hold', () => placeHoldOrKeepAbandonment(integration.id, input, request, seals));
    if (!hold) return refused({ kind: 'balance_exhausted' }, integration.id);
    metrics().holdsOpen.inc();
    try {
      return await querySourceAndSettle(input, integration, request, hold, startedAt, seals, idempotent);
    } finally {
      metrics().holdsOpen.dec();
    }
  });
  return settled === SHED ? unavailable(traced, 'shed') : settled;
}

/** The catalogs' 502 for a call the source's guard never sent (breaker open, bulkhead full): unrecorded, so traced. */
function sourceNotSent(request: { requestId: string; lookup: CatalogName; integrationId: number }): CatalogOutcome {
  traceUnserved({ ...request, cause: 'source_not_sent' });
  return { kind: 'source_failure', failure: 'unavailable' };
}

async function querySourceAndSettle(
  input: AuthenticatedLookupInput,
  { id: integrationId, nombre }: { id: number; nombre: string },
  request: CatalogRequest,
  hold: Hold,
  startedAt: number,
  seals: LookupSeals,
  idempotent?: IdempotentSettlement,
): Promise<CatalogOutcome> {
  let outcome: CatalogOutcome;
  let detail: string | null = null;
  let failure: RecordFailure | null = null;
  try {
    const result = await timeStage('source', () => querySource(input.catalog, request));
    if (!result.ok && result.notSent) {
      // Failed fast: it never reached the source, so it is neither charged nor recorded (but traced).
      await timeStage('settle', () => voidHoldUnrecorded(integrationId, hold, input.requestId));
      return sourceNotSent({ requestId: input.requestId, lookup: input.catalog, integrationId });
    }
    if (result.ok) {
      outcome = { kind: 'success', data: result.value };
    } else {
      outcome = { kind: 'source_failure', failure: result.failure };
      detail = result.detail;
      failure = result.fault;
    }
  } catch (error) {
    outcome = { kind: 'unhandled' };
    // The record's detail is shown in the console: the same safe description the log gets.
    detail = `unhandled: ${describeError(error)}`;
    failure = { kind: 'unhandled' };
    logger('lookups').error({ err: error, catalog: input.catalog }, 'catalog source call failed');
  }

  const record: QueryRecordInput = {
    integrationId,
    lookup: input.catalog,
    httpStatus: catalogOutcomeStatus(outcome),
    responseTimeMs: Math.round(performance.now() - startedAt),
    nit: request.nit ?? null,
    cui: request.cui ?? null,
    errorMessage: detail,
    failure,
    answerEmpty: outcome.kind === 'success' ? catalogAnswerIsEmpty(outcome.data) : null,
    actualizado: request.actualizado,
    dateOfBirthSent: request.dateOfBirthSent,
    answeredPair: outcome.kind === 'success' ? answeredPair(outcome.data) : null,
    requestId: input.requestId,
  };
  let charged: Awaited<ReturnType<typeof settleHold>>;
  try {
    const companion = idempotent ? settleIdempotencyKey(idempotent.target, replayableAnswer(outcome)) : input.bulkItem?.settlement(outcome);
    charged = await timeStage('settle', () => settleHold(hold, outcome.kind === 'success', record, companion, seals));
    if (idempotent) idempotent.settled = true;
  } catch (error) {
    // The source was called and the database did not take the settlement (stopped, unreachable).
    // Nobody can know when it will, so the lookup is not charged: its hold is voided and its record
    // written from the journal once the database is back, saying what the client got (500).
    await timeStage('settle', () =>
      keepRecord(
        {
          kind: 'voided_settlement',
          hold,
          record: {
            ...record,
            httpStatus: 500,
            errorMessage: `${SETTLEMENT_NOT_WRITTEN}${record.errorMessage ? `; ${record.errorMessage}` : ''}`,
            failure: { kind: 'settlement_not_written' },
            // The integrator got a 500, not the source's answer.
            answerEmpty: null,
          },
        },
        error,
      ),
    );
    return { kind: 'unhandled' };
  }
  // Off the request path: at most a map lookup here, the alert is written and sent later.
  if (charged) balanceSeen.tell({ integrationId, nombre, ...charged });
  return outcome;
}

/**
 * Places the hold. When the database drops the connection mid-statement the hold may exist without
 * this lookup knowing it; the lookup stops here (500) and never asks the source, so the journal
 * gives that hold back unrecorded once the database answers, before the sweeper would record it
 * as "resultado desconocido" (CI saw one such record with no source call).
 */
async function placeHoldOrKeepAbandonment(integrationId: number, input: AuthenticatedLookupInput, request: CatalogRequest, seals: LookupSeals): Promise<Hold | null> {
  try {
    // The record the hold keeps for the sweeper: written only if this lookup never settles. A bulk
    // item keeps one too: its instance may die after asking the source, and the item's next run (if
    // its job still runs: a cancel stops it) is another query with its own record (docs/decisions.md,
    // "Bulk jobs"). Every query that reaches a source is recorded.
    const intent = outcomeUnknownRecord({
      integrationId,
      lookup: input.catalog,
      nit: request.nit ?? null,
      cui: request.cui ?? null,
      actualizado: request.actualizado,
      dateOfBirthSent: request.dateOfBirthSent,
      requestId: input.requestId,
    });
    return await placeHold(integrationId, input.requestId, intent, seals);
  } catch (error) {
    await keepRecord({ kind: 'abandoned_hold', integrationId, requestId: input.requestId }, error);
    throw error;
  }
}

type CatalogClient = ReturnType<typeof sourceClients>['catalog'];
type CatalogQuery = { nit?: string; cui?: string; actualizado: boolean };

/** How each catalog asks its source: one entry per catalog of db/schema's CATALOG_LOOKUPS, which the compiler holds to it. */
const CATALOG_QUERIES: Record<CatalogName, (client: CatalogClient, query: CatalogQuery, request: CatalogRequest) => Promise<SourceResult<CatalogData>>> = {
  cui_nit: (client, query) => client.lookupCuiNit(query),
  omisos: (client, query) => client.lookupOmisos(query),
  rtu: (client, query, request) => client.lookupRtu({ ...query, dateOfBirth: request.dateOfBirth }),
};

function querySource(catalog: CatalogName, request: CatalogRequest): Promise<SourceResult<CatalogData>> {
  return CATALOG_QUERIES[catalog](sourceClients().catalog, { nit: request.nit, cui: request.cui, actualizado: request.actualizado }, request);
}

/** The record's detail when the settlement waited in the journal (shown in the console). */
const SETTLEMENT_NOT_WRITTEN = 'database unavailable at settlement: not charged, recorded later';

const SOURCE_FAILURE_STATUS: Record<SourceFailure, number> = {
  data_rejected: 400,
  auth_rejected: 401,
  balance_exhausted: 402,
  query_type_denied: 403,
  not_found: 404,
  rate_limited: 429,
  unavailable: 502,
};

/** The HTTP status of an outcome, for the record and for lib/surfaces/api's responses. */
export function catalogOutcomeStatus(outcome: CatalogOutcome): number {
  switch (outcome.kind) {
    case 'replay':
      return outcome.answer.status;
    case 'success':
      return 200;
    case 'credentials_missing':
      return 403;
    case 'credentials_invalid':
      return 401;
    case 'not_enabled':
      return 403;
    case 'rate_limited':
      return 429;
    case 'invalid_request':
      return 400;
    case 'balance_exhausted':
      return 402;
    case 'source_failure':
      return SOURCE_FAILURE_STATUS[outcome.failure];
    case 'unavailable':
      return 502;
    case 'claim_lost':
    case 'unhandled':
      return 500;
  }
}
