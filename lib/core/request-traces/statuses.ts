import { isCatalogLookup, type LookupKind, type RefusalReason, type UnservedCause } from '@/db/schema';

/**
 * The status an integrator got for a refusal, as lib/surfaces/api answers it: the contract gives the
 * registries (RENAP, RTU by NIT) one 403 for missing and wrong credentials, the catalogs a 403 for
 * missing ones and a 401 for wrong ones. An address outside the allow-list is answered as wrong
 * credentials; the per-IP limit is a 429 on every route; another method than POST, a 405.
 */
export function refusalStatus(lookup: LookupKind, reason: RefusalReason): number {
  switch (reason) {
    case 'credentials_missing':
    case 'not_enabled':
      return 403;
    case 'credentials_invalid':
    case 'ip_not_allowed':
      return isCatalogLookup(lookup) ? 401 : 403;
    case 'rate_limited':
    case 'ip_rate_limited':
      return 429;
    case 'invalid_request':
    case 'too_many_nits':
      return 400;
    case 'balance_exhausted':
      return 402;
    case 'method_not_allowed':
      return 405;
  }
}

/**
 * The status an integrator got for an answer the gateway could not serve, as lib/surfaces/api answers it:
 * the route family's "unavailable" (the catalogs' contract 502, "not resolved, not charged, safe to
 * retry"; the registries have no 502 and answer their 500), and the generic 500 of an unexpected
 * error on every route.
 */
export function unservedStatus(lookup: LookupKind, cause: UnservedCause): number {
  if (cause === 'unhandled') return 500;
  return isCatalogLookup(lookup) ? 502 : 500;
}
