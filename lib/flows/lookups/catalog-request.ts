import type { CatalogLookup } from '@/db/schema';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';
import type { BodyRead } from '@/lib/platform/http/json-body';
import { CATALOG_OPERATIONS } from '@/lib/sources/catalogs';
import { catalogPathName } from '@/lib/vocabulary/lookups';

/** A catalog lookup (db/schema's CATALOG_LOOKUPS). */
export type CatalogName = CatalogLookup;

/** A catalog request after validation: at least one identifier, as the integrator sent it. */
export interface CatalogRequest {
  nit?: string;
  cui?: string;
  actualizado: boolean;
  /** Only the catalogs that send it to the source read it (/catalogos/rtu, lib/sources/catalogs.ts); forwarded as received, never validated. */
  dateOfBirth?: string;
  /** Whether the body had a `date_of_birth` (the other two catalogs discard it): recorded, the date never. */
  dateOfBirthSent: boolean;
}

export type CatalogRequestProblem =
  | 'content_type'
  | 'too_large'
  | 'malformed'
  | 'not_an_object'
  | 'identifier_missing'
  | 'identifier_not_text'
  | 'identifier_too_long'
  | 'actualizado_not_boolean'
  | 'date_of_birth_not_text'
  /** The Idempotency-Key header is empty, longer than 255 characters or not printable (lib/core/idempotency). */
  | 'idempotency_key_invalid'
  /** The Idempotency-Key was used in the last 24 hours with another request. */
  | 'idempotency_key_reused';


/**
 * Validates a catalog body. Empty and whitespace-only identifiers count as not sent (the contract
 * requires a non-empty string); an identifier of any other type is refused rather than guessed at.
 */
export function parseCatalogRequest(
  catalog: CatalogName,
  body: BodyRead,
): { ok: true; request: CatalogRequest } | { ok: false; problem: CatalogRequestProblem } {
  if (!body.ok) return { ok: false, problem: body.problem };
  const value = body.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'not_an_object' };
  const fields = value as Record<string, unknown>;

  const identifiers: { nit?: string; cui?: string } = {};
  let someIdentifierNotText = false;
  for (const key of ['nit', 'cui'] as const) {
    const field = fields[key];
    if (field === undefined || field === null) continue;
    if (typeof field !== 'string') someIdentifierNotText = true;
    else if (field.trim() !== '') identifiers[key] = field;
  }
  // Neither usable: the contract's own 400, even when one of them was, say, a number.
  if (identifiers.nit === undefined && identifiers.cui === undefined) return { ok: false, problem: 'identifier_missing' };
  if (someIdentifierNotText) return { ok: false, problem: 'identifier_not_text' };
  if ([fields.nit, fields.cui].some((field) => typeof field === 'string' && field.length > MAX_IDENTIFIER_LENGTH)) {
    return { ok: false, problem: 'identifier_too_long' };
  }

  const actualizado = fields.actualizado ?? false;
  if (typeof actualizado !== 'boolean') return { ok: false, problem: 'actualizado_not_boolean' };

  const dateOfBirthSent = fields.date_of_birth !== undefined && fields.date_of_birth !== null;
  const request: CatalogRequest = { ...identifiers, actualizado, dateOfBirthSent };
  if (CATALOG_OPERATIONS[catalogPathName(catalog)].sendsDateOfBirth && fields.date_of_birth !== undefined && fields.date_of_birth !== null) {
    if (typeof fields.date_of_birth !== 'string') return { ok: false, problem: 'date_of_birth_not_text' };
    request.dateOfBirth = fields.date_of_birth;
  }
  return { ok: true, request };
}

/**
 * The request as the gateway understood it: the catalog and the fields it forwards, in a fixed
 * order. Two bodies that differ only in whitespace, key order, an explicit `actualizado: false`, a
 * `date_of_birth` the catalog does not read or an empty identifier are the same request; any
 * difference the source would see is not. The same key on another catalog is another request.
 */
export function normalizedRequest(catalog: CatalogName, request: CatalogRequest): string {
  return JSON.stringify([catalog, request.nit ?? null, request.cui ?? null, request.actualizado, request.dateOfBirth ?? null]);
}
