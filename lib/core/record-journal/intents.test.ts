// Issue 30, point 4, for the registries: a RENAP or RTU lookup notes its record before asking the
// source, so a process killed meanwhile leaves what a restart needs to record it as "resultado
// desconocido"; lookups that ended keep their own record, and the files do not grow.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { listLatestRecords } from '@/lib/core/records/list';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { completeLeftIntents, leftIntentFiles, RegistryIntentLog } from './intents';

const CUI = '1587 56444 0904';
let testDatabase: TestDatabase;
let integration: TestIntegration;
let directory: string;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('registry-intents', { tariffCentavos: 0, balanceCentavos: 0 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

function freshDirectory(): string {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-intents-'));
  return directory;
}

async function recordOf(requestId: string) {
  const [row] = await (await database()).rows<{ http_status: number; failure: unknown; cui: string | null; error_message: string | null }>(
    sql`select http_status, failure, cui, error_message from query_records where request_id = ${requestId}`,
  );
  if (!row) return undefined;
  return { ...row, failure: typeof row.failure === 'string' ? JSON.parse(row.failure) : row.failure };
}

describe('registry intents', () => {
  it('let a restart record, as an unknown outcome, the lookups a killed process left in flight, and only those', async () => {
    const log = new RegistryIntentLog(freshDirectory());
    const intent = (requestId: string) => ({ integrationId: integration.id, lookup: 'renap' as const, nit: null, cui: CUI, identifiers: [CUI], requestId });
    // One lookup ended and wrote its record; two were asking the registry when the process died.
    const ended = log.note(intent('req_intent_ended'));
    await recordUnbilledQuery({ ...intent('req_intent_ended'), httpStatus: 200, responseTimeMs: 40, errorMessage: null, answerEmpty: false });
    ended();
    log.note(intent('req_intent_killed_1'));
    log.note({ integrationId: integration.id, lookup: 'rtu_nits', nit: '576937K,7108-0', cui: null, identifiers: ['576937K', '7108-0'], requestId: 'req_intent_killed_2' });
    const [file] = leftIntentFiles(directory);
    // Sealed on disk like every record at rest.
    expect(fs.readFileSync(file!, 'utf8')).not.toMatch(/1587564440904|1587 56444 0904|576937K/);
    // The kill cut the last write short: that lookup had not asked the registry yet.
    fs.appendFileSync(file!, '{"sealed":true,"integrationId":');

    expect(await completeLeftIntents(file!)).toBe(3);
    expect(fs.existsSync(file!)).toBe(false);
    expect(await recordOf('req_intent_ended')).toMatchObject({ http_status: 200, failure: null });
    for (const requestId of ['req_intent_killed_1', 'req_intent_killed_2']) {
      expect(await recordOf(requestId)).toMatchObject({
        http_status: 500,
        failure: { kind: 'outcome_unknown' },
        error_message: 'outcome unknown: the instance ended before the lookup settled; not charged',
      });
    }
    expect((await recordOf('req_intent_killed_1'))!.cui).toMatch(/^pd1:/);
    // Found by the identifier, as the console's search and a person's report find records.
    const byNit = await listLatestRecords({ integracion: integration.id, identificador: '7108-0' }, 10);
    expect(byNit.map((record) => record.requestId)).toEqual(['req_intent_killed_2']);
  });

  it('starts a new file each minute and deletes the old one once its lookups have ended', async () => {
    let now = 1_000_000;
    const log = new RegistryIntentLog(freshDirectory(), () => now);
    const intent = (requestId: string) => ({ integrationId: integration.id, lookup: 'renap' as const, nit: null, cui: CUI, identifiers: [CUI], requestId });
    const first = log.note(intent('req_rotation_1'));
    log.note(intent('req_rotation_2'))();
    expect(leftIntentFiles(directory)).toHaveLength(1);

    now += 60_000;
    const second = log.note(intent('req_rotation_3'));
    // The first file waits for its lookup still asking the registry.
    expect(leftIntentFiles(directory)).toHaveLength(2);
    first();
    await expect.poll(() => leftIntentFiles(directory).length).toBe(1);

    // A quiet minute: the timer's rotation retires the file, deleted as its last lookup ends.
    now += 60_000;
    log.rotate();
    expect(leftIntentFiles(directory)).toHaveLength(1);
    second();
    await expect.poll(() => leftIntentFiles(directory).length).toBe(0);
  });
});
