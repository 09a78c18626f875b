import { normalizeTaxIdentifier } from './search-keys';

/** What an identifier in an error text is replaced with. */
export const SCRUBBED_IDENTIFIER = '[identificador]';

// Shaped like a NIT or a CUI: a run of at least six digits, with an optional check character
// (576937K, 1234567-8), or a CUI in its groups (2415 75181 0101). Shorter numbers (HTTP statuses)
// stay, and so do our own descriptions' quantities (30000 ms, 1048576 bytes) and dates (2026-11-24):
// they carry no identity.
const IDENTIFIER_SHAPE = /(?<![\p{L}\p{N}])(?:\d{4} \d{5} \d{4}|\d{6,}(?:-?[0-9kK])?)(?![\p{L}\p{N}])(?!\s*(?:ms|bytes)\b)/gu;

/** The text as an identifier's pattern reads it: its spaces and hyphens (what may separate an identifier's characters) gone, in lower case. */
function condensedForSearch(text: string): string {
  return text.replace(/[\s-]/g, '').toLowerCase();
}

/**
 * Whether a normalized identifier is digits, K and commas only (every NIT and CUI, and the several
 * NITs of an RTU lookup's record, joined): what matches each of them case-insensitively (k, K and
 * the Kelvin sign; a digit or a comma itself) is one character in lower case, so the check is exact.
 */
function isDigitsKAndCommas(normalized: string): boolean {
  return /^[0-9K,]+$/.test(normalized);
}

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
  let condensed: string | undefined;
  for (const identifier of identifiers) {
    const normalized = normalizeTaxIdentifier(identifier);
    if (normalized === null || normalized.length < 4) continue;
    // Compiling the pattern below takes V8 about 0.4 ms (its Unicode classes, case-insensitive),
    // a lookup's identifiers are new each time, and its texts almost never name one. Whatever the
    // pattern matches, the text without its spaces and hyphens holds as one run, in either case;
    // where that run is missing, the pattern would match nothing.
    condensed ??= condensedForSearch(message);
    if (isDigitsKAndCommas(normalized) && !condensed.includes(normalized.toLowerCase())) continue;
    // The identifier with any separators (spaces, hyphens) between its characters and any zeros in front.
    const spelled = [...normalized].map(escapeForPattern).join('[\\s-]*');
    scrubbed = scrubbed.replace(new RegExp(`(?<![\\p{L}\\p{N}])0*${spelled}(?![\\p{L}\\p{N}])`, 'giu'), SCRUBBED_IDENTIFIER);
  }
  return scrubbed.replace(IDENTIFIER_SHAPE, SCRUBBED_IDENTIFIER);
}
