// Personal data at rest (issue 23, points 2 and 3): query records written by the lookups' own
// writers, and records left in clear by the previous release once `personal-data:reseal` ran,
// hold no NIT or CUI in clear in any column of query_records or query_record_identifiers; the
// console's search still finds them (batches included) by any writing; a key rotation re-encrypts
// and re-hashes every record while search keeps working.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { submitJob } from '@/lib/flows/bulk/jobs';
import { jobResults, type ResultRow } from '@/lib/flows/bulk/results';
import { recordsCsvStream } from '@/lib/core/records/csv';
import { findRecordDetail, listRecordsPage } from '@/lib/core/records/list';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { listWatchListChanges } from '@/lib/flows/watch-lists/changes';
import { createWatchList } from '@/lib/flows/watch-lists/lists';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { TEST_PERSONAL_DATA_KEYS } from '@/tests/support/personal-data-keys';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { isSealed, open, seal, sealedKeyId, UnknownPersonalDataKeyError } from '@/lib/core/sealing/envelope';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { resealRecords } from './reseal';
import { scrubErrorMessage } from '@/lib/core/sealing/scrub';
import { normalizeTaxIdentifier, searchKeyId } from '@/lib/core/sealing/search-keys';
import { forgetPersonalDataState } from '@/lib/core/sealing/state';

let testDatabase: TestDatabase;
let integration: TestIntegration;

// Every writing of the identifiers these tests store, as they could appear in clear.
const FORBIDDEN = ['576937-K', '576937K', '576937-k', '576937', '39525503', '1587 56444 0904', '1587564440904', '2415751810101', '2415 75181 0101', '8832114'];

async function storedText(): Promise<string> {
  const handle = await database();
  const records = await handle.rows<{ row: string }>(sql`select row_to_json(r)::text as row from query_records r`);
  const identifiers = await handle.rows<{ row: string }>(sql`select row_to_json(i)::text as row from query_record_identifiers i`);
  return [...records, ...identifiers].map(({ row }) => row).join('\n');
}

function expectNoIdentifierIn(text: string): void {
  for (const identifier of FORBIDDEN) expect(text, `"${identifier}" in clear`).not.toContain(identifier);
}

async function found(identificador: string): Promise<string[]> {
  return (await listRecordsPage({ identificador })).rows.map((row) => row.requestId).sort();
}

async function catalogQuery(requestId: string, nit: string | null, cui: string | null, errorMessage: string | null = null): Promise<void> {
  const hold = await placeHold(integration.id, requestId);
  if (!hold) throw new Error('the balance covers the hold');
  await settleHold(hold, errorMessage === null, { integrationId: integration.id, lookup: 'omisos', httpStatus: errorMessage ? 502 : 200, responseTimeMs: 20, nit, cui, errorMessage, requestId });
}

function useKeys(settings: Record<string, string>): void {
  for (const name of ['PERSONAL_DATA_KEY', 'PERSONAL_DATA_SEARCH_KEY', 'PERSONAL_DATA_PREVIOUS_KEYS', 'PERSONAL_DATA_PREVIOUS_SEARCH_KEYS']) delete process.env[name];
  Object.assign(process.env, settings);
  resetEnvCache();
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('personal-data', { tariffCentavos: 100, balanceCentavos: 100_000 });
});

afterAll(async () => {
  useKeys(TEST_PERSONAL_DATA_KEYS);
  await testDatabase?.cleanup();
});

