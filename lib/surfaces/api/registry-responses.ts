import { REGISTRY_MESSAGES, rtuFoundMessage } from '@/lib/contract/messages';
import type { RegistryRefusal, RenapOutcome, RtuNitsOutcome } from '@/lib/flows/lookups/registries';
import type { RegistryRequestProblem } from '@/lib/flows/lookups/registry-request';
import { jsonAnswer, type LookupAnswer } from './responses';

/** Texts for malformed requests the contract does not name (docs/decisions.md); key `error`. */
export const REGISTRY_REQUEST_MESSAGES: Record<RegistryRequestProblem, string> = {
  content_type: 'Request body must be JSON sent with content-type: application/json.',
  too_large: 'Request body is too large.',
  malformed: 'Request body is not valid JSON.',
  not_an_object: 'Request body must be a JSON object.',
  cui_missing: REGISTRY_MESSAGES.cuiRequired,
  cui_not_text: 'CUI must be a string.',
  nits_missing: REGISTRY_MESSAGES.nitsRequired,
  nit_not_text: 'Each NIT must be a non-empty string.',
  identifier_too_long: 'Identifier is too long.',
};

/** The contract leaves the 500 text open; it says the registry query failed and nothing more. */
export const REGISTRY_FAILED_MESSAGE = 'Registry query failed.';

function refusalAnswer(refusal: RegistryRefusal, notEnabledMessage: string, requestId: string): LookupAnswer {
  switch (refusal.kind) {
    case 'unauthenticated':
      return jsonAnswer(403, { error: REGISTRY_MESSAGES.authenticationRequired }, requestId);
    case 'not_enabled':
      return jsonAnswer(403, { error: notEnabledMessage }, requestId);
    case 'rate_limited':
      return jsonAnswer(429, { error: REGISTRY_MESSAGES.rateLimited }, requestId);
    case 'invalid_request':
      return jsonAnswer(400, { error: REGISTRY_REQUEST_MESSAGES[refusal.problem] }, requestId);
  }
}

/** Person registry: the registry's status, `success` from it, `responseCode` from its body. */
export function renapAnswer(outcome: RenapOutcome, requestId: string): LookupAnswer {
  switch (outcome.kind) {
    case 'answered':
      return jsonAnswer(
        outcome.httpStatus,
        {
          success: outcome.httpStatus >= 200 && outcome.httpStatus < 300,
          data: outcome.data,
          message: outcome.message,
          responseCode: outcome.responseCode,
        },
        requestId,
      );
    case 'registry_failed':
    case 'unavailable':
      return registryFailedAnswer(requestId);
    default:
      return refusalAnswer(outcome, REGISTRY_MESSAGES.renapNotEnabled, requestId);
  }
}

/** RTU by NIT: HTTP status equals responseCode; no matches is still a 200. */
export function rtuNitsAnswer(outcome: RtuNitsOutcome, requestId: string): LookupAnswer {
  switch (outcome.kind) {
    case 'found':
      return jsonAnswer(
        200,
        { success: true, data: outcome.records, message: rtuFoundMessage(outcome.records.length, outcome.requested), responseCode: 200 },
        requestId,
      );
    case 'too_many_nits':
      return jsonAnswer(400, { success: false, message: REGISTRY_MESSAGES.tooManyNits, responseCode: 400, data: null }, requestId);
    case 'registry_failed':
    case 'unavailable':
      return registryFailedAnswer(requestId);
    default:
      return refusalAnswer(outcome, REGISTRY_MESSAGES.rtuNotEnabled, requestId);
  }
}

export function registryFailedAnswer(requestId: string): LookupAnswer {
  return jsonAnswer(500, { error: REGISTRY_FAILED_MESSAGE }, requestId);
}
