import { storableRecord } from '@/lib/core/records/storable';
import type { QueryRecordInput } from '@/lib/core/records/types';
import { open, openNullable, seal, type SealedPurpose } from '@/lib/core/sealing/envelope';
import { personalDataKeys, type PersonalDataKeyring } from '@/lib/core/sealing/keys';
import { scrubErrorMessage } from '@/lib/core/sealing/scrub';
import { normalizeTaxIdentifier, recordSearchKeys, searchKey } from '@/lib/core/sealing/search-keys';

/**
 * A query record as it is stored: its NIT and CUI encrypted, its identifiers as keyed search
 * hashes, its error text without identifiers. What the record journal keeps on disk too, so an
 * instance's journal holds no identifier in clear either.
 */
export interface SealedQueryRecord extends Omit<QueryRecordInput, 'identifiers'> {
  sealed: true;
  /** query_record_identifiers.identifier of each distinct identifier (lib/core/sealing/search-keys.ts). */
  searchKeys: string[];
  /** The NIT and CUI the answer linked (identifier_links): their search keys, and the pair sealed. */
  link?: IdentifierLink | null;
}

export interface IdentifierLink {
  nitKey: string;
  cuiKey: string;
  pairSealed: string;
}

/**
 * What one lookup sealed and hashed, kept for that lookup alone: its intent (a hold's, a registry
 * call's) and its record carry the same NIT and CUI, and the link an answer gives repeats the NIT,
 * so each is sealed and hashed once. An AES-GCM seal costs about 18 µs of CPU and an HMAC about
 * 13 µs on the development machine, a tenth of what a catalog lookup adds to a bare request when
 * each was done again (docs/performance.md, "Within 2× of the bare handler"). Never shared between lookups: it holds
 * the identifiers in clear, for as long as the lookup that has them anyway.
 */
export class LookupSeals {
  private readonly sealed = new Map<string, string>();
  private readonly searchKeys = new Map<string, string | null>();

  seal(text: string, purpose: SealedPurpose, keys: PersonalDataKeyring): string {
    const key = `${keys.encryption.id}\n${purpose}\n${text}`;
    let sealed = this.sealed.get(key);
    if (sealed === undefined) this.sealed.set(key, (sealed = seal(text, purpose, keys)));
    return sealed;
  }

  sealNullable(text: string | null, purpose: SealedPurpose, keys: PersonalDataKeyring): string | null {
    return text === null ? null : this.seal(text, purpose, keys);
  }

  /** lib/core/sealing/search-keys.ts's searchKey, once per normalized identifier. */
  searchKey(raw: string, keys: PersonalDataKeyring): string | null {
    const normalized = normalizeTaxIdentifier(raw);
    if (normalized === null) return null;
    const key = `${keys.search.id}\n${normalized}`;
    let found = this.searchKeys.get(key);
    if (found === undefined) this.searchKeys.set(key, (found = searchKey(normalized, keys)));
    return found;
  }
}

/** The link row for a NIT and a CUI one answer gave together; null when either normalizes to nothing. */
export function identifierLink(pair: { nit: string; cui: string }, keys: PersonalDataKeyring = personalDataKeys(), seals = new LookupSeals()): IdentifierLink | null {
  const nit = normalizeTaxIdentifier(pair.nit);
  const cui = normalizeTaxIdentifier(pair.cui);
  // Only what reads as a NIT (digits, a K check digit) and a CUI (digits): a source's oddity links nothing.
  if (nit === null || cui === null || !/^\d{1,12}[\dK]$/.test(nit) || !/^\d{1,13}$/.test(cui) || nit === cui) return null;
  return { nitKey: seals.searchKey(nit, keys)!, cuiKey: seals.searchKey(cui, keys)!, pairSealed: seals.seal(`${nit}\n${cui}`, 'identifier_link', keys) };
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
 * One AES-GCM encryption per column and one HMAC per distinct identifier, each done once per
 * `seals` (a lookup passes its own, so its intent and its record share them).
 */
export function sealRecord(input: QueryRecordInput | SealedQueryRecord, keys: PersonalDataKeyring = personalDataKeys(), seals = new LookupSeals()): SealedQueryRecord {
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
    nit: seals.sealNullable(record.nit, 'nit', keys),
    cui: seals.sealNullable(record.cui, 'cui', keys),
    searchKeys: recordSearchKeys(identifiers, keys, (identifier) => seals.searchKey(identifier, keys)),
    errorMessage: record.errorMessage === null ? null : scrubErrorMessage(record.errorMessage, sent),
    // Statuses, durations and flags: nothing personal to seal.
    failure: record.failure ?? null,
    answerEmpty: record.answerEmpty ?? null,
    actualizado: record.actualizado ?? null,
    dateOfBirthSent: record.dateOfBirthSent ?? null,
    link: input.answeredPair ? identifierLink(input.answeredPair, keys, seals) : null,
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