describe('sealing', () => {
  it('encrypts with a fresh IV each time, names its key, and opens only for the purpose it was sealed for', () => {
    const first = seal('1587 56444 0904', 'cui');
    const second = seal('1587 56444 0904', 'cui');
    expect(first).not.toBe(second);
    expect(isSealed(first)).toBe(true);
    expect(sealedKeyId(first)).toBe(personalDataKeys().encryption.id);
    expect(open(first, 'cui')).toBe('1587 56444 0904');
    expect(() => open(first, 'nit')).toThrow();
    // One bit of the ciphertext flipped. (Changing the text's last characters, as before, changed
    // nothing once in 256 runs: the last base64 character of 43 bytes carries 4 bits of padding.)
    const [version, keyId, body] = first.split(':');
    const bytes = Buffer.from(body!, 'base64url');
    bytes[bytes.length >> 1]! ^= 0x01;
    expect(() => open(`${version}:${keyId}:${bytes.toString('base64url')}`, 'cui')).toThrow();
    // A value still in clear (written before the migration) reads as it is.
    expect(open('576937-K', 'nit')).toBe('576937-K');
  });

  it('refuses a value sealed with a key it does not have, naming the key id', () => {
    const sealed = seal('576937-K', 'nit');
    const other = { ...personalDataKeys(), decryption: new Map() };
    expect(() => open(sealed, 'nit', other)).toThrow(UnknownPersonalDataKeyError);
    expect(() => open(sealed, 'nit', other)).toThrow(sealedKeyId(sealed)!);
  });

  it('normalizes identifiers exactly as the SQL function the clear search keys were made with', async () => {
    const handle = await database();
    for (const raw of ['576937-k', '576937K', '000576937-K', ' 576937 - k ', '2415 75181 0101', '2415751810101', '0', '-', '  ', 'abc-0d', '0001587\t56444\n0904', 'K']) {
      const [row] = await handle.rows<{ normalized: string | null }>(sql`select normalize_tax_identifier(${raw}::text) as normalized`);
      expect(normalizeTaxIdentifier(raw), JSON.stringify(raw)).toBe(row!.normalized);
    }
  });

  it('scrubs identifiers out of error texts, in any writing, and leaves statuses, times and dates', () => {
    expect(scrubErrorMessage('person registry answered HTTP 200 503: {"message":"CUI 1587 56444 0904 no disponible"}', ['2415751810101'])).toBe(
      'person registry answered HTTP 200 503: {"message":"CUI [identificador] no disponible"}',
    );
    expect(scrubErrorMessage('NIT 000576937-k rechazado; otro 8832114', ['576937-K'])).toBe('NIT [identificador] rechazado; otro [identificador]');
    expect(scrubErrorMessage('NIT 7108-0 inválido', ['7108-0'])).toBe('NIT [identificador] inválido');
    const operational = 'catalog source (rtu): no answer within 30000 ms; answer larger than 1048576 bytes; HTTP 502 at 2026-11-24T03:04:05Z';
    expect(scrubErrorMessage(operational, ['576937-K'])).toBe(operational);
  });

  it('scrubs an identifier too short for its shape however it is spaced or cased, and leaves a different one or one inside a word', () => {
    expect(scrubErrorMessage('NIT 0 1 2 3 4 k rechazado', ['1234K'])).toBe('NIT 0 [identificador] rechazado');
    expect(scrubErrorMessage('NIT 1234\u212A rechazado', ['1234-k'])).toBe('NIT [identificador] rechazado');
    expect(scrubErrorMessage('NIT 00-12 34K, o 1234 k', ['1234K'])).toBe('NIT 00-[identificador], o [identificador]');
    expect(scrubErrorMessage('ninguno 1235K aquí', ['1234K'])).toBe('ninguno 1235K aquí');
    expect(scrubErrorMessage('NIT A1234K y 1234KB', ['1234K'])).toBe('NIT A1234K y 1234KB');
    expect(scrubErrorMessage('NITs 1234K,5678-9 rechazados', ['1234K,56789'])).toBe('NITs [identificador] rechazados');
    expect(scrubErrorMessage('NITs 1234K, 5678-9 rechazados', ['1234K,56789'])).toBe('NITs [identificador] rechazados');
    expect(scrubErrorMessage('NITs 1234K;56789 rechazados', ['1234K,56789'])).toBe('NITs 1234K;56789 rechazados');
  });
});

