import { inTurn, SHED } from '@/lib/core/admission/lookup-admission';
import type { BalanceAfterCharge } from '@/lib/core/billing/holds';
import type { LookupReceipt } from './receipt';
import { outcomeUnknownRecord, placeHold, settleHold, voidHoldUnrecorded, type Hold } from '@/lib/core/billing/holds';
import { keepRecord } from '@/lib/core/record-journal';
import { integrationDirectory, type AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { LOOKUP_FLAGS } from '@/lib/core/integrations/flags';
import { describeError } from '@/lib/platform/logging/errors';
import { balanceSettings } from '@/lib/core/billing/settings';
import { sourceSettings } from '@/lib/sources/settings';
import { idempotencyKeyHash, readIdempotencyKey } from '@/lib/core/idempotency/key';
import { claimIdempotencyKey, releaseIdempotencyKey, settleIdempotencyKey, type IdempotencyTarget } from '@/lib/core/idempotency/store';
import { logger } from '@/lib/platform/logging/logger';
import { consumeIntegrationLimit } from '@/lib/core/limits/limits';
import { metrics } from '@/lib/platform/metrics/registry';
import { sourceClients } from '@/lib/sources';
import { answeredPair } from '@/lib/core/records/answered-pair';
import { LookupSeals } from '@/lib/core/records/sealed';
import { catalogAnswerIsEmpty } from '@/lib/core/records/empty-answer';
import type { RecordFailure } from '@/lib/core/records/failure';
import type { QueryRecordInput } from '@/lib/core/records/types';
import type { SourceFailure, SourceResult } from '@/lib/sources/outcomes';
import { catalogPathName, LOOKUP_LIMITED_ROUTES } from '@/lib/vocabulary/lookups';
import type { SQL } from 'drizzle-orm';
import type { BodyRead } from '@/lib/platform/http/json-body';
import { replayableAnswer } from './replayable-answer';
import { normalizedRequest, parseCatalogRequest, type CatalogName, type CatalogRequest } from './catalog-request';
import type { CatalogData, CatalogOutcome } from './catalog-outcome';
import type { Credentials } from './credentials';
import type { LookupStageOf } from './stages';

// The catalog lookup's stages, in the order the contract checks (docs/decisions.md, "Precedence of
// checks"). A stage does its one thing and notes on the lookup what the stages behind it, and what
// is told of the lookup at its end (lib/flows/lookups/catalog.ts: refusal counts, traces, the
// balance's event), need to know; it counts, traces and times nothing itself.

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
  /** A receipt asked for with the lookup, written with its settlement. */
  receipt?: LookupReceipt<CatalogOutcome>;
  bulkItem?: {
    settlement: (outcome: CatalogOutcome) => SQL;
    /** Asked in the lookup's turn, before any hold: false when the item's claim is no longer this lookup's. */
    renewClaim: () => Promise<boolean>;
  };
}

/** A lookup past its credentials: what the stages after them read. */
export type AuthenticatedLookupInput = Omit<CatalogLookupInput, 'credentials'>;

/** What the source said, kept for the settlement. */
type SourceAnswer = { notSent: true } | { notSent: false; outcome: CatalogOutcome; detail: string | null; failure: RecordFailure | null };

/** A catalog lookup on its way through the stages: what each found, for the ones behind it and for its end. */
export interface CatalogLookupRun {
  readonly input: AuthenticatedLookupInput;
  readonly credentials?: Credentials;
  readonly startedAt: number;
  integration?: AuthenticatedIntegration;
  request?: CatalogRequest;
  idempotency?: { target: IdempotencyTarget; settled: boolean };
  seals?: LookupSeals;
  hold?: Hold;
  answer?: SourceAnswer;
  /** Told at the end: the allow-list refused the client's address (counted under its own reason). */
  refusedAddress?: { integrationId: number; address: string | null };
  /** Told at the end: the request id whose stored answer a replay repeats. */
  replayOf?: string;
  /** Told at the end: the source's guard never sent the call (breaker open, bulkhead full). */
  notSent?: boolean;
  /** Told at the end: the balance the charge left. */
  charged?: BalanceAfterCharge | null;
}

type Stage = LookupStageOf<CatalogLookupRun, CatalogOutcome>;

function reached<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`a catalog lookup's stage ran before its ${what} was known`);
  return value;
}

const authenticate: Stage = {
  timedAs: 'auth',
  async run(lookup, next) {
    const { login, token, clientAddress } = reached(lookup.credentials, 'credentials');
    const authentication = await integrationDirectory().authenticate(login, token, clientAddress);
    switch (authentication.status) {
      case 'authenticated':
        lookup.integration = authentication.integration;
        return next();
      case 'missing':
        return { kind: 'credentials_missing' };
      case 'unavailable':
        return { kind: 'unavailable', cause: 'credentials_unavailable' };
      case 'address_refused':
        // Answered as unknown credentials (it reveals nothing), counted under its own reason.
        lookup.refusedAddress = authentication;
        return { kind: 'credentials_invalid' };
      default:
        return { kind: 'credentials_invalid' };
    }
  },
};

