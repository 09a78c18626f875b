// A lookup seals and hashes its NIT and CUI once (LookupSeals): the hold's intent and the record it
// settles carry the same ciphertext and search key, the answer's link reuses the NIT's search key,
// and nothing is shared between two lookups (each seals with a fresh IV).
import { describe, expect, it } from 'vitest';
import { TEST_PERSONAL_DATA_KEYS } from '@/tests/support/personal-data-keys';
import { outcomeUnknownRecord } from '@/lib/core/billing/holds';
import type { QueryRecordInput } from '@/lib/core/records/types';
import { open } from '@/lib/core/sealing/envelope';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { LookupSeals, openIdentifierLink, sealRecord } from '@/lib/core/records/sealed';
import { searchKey } from '@/lib/core/sealing/search-keys';

Object.assign(process.env, TEST_PERSONAL_DATA_KEYS);

const known = { integrationId: 1, lookup: 'cui_nit' as const, nit: '576937-K', cui: null, actualizado: false, dateOfBirthSent: false, requestId: 'req-seals' };
const settled: QueryRecordInput = {
  ...known,
  httpStatus: 200,
  responseTimeMs: 12,
  errorMessage: null,
  failure: null,
  answerEmpty: false,
  answeredPair: { nit: '576937K', cui: '2415751810101' },
};

describe('LookupSeals', () => {
  it("seals a lookup's NIT once: its intent and its record store the same ciphertext and search key", () => {
    const keys = personalDataKeys();
    const seals = new LookupSeals();
    const intent = sealRecord(outcomeUnknownRecord(known), keys, seals);
    const record = sealRecord(settled, keys, seals);
    expect(record.nit).toBe(intent.nit);
    expect(open(record.nit!, 'nit', keys)).toBe('576937-K');
    expect(record.searchKeys).toEqual(intent.searchKeys);
    expect(record.searchKeys).toEqual([searchKey('576937-K', keys)]);
    // The link's NIT is the same identifier written another way: one search key for both.
    expect(record.link?.nitKey).toBe(record.searchKeys[0]);
    expect(record.link?.cuiKey).toBe(searchKey('2415751810101', keys));
    expect(openIdentifierLink(record.link!.pairSealed, keys)).toEqual({ nit: '576937K', cui: '2415751810101' });
  });

  it('shares nothing between two lookups: the same NIT is sealed afresh, with its own IV', () => {
    const keys = personalDataKeys();
    const first = sealRecord(settled, keys, new LookupSeals());
    const second = sealRecord(settled, keys, new LookupSeals());
    expect(second.nit).not.toBe(first.nit);
    expect(open(second.nit!, 'nit', keys)).toBe(open(first.nit!, 'nit', keys));
    // Search keys are deterministic by design (the console finds records by them).
    expect(second.searchKeys).toEqual(first.searchKeys);
  });

  it('binds each sealed value to its purpose: a NIT and a CUI with the same digits are sealed apart', () => {
    const keys = personalDataKeys();
    const seals = new LookupSeals();
    const asNit = seals.seal('8832114', 'nit', keys);
    const asCui = seals.seal('8832114', 'cui', keys);
    expect(asCui).not.toBe(asNit);
    expect(open(asCui, 'cui', keys)).toBe('8832114');
    expect(() => open(asNit, 'cui', keys)).toThrow();
  });
});
