import type { QueryRecordInput } from './types';

const NUL = '\u0000';
const REPLACEMENT_CHARACTER = '\uFFFD';

function storableText(text: string): string {
  return text.replaceAll(NUL, REPLACEMENT_CHARACTER);
}

function storableNullable(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

/**
 * A query record PostgreSQL can store. Its text type cannot hold U+0000, which can arrive in an
 * identifier (JSON allows "\u0000") or in an upstream's error body (the record's detail): the
 * insert would fail after the source answered, losing the record, turning the answer into a 500
 * and, on the catalogs, leaving the hold for the sweeper. The character is stored as U+FFFD.
 */
export function storableRecord(record: QueryRecordInput): QueryRecordInput {
  return {
    ...record,
    nit: storableNullable(record.nit),
    cui: storableNullable(record.cui),
    identifiers: (record.identifiers ?? [record.nit, record.cui].filter((identifier) => identifier !== null)).map(storableText),
    errorMessage: storableNullable(record.errorMessage),
  };
}