describe('records written by the lookups', () => {
  beforeAll(async () => {
    await catalogQuery('req_catalog_both', '576937-K', '1587 56444 0904');
    await catalogQuery('req_catalog_failed', '0576937k', null, 'catalog source answered HTTP 500: {"error":{"detalle":"NIT 576937-K sin datos; ver 8832114"}}');
    await recordUnbilledQuery({
      integrationId: integration.id,
      lookup: 'rtu_nits',
      httpStatus: 200,
      responseTimeMs: 30,
      nit: '7108-0,576937-k,39525503',
      cui: null,
      identifiers: ['7108-0', '576937-k', '39525503'],
      errorMessage: null,
      requestId: 'req_batch',
    });
    await recordUnbilledQuery({
      integrationId: integration.id,
      lookup: 'renap',
      httpStatus: 200,
      responseTimeMs: 15,
      nit: null,
      cui: '2415 75181 0101',
      errorMessage: null,
      requestId: 'req_renap',
    });
  });

  it('leaves no identifier in clear in any column of query_records or query_record_identifiers', async () => {
    expectNoIdentifierIn(await storedText());
  });

  it('finds every record of an identifier by any writing, batches included', async () => {
    const everyRecordOf576937K = ['req_batch', 'req_catalog_both', 'req_catalog_failed'];
    for (const typed of ['576937K', '576937-k', ' 576937 - K ', '000576937-K']) expect(await found(typed)).toEqual(everyRecordOf576937K);
    expect(await found('1587564440904')).toEqual(['req_catalog_both']);
    expect(await found('24157 5181 0101')).toEqual(['req_renap']);
    expect(await found('39525503')).toEqual(['req_batch']);
    expect(await found('76937K')).toEqual([]);
  });

  it('gives the console and the CLI the identifiers as sent, and the error text without them', async () => {
    const [batch] = (await listRecordsPage({ identificador: '7108-0' })).rows;
    expect(batch?.nit).toBe('7108-0,576937-k,39525503');
    const failed = (await listRecordsPage({ identificador: '576937K' })).rows.find((row) => row.requestId === 'req_catalog_failed')!;
    const detail = await findRecordDetail(failed.id);
    expect(detail?.record.nit).toBe('0576937k');
    expect(detail?.record.errorMessage).toBe('catalog source answered HTTP 500: {"error":{"detalle":"NIT [identificador] sin datos; ver [identificador]"}}');
    // An administrator's export with identifiers in full decrypts them; the default export masks them.
    const csv = await new Response(recordsCsvStream({ identificador: '1587 56444 0904' }, 100, (error) => void error, { identifiers: 'full' })).text();
    expect(csv).toContain(',576937-K,1587 56444 0904,');
    const masked = await new Response(recordsCsvStream({ identificador: '1587 56444 0904' }, 100, (error) => void error)).text();
    expect(masked).toContain(',5769••-K,1587 •••• 0904,');
  });
});

// Every sealed value of a bulk job's items and of the watch lists' entries and changes.
async function bulkAndWatchSealed(): Promise<string[]> {
  const handle = await database();
  const rows = await handle.rows<{ value: string | null }>(sql`
    select identifier_sealed as value from bulk_job_items union all select result_sealed from bulk_job_items
    union all select identifier_sealed from watch_list_entries union all select snapshot_sealed from watch_list_entries
    union all select before_sealed from watch_list_changes union all select after_sealed from watch_list_changes`);
  return rows
    .map((row) => row.value)
    .filter((value) => value !== null)
    .sort();
}

async function resultsOf(publicId: string): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for await (const row of (await jobResults(integration.id, publicId))!) rows.push(row);
  return rows;
}

