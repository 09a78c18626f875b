import type { QueryRecordInput } from './types';

const NUL = '\u0000';
const REPLACEMENT_CHARACTER = '\uFFFD';

function storableText(text: string | null): string | null {
  return text === null ? null : text.replaceAll(NUL, REPLACEMENT_CHARACTER);
}

/**
 * A query record PostgreSQL can store. Its text type cannot hold U+0000, which can arrive in an
 * identifier (JSON allows "\u0000") or in an upstream's error body (the record's detail): the
 * insert would fail after the source answered, losing the record, turning the answer into a 500
 * and, on the catalogs, leaving the hold for the sweeper. The character is stored as U+FFFD.
 */
export function storableRecord(record: QueryRecordInput): QueryRecordInput {
  return { ...record, nit: storableText(record.nit), cui: storableText(record.cui), errorMessage: storableText(record.errorMessage) };
}
