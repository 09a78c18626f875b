import { balanceSeen } from '@/lib/core/billing/events';
import type { AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { noteLookup } from '@/lib/platform/http/lookup-trace';
import { countRefusal } from '@/lib/core/rollups/refusals';
import { traceReplay, traceUnserved } from '@/lib/core/request-traces/buffer';
import { refuseAddress } from './address-refusal';
import type { CatalogData, CatalogOutcome } from './catalog-outcome';
import {
  AUTHENTICATED_CATALOG_STAGES,
  CATALOG_STAGES,
  catalogOutcomeStatus,
  type AuthenticatedLookupInput,
  type CatalogLookupInput,
  type CatalogLookupRun,
} from './catalog-stages';
import { runStages } from './stages';

export type { AuthenticatedLookupInput, CatalogData, CatalogLookupInput, CatalogOutcome };
export { catalogOutcomeStatus };

/**
 * The catalog pipeline (lib/flows/lookups/catalog-stages.ts, docs/decisions.md "Precedence of
 * checks"): credentials, flag, per-minute limit, body, the Idempotency-Key when sent (a repeat ends
 * there with the stored answer), a turn (lib/core/admission), balance hold, source call, then
 * settlement and record (and the key's stored answer) in one statement.
 */
export async function runCatalogLookup(input: CatalogLookupInput): Promise<CatalogOutcome> {
  const lookup: CatalogLookupRun = { input, credentials: input.credentials, startedAt: performance.now() };
  const outcome = await runToItsEnd(lookup, CATALOG_STAGES);
  noteLookup({ outcome: lookupOutcomeName(outcome) });
  return outcome;
}

/**
 * Everything after the credentials, for an authenticated integration: the API's requests and a
 * bulk job's items (lib/flows/bulk) run these same stages, so an item is flagged, limited, held, sent,
 * settled and recorded exactly as a single request is.
 */
export function runAuthenticatedCatalogLookup(
  input: AuthenticatedLookupInput,
  integration: AuthenticatedIntegration,
  startedAt: number = performance.now(),
): Promise<CatalogOutcome> {
  return runToItsEnd({ input, integration, startedAt }, AUTHENTICATED_CATALOG_STAGES);
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

async function runToItsEnd(lookup: CatalogLookupRun, stages: typeof CATALOG_STAGES): Promise<CatalogOutcome> {
  try {
    const outcome = await runStages(stages, lookup);
    tellTheEnd(lookup, outcome);
    return outcome;
  } finally {
    if (lookup.integration) noteLookup({ integration: lookup.integration.nombre, integrationId: lookup.integration.id });
  }
}

/**
 * What a lookup's end tells, read from its outcome and what its stages noted: a refusal before the
 * source is counted (never recorded); an answer that left no record (unavailable, a call the source's
 * guard never sent, a replayed key's answer) is traced by request id for support; a charge tells the
 * balance's watchers (off the request path: the alert is written and sent later).
 */
function tellTheEnd(lookup: CatalogLookupRun, outcome: CatalogOutcome): void {
  const { catalog, requestId, bulkItem } = lookup.input;
  const integrationId = lookup.integration?.id;
  switch (outcome.kind) {
    case 'credentials_missing':
    case 'credentials_invalid':
    case 'not_enabled':
    case 'rate_limited':
    case 'invalid_request':
    case 'balance_exhausted':
      if (lookup.refusedAddress) refuseAddress(lookup.refusedAddress, catalog);
      // A bulk item's refusal only waits (or pauses its job): nobody sent it.
      else if (!bulkItem) countRefusal({ integrationId, lookup: catalog, reason: outcome.kind });
      return;
    case 'unavailable':
      traceUnserved({ requestId, lookup: catalog, integrationId, cause: outcome.cause });
      return;
    case 'replay':
      // The replay's own request id must lead support to the query it repeated.
      if (integrationId !== undefined && lookup.replayOf) traceReplay({ requestId, integrationId, lookup: catalog, httpStatus: outcome.answer.status, replayOf: lookup.replayOf });
      return;
    case 'source_failure':
      if (lookup.notSent) traceUnserved({ requestId, lookup: catalog, integrationId, cause: 'source_not_sent' });
      break;
    default:
      break;
  }
  if (lookup.charged && lookup.integration) balanceSeen.tell({ integrationId: lookup.integration.id, nombre: lookup.integration.nombre, ...lookup.charged });
}