describe('records the previous release wrote in clear, and key rotation', () => {
  const previousRelease = ['req_old_catalog', 'req_old_batch', 'req_old_error'];

  beforeAll(async () => {
    const handle = await database();
    // What the release before encryption stored: identifiers as sent, search keys normalized in SQL.
    await handle.rows(sql`
      insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, error_message, request_id) values
        (${integration.id}, 'cui_nit', 200, 10, '576937-K', '1587 56444 0904', null, 'req_old_catalog'),
        (${integration.id}, 'rtu_nits', 200, 10, '39525503,576937-k', null, null, 'req_old_batch'),
        (${integration.id}, 'renap', 500, 10, null, '2415751810101', 'person registry answered HTTP 500: CUI 2415751810101 y 8832114', 'req_old_error')`);
    await handle.rows(sql`
      insert into query_record_identifiers (record_id, identifier, created_at)
      select distinct r.id, normalize_tax_identifier(sent.identifier), r.created_at
        from query_records r
       cross join lateral unnest(case when r.lookup = 'rtu_nits' then string_to_array(r.nit, ',') else array[r.nit, r.cui] end) as sent(identifier)
       where r.request_id like 'req_old_%' and normalize_tax_identifier(sent.identifier) is not null`);
    await handle.rows(sql`update personal_data_state set clear_records_remain = true where id = 1`);
    forgetPersonalDataState();
  });

  it('finds clear and sealed records alike until the reseal has finished, then holds none in clear', async () => {
    expect(await found('576937-k')).toEqual(['req_batch', 'req_catalog_both', 'req_catalog_failed', 'req_old_batch', 'req_old_catalog']);
    expect(await storedText()).toContain('1587 56444 0904');

    // Interrupted after one batch of two records: search still finds everything; the next run resumes.
    const first = await resealRecords({ batchRows: 2, maxBatches: 1 });
    expect(first).toMatchObject({ complete: false, scanned: 2 });
    expect(await found('576937-k')).toEqual(['req_batch', 'req_catalog_both', 'req_catalog_failed', 'req_old_batch', 'req_old_catalog']);
    const rest = await resealRecords({ batchRows: 2 });
    expect(rest).toMatchObject({ complete: true, resumedAfterId: first.afterId, resealed: previousRelease.length });

    expectNoIdentifierIn(await storedText());
    const [state] = await (await database()).rows<{ remain: boolean }>(sql`select clear_records_remain as remain from personal_data_state`);
    expect(state?.remain).toBe(false);
    forgetPersonalDataState();
    expect(await found('576937-k')).toEqual(['req_batch', 'req_catalog_both', 'req_catalog_failed', 'req_old_batch', 'req_old_catalog']);
    expect(await found('2415 75181 0101')).toEqual(['req_old_error', 'req_renap']);
    const old = (await listRecordsPage({ identificador: '2415751810101' })).rows.find((row) => row.requestId === 'req_old_error')!;
    expect(old.cui).toBe('2415751810101');
    expect(old.errorMessage).toBe('person registry answered HTTP 500: CUI [identificador] y [identificador]');
    // Nothing left to do: a second run changes nothing.
    expect(await resealRecords()).toMatchObject({ complete: true, resealed: 0 });
  });

  it('rotates both keys: search works during and after, and every record, bulk item and watch list ends under the new keys', async () => {
    const everyRecord = ['req_batch', 'req_catalog_both', 'req_catalog_failed', 'req_old_batch', 'req_old_catalog'];
    // Under the old key: a bulk job (one item answered) and a watch list with a baseline and a change.
    const job = await submitJob(integration.id, 'omisos', ['576937-K', '39525503'], 'reseal-bulk-job');
    if (job.kind !== 'created') throw new Error('the job is created');
    const handle = await database();
    await handle.rows(sql`
      update bulk_job_items set result_sealed = ${seal(JSON.stringify({ nit: '576937K', omiso: true }), 'bulk_result')}::text
       where position = 0 and job_id = (select id from bulk_jobs where public_id = ${job.publicId}::text)`);
    const watched = await createWatchList(integration.id, { name: 'Rotación', catalog: 'omisos', schedule: 'mensual', nits: ['576937-K'] });
    if (watched.kind !== 'created') throw new Error('the watch list is created');
    const watchListId = sql`(select id from watch_lists where public_id = ${watched.list.publicId}::text)`;
    await handle.rows(sql`
      update watch_list_entries set snapshot_sealed = ${seal(JSON.stringify({ registro: 'encontrado', omiso: true, cobro_coactivo: null, estado_rtu: null }), 'watch_snapshot')}::text
       where watch_list_id = ${watchListId}`);
    await handle.rows(sql`
      insert into watch_list_changes (watch_list_id, run, position, kind, job_public_id, before_sealed, after_sealed)
      values (${watchListId}, 2, 0, 'omiso', ${job.publicId}::text, ${seal('false', 'watch_snapshot')}::text, ${seal('true', 'watch_snapshot')}::text)`);
    const webhookSecret = 'whsec_rotation-test';
    await handle.rows(sql`update integrations set notification_webhook_url = 'https://example.test/hook', notification_webhook_secret_sealed = ${seal(webhookSecret, 'webhook_secret')}::text where id = ${integration.id}::integer`);
    const resultsBefore = await resultsOf(job.publicId);
    expect(resultsBefore.map((row) => [row.identificador, row.datos])).toEqual([
      ['576937-K', { nit: '576937K', omiso: true }],
      ['39525503', null],
    ]);
    const changesBefore = await listWatchListChanges(integration.id, watched.list.publicId);
    expect(changesBefore).toMatchObject({ changes: [{ nit: '576937-K', kind: 'omiso', before: false, after: true }] });
    const oldKeyId = personalDataKeys().encryption.id;
    for (const value of await bulkAndWatchSealed()) expect(sealedKeyId(value)).toBe(oldKeyId);

    const newKeys = { PERSONAL_DATA_KEY: randomBytes(32).toString('base64'), PERSONAL_DATA_SEARCH_KEY: randomBytes(32).toString('base64') };
    useKeys({
      ...newKeys,
      PERSONAL_DATA_PREVIOUS_KEYS: TEST_PERSONAL_DATA_KEYS.PERSONAL_DATA_KEY,
      PERSONAL_DATA_PREVIOUS_SEARCH_KEYS: TEST_PERSONAL_DATA_KEYS.PERSONAL_DATA_SEARCH_KEY,
    });
    const { encryption, search } = personalDataKeys();
    expect(await found('576937K')).toEqual(everyRecord);
    await recordUnbilledQuery({ integrationId: integration.id, lookup: 'renap', httpStatus: 200, responseTimeMs: 9, nit: null, cui: '1587564440904', errorMessage: null, requestId: 'req_during_rotation' });

    expect(await resealRecords({ batchRows: 3, maxBatches: 1 })).toMatchObject({ complete: false });
    expect(await found('576937K')).toEqual(everyRecord);
    expect(await found('1587 56444 0904')).toEqual(['req_catalog_both', 'req_during_rotation', 'req_old_catalog']);
    const done = await resealRecords({ batchRows: 3 });
    expect(done).toMatchObject({ complete: true, tables: { bulk_job_items: 2, watch_list_entries: 1, watch_list_changes: 1, integrations: 1 } });
    for (const value of await bulkAndWatchSealed()) expect(sealedKeyId(value)).toBe(encryption.id);
    // Run again: nothing left under the old key, and what is already under the new one is not rewritten.
    const resealedOnce = await bulkAndWatchSealed();
    expect(await resealRecords({ batchRows: 3 })).toMatchObject({ complete: true, resealed: 0, tables: { bulk_job_items: 0, watch_list_entries: 0, watch_list_changes: 0, integrations: 0 } });
    expect(await bulkAndWatchSealed()).toEqual(resealedOnce);

    const records = await handle.rows<{ nit: string | null; cui: string | null }>(sql`select nit, cui from query_records`);
    for (const value of records.flatMap((record) => [record.nit, record.cui]).filter((value) => value !== null)) expect(sealedKeyId(value)).toBe(encryption.id);
    const keys = await handle.rows<{ identifier: string }>(sql`select identifier from query_record_identifiers`);
    expect(keys.length).toBeGreaterThan(0);
    for (const { identifier } of keys) expect(searchKeyId(identifier)).toBe(search.id);
    expectNoIdentifierIn(await storedText());

    // The previous keys removed: everything still reads and is found.
    useKeys(newKeys);
    expect(await found('576937-K')).toEqual(everyRecord);
    expect(await found('1587 56444 0904')).toEqual(['req_catalog_both', 'req_during_rotation', 'req_old_catalog']);
    const [batch] = (await listRecordsPage({ identificador: '7108-0' })).rows;
    expect(batch?.nit).toBe('7108-0,576937-k,39525503');
    // The job's results and the list's changes (GET /api/vigilancias/{id}/cambios) open with the new key alone.
    expect(await resultsOf(job.publicId)).toEqual(resultsBefore);
    expect(await listWatchListChanges(integration.id, watched.list.publicId)).toEqual(changesBefore);
    const [snapshot] = await handle.rows<{ snapshot_sealed: string }>(sql`select snapshot_sealed from watch_list_entries where watch_list_id = ${watchListId}`);
    expect(JSON.parse(open(snapshot!.snapshot_sealed, 'watch_snapshot'))).toMatchObject({ registro: 'encontrado', omiso: true });
    const [webhook] = await handle.rows<{ sealed: string }>(sql`select notification_webhook_secret_sealed as sealed from integrations where id = ${integration.id}::integer`);
    expect(open(webhook!.sealed, 'webhook_secret')).toBe(webhookSecret);
  });
});
