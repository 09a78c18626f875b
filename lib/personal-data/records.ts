import { storableRecord } from '@/lib/records/storable';
import type { QueryRecordInput } from '@/lib/records/types';
import { open, openNullable, seal, sealNullable } from './envelope';
import { personalDataKeys, type PersonalDataKeyring } from './keys';
import { scrubErrorMessage } from './scrub';
import { normalizeTaxIdentifier, recordSearchKeys, searchKey } from './search-keys';

/**
 * A query record as it is stored: its NIT and CUI encrypted, its identifiers as keyed search
 * hashes, its error text without identifiers. What the record journal keeps on disk too, so an
 * instance's journal holds no identifier in clear either.
 */
export interface SealedQueryRecord extends Omit<QueryRecordInput, 'identifiers'> {
  sealed: true;
  /** query_record_identifiers.identifier of each distinct identifier (lib/personal-data/search-keys.ts). */
  searchKeys: string[];
  /** The NIT and CUI the answer linked (identifier_links): their search keys, and the pair sealed. */
  link?: IdentifierLink | null;
}

export interface IdentifierLink {
  nitKey: string;
  cuiKey: string;
  pairSealed: string;
}

/** The link row for a NIT and a CUI one answer gave together; null when either normalizes to nothing. */
export function identifierLink(pair: { nit: string; cui: string }, keys: PersonalDataKeyring = personalDataKeys()): IdentifierLink | null {
  const nit = normalizeTaxIdentifier(pair.nit);
  const cui = normalizeTaxIdentifier(pair.cui);
  // Only what reads as a NIT (digits, a K check digit) and a CUI (digits): a source's oddity links nothing.
  if (nit === null || cui === null || !/^\d{1,12}[\dK]$/.test(nit) || !/^\d{1,13}$/.test(cui) || nit === cui) return null;
  return { nitKey: searchKey(nit, keys)!, cuiKey: searchKey(cui, keys)!, pairSealed: seal(`${nit}\n${cui}`, 'identifier_link', keys) };
}

/** The NIT and CUI a link row holds (normalized). */
export function openIdentifierLink(pairSealed: string, keys: PersonalDataKeyring = personalDataKeys()): { nit: string; cui: string } {
  const [nit = '', cui = ''] = open(pairSealed, 'identifier_link', keys).split('\n');
  return { nit, cui };
}

export function isSealedRecord(record: QueryRecordInput | SealedQueryRecord): record is SealedQueryRecord {
  return (record as SealedQueryRecord).sealed === true;
}

/**
 * Seals a record for storage (a sealed one is returned as it is: a journal entry written sealed).
 * A few microseconds per identifier: one AES-GCM encryption per column and one HMAC per identifier.
 */
export function sealRecord(input: QueryRecordInput | SealedQueryRecord, keys: PersonalDataKeyring = personalDataKeys()): SealedQueryRecord {
  if (isSealedRecord(input)) return input;
  const record = storableRecord(input);
  const identifiers = record.identifiers ?? [];
  const sent = [...identifiers, ...[record.nit, record.cui].filter((text) => text !== null)];
  return {
    sealed: true,
    integrationId: record.integrationId,
    lookup: record.lookup,
    httpStatus: record.httpStatus,
    responseTimeMs: record.responseTimeMs,
    nit: sealNullable(record.nit, 'nit', keys),
    cui: sealNullable(record.cui, 'cui', keys),
    searchKeys: recordSearchKeys(identifiers, keys),
    errorMessage: record.errorMessage === null ? null : scrubErrorMessage(record.errorMessage, sent),
    // Statuses, durations and flags: nothing personal to seal.
    failure: record.failure ?? null,
    answerEmpty: record.answerEmpty ?? null,
    actualizado: record.actualizado ?? null,
    dateOfBirthSent: record.dateOfBirthSent ?? null,
    link: input.answeredPair ? identifierLink(input.answeredPair, keys) : null,
    requestId: record.requestId,
  };
}

/** A stored record with its NIT and CUI readable again (clear ones, not yet migrated, as they are). */
export function openRecord<T extends { nit: string | null; cui: string | null }>(record: T, keys: PersonalDataKeyring = personalDataKeys()): T {
  return { ...record, nit: openNullable(record.nit, 'nit', keys), cui: openNullable(record.cui, 'cui', keys) };
}

/**
 * The identifiers a stored record was looked up by, from its opened NIT and CUI: every NIT of an
 * /rtu/nits batch (stored joined by commas), else the NIT and the CUI. What the search keys are
 * recomputed from when the search key rotates (the migration 0002 backfill split them the same way).
 */
export function identifiersOfRecord(record: { lookup: string; nit: string | null; cui: string | null }): string[] {
  if (record.lookup === 'rtu_nits') return record.nit === null ? [] : record.nit.split(',');
  return [record.nit, record.cui].filter((text) => text !== null);
}
