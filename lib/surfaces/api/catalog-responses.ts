import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { catalogOutcomeStatus, type CatalogOutcome } from '@/lib/flows/lookups/catalog';
import type { CatalogRequestProblem } from '@/lib/flows/lookups/catalog-request';
import type { SourceFailure } from '@/lib/sources/outcomes';
import { jsonAnswer, type LookupAnswer } from './responses';
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';
import { IDEMPOTENCY_REFUSAL_REASONS, IDEMPOTENCY_REPLAYED_HEADER, REFUSAL_REASON_HEADER } from '@/lib/core/idempotency/key';

/**
 * Texts for the malformed requests the contract does not name (docs/decisions.md). Spelled as
 * Spanish is, accents included: only the contract's own messages keep its spelling, byte for byte.
 */
export const CATALOG_REQUEST_MESSAGES: Record<CatalogRequestProblem, string> = {
  content_type: 'El cuerpo debe enviarse como JSON con content-type: application/json.',
  too_large: 'El cuerpo de la petición es demasiado grande.',
  malformed: 'El cuerpo de la petición no es JSON válido.',
  not_an_object: 'El cuerpo de la petición debe ser un objeto JSON.',
  identifier_missing: CATALOG_MESSAGES.identifierRequired,
  identifier_not_text: 'Los campos nit y cui deben enviarse como texto.',
  identifier_too_long: 'El nit o el cui es demasiado largo.',
  actualizado_not_boolean: 'El campo actualizado debe ser true o false.',
  date_of_birth_not_text: 'El campo date_of_birth debe enviarse como texto (YYYY-MM-DD).',
  // The contract's 400 for data that is not valid: the key is part of the query's data.
  idempotency_key_invalid: CATALOG_MESSAGES.sourceRejectedData,
  idempotency_key_reused: CATALOG_MESSAGES.sourceRejectedData,
};

const SOURCE_FAILURE_MESSAGES: Record<SourceFailure, string> = {
  data_rejected: CATALOG_MESSAGES.sourceRejectedData,
  auth_rejected: CATALOG_MESSAGES.sourceAuthRejected,
  balance_exhausted: CATALOG_MESSAGES.sourceBalanceExhausted,
  query_type_denied: CATALOG_MESSAGES.sourceDeniedQueryType,
  not_found: CATALOG_MESSAGES.notFound,
  rate_limited: CATALOG_MESSAGES.sourceRateLimited,
  unavailable: CATALOG_MESSAGES.sourceUnavailable,
};

function catalogMessage(outcome: Exclude<CatalogOutcome, { kind: 'success' | 'replay' }>): string {
  switch (outcome.kind) {
    case 'credentials_missing':
      return CATALOG_MESSAGES.credentialsRequired;
    case 'credentials_invalid':
      return CATALOG_MESSAGES.integrationNotFound;
    case 'not_enabled':
      return CATALOG_MESSAGES.catalogNotEnabled;
    case 'rate_limited':
      return CATALOG_MESSAGES.rateLimited;
    case 'invalid_request':
      return CATALOG_REQUEST_MESSAGES[outcome.problem];
    case 'balance_exhausted':
      return CATALOG_MESSAGES.balanceExhausted;
    case 'source_failure':
      return SOURCE_FAILURE_MESSAGES[outcome.failure];
    case 'unavailable':
      // The contract's 502: not resolved, not charged, safe to retry (key_in_use included: the
      // request holding the key was still running when this one's 30 seconds ran out).
      return CATALOG_MESSAGES.sourceUnavailable;
    // Only a bulk item's lookup ends so (lib/flows/bulk); an API request never does.
    case 'claim_lost':
    case 'unhandled':
      return CATALOG_MESSAGES.unhandled;
  }
}

/** Catalog success is `{data}` only; every catalog error is `{message}` only. */
export function catalogAnswer(outcome: CatalogOutcome, requestId: string): LookupAnswer {
  const status = catalogOutcomeStatus(outcome);
  if (outcome.kind === 'replay') {
    // The stored text as it is: the same bytes the first request got.
    return {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', [REQUEST_ID_HEADER]: requestId, [IDEMPOTENCY_REPLAYED_HEADER]: 'true' },
      body: outcome.answer.body,
    };
  }
  if (outcome.kind === 'success') return jsonAnswer(status, { data: outcome.data }, requestId);
  const answer = jsonAnswer(status, { message: catalogMessage(outcome) }, requestId);
  if (outcome.kind === 'invalid_request' && (outcome.problem === 'idempotency_key_invalid' || outcome.problem === 'idempotency_key_reused')) {
    answer.headers[REFUSAL_REASON_HEADER] = IDEMPOTENCY_REFUSAL_REASONS[outcome.problem];
  }
  return answer;
}

export function catalogUnhandledAnswer(requestId: string): LookupAnswer {
  return jsonAnswer(500, { message: CATALOG_MESSAGES.unhandled }, requestId);
}