const checkFlag: Stage = {
  async run(lookup, next) {
    return reached(lookup.integration, 'integration')[LOOKUP_FLAGS[lookup.input.catalog]] ? next() : { kind: 'not_enabled' };
  },
};

const spendLimit: Stage = {
  async run(lookup, next) {
    const allowed = await consumeIntegrationLimit(LOOKUP_LIMITED_ROUTES[lookup.input.catalog], reached(lookup.integration, 'integration').nombre);
    return allowed ? next() : { kind: 'rate_limited' };
  },
};

const readRequest: Stage = {
  async run(lookup, next) {
    const parsed = parseCatalogRequest(lookup.input.catalog, await lookup.input.readBody());
    if (!parsed.ok) return { kind: 'invalid_request', problem: parsed.problem };
    lookup.request = parsed.request;
    const key = readIdempotencyKey(lookup.input.idempotencyKey);
    if (key.kind === 'invalid') return { kind: 'invalid_request', problem: 'idempotency_key_invalid' };
    if (key.kind === 'valid') {
      const target = { integrationId: reached(lookup.integration, 'integration').id, keyHash: idempotencyKeyHash(key.key), requestId: lookup.input.requestId };
      lookup.idempotency = { target, settled: false };
    }
    return next();
  },
};

// A repeat asks again after 25 ms, then each time twice as late, at most every half second.
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 500;

/**
 * With an Idempotency-Key, the first request runs and its answer is kept; a repeat gets that answer.
 * The settlement stores the answer (or releases the key) in the same statement as the charge; a
 * lookup that ends before any settlement releases the key here, so a repeat runs again.
 */
const claimIdempotencyKeyOnce: Stage = {
  timedAs: 'idempotency',
  appliesTo: (lookup) => lookup.idempotency !== undefined,
  async run(lookup, next) {
    const idempotency = reached(lookup.idempotency, 'Idempotency-Key');
    const request = normalizedRequest(lookup.input.catalog, reached(lookup.request, 'request'));
    // A repeat waits for the first no longer than the source's ceiling (the contract's 30 seconds).
    const waitUntil = performance.now() + sourceSettings().SOURCE_TIMEOUT_MS;
    const { HOLD_SWEEP_AFTER_SECONDS } = balanceSettings();
    for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS)) {
      const claim = await claimIdempotencyKey(idempotency.target, request, HOLD_SWEEP_AFTER_SECONDS);
      if (claim.kind === 'replay') {
        lookup.replayOf = claim.originalRequestId;
        return { kind: 'replay', answer: claim.answer };
      }
      if (claim.kind === 'mismatch') return { kind: 'invalid_request', problem: 'idempotency_key_reused' };
      if (claim.kind === 'claimed') return runOwningTheKey(lookup, idempotency, next);
      if (performance.now() + pauseMs > waitUntil) return { kind: 'unavailable', cause: 'key_in_use' };
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  },
};

async function runOwningTheKey(lookup: CatalogLookupRun, idempotency: { target: IdempotencyTarget; settled: boolean }, next: () => Promise<CatalogOutcome>): Promise<CatalogOutcome> {
  let outcome: CatalogOutcome = { kind: 'unhandled' };
  try {
    outcome = await next();
    return outcome;
  } finally {
    if (!idempotency.settled) {
      // Nothing stored: a repeat runs again. If the database is away this fails too, and the key
      // stays running until it is abandoned (docs/decisions.md): nothing was charged meanwhile.
      await releaseIdempotencyKey(idempotency.target).catch((error: unknown) =>
        logger('lookups').error({ err: error, catalog: lookup.input.catalog, outcome: outcome.kind }, 'releasing an idempotency key failed'),
      );
    }
  }
}

/** The source is known to be down: fail fast before waiting or holding money (no database trip at all). */
const refuseWhileSourceIsDown: Stage = {
  async run(lookup, next) {
    if (!sourceClients().guards.catalog.refusesNow()) return next();
    lookup.notSent = true;
    return { kind: 'source_failure', failure: 'unavailable' };
  },
};

/** Nothing costly has happened yet: a lookup that finds the queue full leaves its count and its trace, no record. */
const waitForTurn: Stage = {
  async run(lookup, next) {
    const settled = await inTurn(lookup.input.catalog, next);
    return settled === SHED ? { kind: 'unavailable', cause: 'shed' } : settled;
  },
};

