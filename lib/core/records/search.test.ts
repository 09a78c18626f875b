// Support staff search one box, "NIT o CUI", however the customer writes the identifier: a NIT
// with or without its hyphen, in any case, even zero-padded; a CUI with or without its group
// spaces; and a NIT sent inside an /rtu/nits batch finds that batch's record. Records are written
// by the same functions the lookups use, so the search keys are the ones production stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { listRecordsPage } from './list';
import { recordUnbilledQuery } from './write';

let testDatabase: TestDatabase;
let integration: TestIntegration;
let other: TestIntegration;

async function catalogQuery(owner: TestIntegration, requestId: string, identifiers: { nit?: string; cui?: string }): Promise<void> {
  const hold = await placeHold(owner.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  await settleHold(hold, true, {
    integrationId: owner.id,
    lookup: 'omisos',
    httpStatus: 200,
    responseTimeMs: 20,
    nit: identifiers.nit ?? null,
    cui: identifiers.cui ?? null,
    errorMessage: null,
    requestId,
  });
}

async function batch(owner: TestIntegration, requestId: string, nits: string[]): Promise<void> {
  await recordUnbilledQuery({
    integrationId: owner.id,
    lookup: 'rtu_nits',
    httpStatus: 200,
    responseTimeMs: 30,
    nit: nits.join(','),
    cui: null,
    identifiers: nits,
    errorMessage: null,
    requestId,
  });
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('search-main', { tariffCentavos: 100, balanceCentavos: 10_000 });
  other = await createTestIntegration('search-other', { tariffCentavos: 100, balanceCentavos: 10_000 });
  await catalogQuery(integration, 'req_hyphen_upper', { nit: '576937-K' });
  await catalogQuery(integration, 'req_plain_lower', { nit: '576937k' });
  await catalogQuery(other, 'req_padded', { nit: '000576937-K' });
  await batch(integration, 'req_batch_with_it', ['7108-0', '576937-k', '39525503']);
  await batch(integration, 'req_batch_without_it', ['7108-0', '1576937K', '576937']);
  await catalogQuery(integration, 'req_cui_spaced', { cui: '1587 56444 0904' });
  await recordUnbilledQuery({
    integrationId: other.id,
    lookup: 'renap',
    httpStatus: 200,
    responseTimeMs: 15,
    nit: null,
    cui: '1587564440904',
    errorMessage: null,
    requestId: 'req_cui_plain',
  });
  await catalogQuery(integration, 'req_nit_and_cui', { nit: '576937-K', cui: '1587564440904' });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function found(identificador: string, extra: { integracion?: number } = {}): Promise<string[]> {
  const page = await listRecordsPage({ identificador, ...extra });
  return page.rows.map((row) => row.requestId).sort();
}

const EVERY_RECORD_OF_576937K = ['req_batch_with_it', 'req_hyphen_upper', 'req_nit_and_cui', 'req_padded', 'req_plain_lower'];

describe('search by NIT or CUI', () => {
  for (const typed of ['576937K', '576937-k', '576937-K', ' 576937 - k ', '0576937K']) {
    it(`"${typed}" finds every record of NIT 576937-K, batches included`, async () => {
      expect(await found(typed)).toEqual(EVERY_RECORD_OF_576937K);
    });
  }

  it('matches whole identifiers only: neither a longer NIT nor a shorter one', async () => {
    expect(await found('576937')).toEqual(['req_batch_without_it']);
    expect(await found('1576937-K')).toEqual(['req_batch_without_it']);
    expect(await found('76937K')).toEqual([]);
  });

  it('finds a CUI written with or without its group spaces', async () => {
    const expected = ['req_cui_plain', 'req_cui_spaced', 'req_nit_and_cui'];
    expect(await found('1587564440904')).toEqual(expected);
    expect(await found('1587 56444 0904')).toEqual(expected);
  });

  it('combines with the other filters', async () => {
    expect(await found('576937-K', { integracion: other.id })).toEqual(['req_padded']);
  });

  it('keeps what the integrator sent on the record', async () => {
    const [record] = (await listRecordsPage({ identificador: '7108-0', consulta: 'rtu_nits' })).rows.filter((row) => row.requestId === 'req_batch_with_it');
    expect(record?.nit).toBe('7108-0,576937-k,39525503');
  });
});
