import { normalizeTaxIdentifier } from './search-keys';

/** What an identifier in an error text is replaced with. */
export const SCRUBBED_IDENTIFIER = '[identificador]';

// Shaped like a NIT or a CUI: a run of at least six digits, with an optional check character
// (576937K, 1234567-8), or a CUI in its groups (2415 75181 0101). Shorter numbers (HTTP statuses)
// stay, and so do our own descriptions' quantities (30000 ms, 1048576 bytes) and dates (2026-11-24):
// they carry no identity.
const IDENTIFIER_SHAPE = /(?<![\p{L}\p{N}])(?:\d{4} \d{5} \d{4}|\d{6,}(?:-?[0-9kK])?)(?![\p{L}\p{N}])(?!\s*(?:ms|bytes)\b)/gu;

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * An error text fit to store with a query record: the record's own identifiers, in any writing,
 * and anything shaped like a NIT or CUI, replaced by [identificador]. The texts come from the
 * sources' error answers (an excerpt of the body: a registry may echo the CUI it could not find)
 * and from our own descriptions (which never name an identifier); both end up in the console and
 * in backups, where no identifier may be readable.
 */
export function scrubErrorMessage(message: string, identifiers: readonly string[]): string {
  let scrubbed = message;
  for (const identifier of identifiers) {
    const normalized = normalizeTaxIdentifier(identifier);
    if (normalized === null || normalized.length < 4) continue;
    // The identifier with any separators (spaces, hyphens) between its characters and any zeros in front.
    const spelled = [...normalized].map(escapeForPattern).join('[\\s-]*');
    scrubbed = scrubbed.replace(new RegExp(`(?<![\\p{L}\\p{N}])0*${spelled}(?![\\p{L}\\p{N}])`, 'giu'), SCRUBBED_IDENTIFIER);
  }
  return scrubbed.replace(IDENTIFIER_SHAPE, SCRUBBED_IDENTIFIER);
}