const holdTheTariff: Stage = {
  timedAs: 'hold',
  async run(lookup, next) {
    const { bulkItem } = lookup.input;
    // A bulk item may have waited for its turn longer than its claim's lease: renewed here, before
    // anything is held, or the item is left to whoever holds it now (never charged twice).
    if (bulkItem && !(await bulkItem.renewClaim())) return { kind: 'claim_lost' };
    lookup.seals = new LookupSeals();
    const hold = await placeHoldOrKeepAbandonment(reached(lookup.integration, 'integration').id, lookup.input, reached(lookup.request, 'request'), lookup.seals);
    if (!hold) return { kind: 'balance_exhausted' };
    lookup.hold = hold;
    metrics().holdsOpen.inc();
    try {
      return await next();
    } finally {
      metrics().holdsOpen.dec();
    }
  },
};

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

const askTheSource: Stage = {
  timedAs: 'source',
  async run(lookup, next) {
    try {
      const result = await querySource(lookup.input.catalog, reached(lookup.request, 'request'));
      lookup.answer = result.ok
        ? { notSent: false, outcome: { kind: 'success', data: result.value }, detail: null, failure: null }
        : result.notSent
          ? { notSent: true }
          : { notSent: false, outcome: { kind: 'source_failure', failure: result.failure }, detail: result.detail, failure: result.fault };
    } catch (error) {
      // The record's detail is shown in the console: the same safe description the log gets.
      lookup.answer = { notSent: false, outcome: { kind: 'unhandled' }, detail: `unhandled: ${describeError(error)}`, failure: { kind: 'unhandled' } };
      logger('lookups').error({ err: error, catalog: lookup.input.catalog }, 'catalog source call failed');
    }
    return next();
  },
};

/** The catalog source's operation for the catalog (lib/sources/catalogs.ts), by the name in its path. */
function querySource(catalog: CatalogName, request: CatalogRequest): Promise<SourceResult<CatalogData>> {
  const { nit, cui, actualizado, dateOfBirth } = request;
  return sourceClients().catalog.lookup(catalogPathName(catalog), { nit, cui, actualizado, dateOfBirth });
}

/** The record's detail when the settlement waited in the journal (shown in the console). */
const SETTLEMENT_NOT_WRITTEN = 'database unavailable at settlement: not charged, recorded later';

/** The charge (or the hold given back) and the record, with the key's stored answer or the bulk item's row, in one statement. */
const settleAndRecord: Stage = {
  timedAs: 'settle',
  async run(lookup) {
    const { input } = lookup;
    const integrationId = reached(lookup.integration, 'integration').id;
    const hold = reached(lookup.hold, 'hold');
    const answer = reached(lookup.answer, 'source’s answer');
    if (answer.notSent) {
      // Failed fast: it never reached the source, so it is neither charged nor recorded (but traced).
      await voidHoldUnrecorded(integrationId, hold, input.requestId);
      lookup.notSent = true;
      return { kind: 'source_failure', failure: 'unavailable' };
    }
    const { outcome } = answer;
    const request = reached(lookup.request, 'request');
    const record: QueryRecordInput = {
      integrationId,
      lookup: input.catalog,
      httpStatus: catalogOutcomeStatus(outcome),
      responseTimeMs: Math.round(performance.now() - lookup.startedAt),
      nit: request.nit ?? null,
      cui: request.cui ?? null,
      errorMessage: answer.detail,
      failure: answer.failure,
      answerEmpty: outcome.kind === 'success' ? catalogAnswerIsEmpty(outcome.data) : null,
      actualizado: request.actualizado,
      dateOfBirthSent: request.dateOfBirthSent,
      answeredPair: outcome.kind === 'success' ? answeredPair(outcome.data) : null,
      requestId: input.requestId,
    };
    const receipt = await input.receipt?.companionFor(outcome, reached(lookup.integration, 'integration'));
    try {
      const companion = lookup.idempotency ? settleIdempotencyKey(lookup.idempotency.target, replayableAnswer(outcome)) : input.bulkItem?.settlement(outcome);
      lookup.charged = await settleHold(hold, outcome.kind === 'success', record, companion, lookup.seals, receipt);
      if (lookup.idempotency) lookup.idempotency.settled = true;
    } catch (error) {
      // The source was called and the database did not take the settlement (stopped, unreachable).
      // Nobody can know when it will, so the lookup is not charged: its hold is voided and its record
      // written from the journal once the database is back, saying what the client got (500).
      await keepRecord(
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
      );
      return { kind: 'unhandled' };
    }
    return outcome;
  },
};

/** A catalog lookup after its credentials: the API's requests and a bulk job's items run these same stages. */
export const AUTHENTICATED_CATALOG_STAGES: readonly Stage[] = [
  checkFlag,
  spendLimit,
  readRequest,
  claimIdempotencyKeyOnce,
  refuseWhileSourceIsDown,
  waitForTurn,
  holdTheTariff,
  askTheSource,
  settleAndRecord,
];

/** A catalog lookup as the API receives it: its credentials first. */
export const CATALOG_STAGES: readonly Stage[] = [authenticate, ...AUTHENTICATED_CATALOG_STAGES];

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
