import { createHmac } from 'node:crypto';
import { personalDataKeys, type PersonalDataKey, type PersonalDataKeyring } from './keys';

/**
 * The normalized form of a NIT or CUI, as the search compares them: white space and hyphens
 * removed, upper case, leading zeros removed; null when nothing is left. So 576937-k, 576937K and
 * 000576937-K are one identifier, and so are 2415 75181 0101 and 2415751810101. The same rules as
 * the SQL function normalize_tax_identifier (migration 0002), which wrote the clear search keys
 * before personal data was protected (search-keys.test.ts checks both agree).
 */
export function normalizeTaxIdentifier(raw: string): string | null {
  const normalized = raw
    .replace(/[\s-]/g, '')
    .toUpperCase()
    .replace(/^0+/, '');
  return normalized === '' ? null : normalized;
}

// 128 of HMAC-SHA-256's 256 bits (RFC 2104 allows truncation to half): an accidental collision
// among a billion identifiers has odds near 1e-21, and the search index stays about half as large.
const HASH_BYTES = 16;

function keyedHash(key: PersonalDataKey, normalized: string): string {
  return `${key.id}:${createHmac('sha256', key.key).update(normalized, 'utf8').digest().subarray(0, HASH_BYTES).toString('base64url')}`;
}

/** The search key stored for an identifier (`<search key id>:<HMAC>`); null when it normalizes to nothing. */
export function searchKey(raw: string, keys: PersonalDataKeyring = personalDataKeys()): string | null {
  const normalized = normalizeTaxIdentifier(raw);
  return normalized === null ? null : keyedHash(keys.search, normalized);
}

/**
 * The distinct search keys of a record's identifiers (each NIT of a batch; a NIT and a CUI);
 * `keyOf` computes each (a lookup passes its LookupSeals', which hashes each identifier once).
 */
export function recordSearchKeys(identifiers: readonly string[], keys: PersonalDataKeyring = personalDataKeys(), keyOf = searchKey): string[] {
  const distinct = new Set<string>();
  for (const identifier of identifiers) {
    const key = keyOf(identifier, keys);
    if (key !== null) distinct.add(key);
  }
  return [...distinct];
}

/** The key id a stored search key was made with; undefined for a clear (not yet migrated) one. */
export function searchKeyId(stored: string): string | undefined {
  return /^([0-9a-f]{8}):[A-Za-z0-9_-]{22}$/.exec(stored)?.[1];
}

/**
 * Every stored form what support typed may have: its hash under the current search key, under each
 * previous one while a rotation is under way, and, while records written before the migration may
 * still hold clear search keys (`includeClear`), its normalized form. Empty when it normalizes to nothing.
 */
export function searchKeysToLookUp(typed: string, includeClear: boolean, keys: PersonalDataKeyring = personalDataKeys()): string[] {
  const normalized = normalizeTaxIdentifier(typed);
  if (normalized === null) return [];
  const found = [keyedHash(keys.search, normalized), ...keys.previousSearch.map((key) => keyedHash(key, normalized))];
  if (includeClear) found.push(normalized);
  return found;
}
