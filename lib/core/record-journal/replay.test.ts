// A record kept in the journal while the database was away reaches query_records with everything
// the lookup knew (issue 24, defect 6): its failure as data, whether its 200 was empty, its
// `actualizado` and whether `date_of_birth` was sent; through both kinds of entry (a registry's
// record, a catalog's voided settlement), and an entry an older release kept (without them) as nulls.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { placeHold } from '@/lib/core/billing/holds';
import { sealRecord, type SealedQueryRecord } from '@/lib/core/records/sealed';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { RecordJournal, type JournalEntry } from './index';
import { JournalFile } from './journal';

let testDatabase: TestDatabase;
let integration: TestIntegration;
let directory: string;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('journal-facts', { tariffCentavos: 150, balanceCentavos: 10_000 });
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'record-journal-replay-'));
});

afterAll(async () => {
  fs.rmSync(directory, { recursive: true, force: true });
  await testDatabase?.cleanup();
});

async function storedFacts(requestId: string) {
  const [row] = await (await database()).rows<{ failure: unknown; answer_empty: boolean | null; actualizado: boolean | null; date_of_birth_sent: boolean | null; error_message: string | null }>(
    sql`select failure, answer_empty, actualizado, date_of_birth_sent, error_message from query_records where request_id = ${requestId}`,
  );
  // PGlite and postgres.js both parse jsonb; a driver that hands back text is read the same.
  return row ? { ...row, failure: typeof row.failure === 'string' ? JSON.parse(row.failure) : row.failure } : undefined;
}

describe('replaying the journal', () => {
  it('writes the failure, the empty answer and the catalog options the lookup kept', async () => {
    const file = new JournalFile<JournalEntry>(path.join(directory, 'query-records.jsonl'));
    await file.open();
    const journal = new RecordJournal(file);
    const hold = await placeHold(integration.id, 'req_journal_catalog');
    if (!hold) throw new Error('the balance covers the hold');
    await journal.keep({
      kind: 'voided_settlement',
      hold,
      record: {
        integrationId: integration.id,
        lookup: 'rtu',
        httpStatus: 500,
        responseTimeMs: 30,
        nit: '576937-K',
        cui: null,
        errorMessage: 'database unavailable at settlement: not charged, recorded later',
        failure: { kind: 'settlement_not_written' },
        answerEmpty: null,
        actualizado: true,
        dateOfBirthSent: true,
        requestId: 'req_journal_catalog',
      },
    });
    await journal.keep({
      kind: 'unbilled',
      record: {
        integrationId: integration.id,
        lookup: 'rtu_nits',
        httpStatus: 200,
        responseTimeMs: 12,
        nit: '7108-0',
        cui: null,
        errorMessage: null,
        failure: null,
        answerEmpty: true,
        requestId: 'req_journal_registry',
      },
    });
    // An entry a previous release kept: sealed, without the new facts.
    const older: Partial<SealedQueryRecord> = sealRecord({
      integrationId: integration.id,
      lookup: 'renap',
      httpStatus: 500,
      responseTimeMs: 9,
      nit: null,
      cui: '1587 56444 0904',
      errorMessage: 'person registry: no answer within 30000 ms',
      requestId: 'req_journal_older',
    });
    for (const fact of ['failure', 'answerEmpty', 'actualizado', 'dateOfBirthSent'] as const) delete older[fact];
    await journal.keep({ kind: 'unbilled', record: older as SealedQueryRecord });
    expect(fs.readFileSync(file.file, 'utf8')).toContain('"failure":{"kind":"settlement_not_written"}');

    expect(await journal.replay()).toBe(3);
    expect(await storedFacts('req_journal_catalog')).toMatchObject({ failure: { kind: 'settlement_not_written' }, answer_empty: null, actualizado: true, date_of_birth_sent: true });
    expect(await storedFacts('req_journal_registry')).toMatchObject({ failure: null, answer_empty: true, actualizado: null, date_of_birth_sent: null });
    expect(await storedFacts('req_journal_older')).toMatchObject({
      failure: null,
      answer_empty: null,
      actualizado: null,
      date_of_birth_sent: null,
      error_message: 'person registry: no answer within 30000 ms',
    });
    await file.close();
  });
});

describe('replaying an abandoned hold', () => {
  it('gives back the hold a lookup placed without confirmation and never sent, leaving no record', async () => {
    const file = new JournalFile<JournalEntry>(path.join(directory, 'abandoned.jsonl'));
    await file.open();
    const journal = new RecordJournal(file);
    const handle = await database();
    const balance = async () =>
      Number((await handle.rows<{ balance: string | number }>(sql`select balance_centavos as balance from integrations where id = ${integration.id}`))[0]!.balance);
    const before = await balance();
    // The database took the hold (and the record the sweeper would write) but the lookup never learnt it.
    const intent = {
      integrationId: integration.id,
      lookup: 'omisos' as const,
      httpStatus: 500,
      responseTimeMs: 0,
      nit: '576937-K',
      cui: null,
      errorMessage: 'outcome unknown',
      failure: { kind: 'outcome_unknown' as const },
      requestId: 'req_journal_abandoned',
    };
    expect(await placeHold(integration.id, 'req_journal_abandoned', intent)).not.toBeNull();
    expect(await balance()).toBe(before - 150);
    await journal.keep({ kind: 'abandoned_hold', integrationId: integration.id, requestId: 'req_journal_abandoned' });
    // And one whose statement never committed: nothing to give back.
    await journal.keep({ kind: 'abandoned_hold', integrationId: integration.id, requestId: 'req_journal_never_held' });

    expect(await journal.replay()).toBe(2);
    expect(await balance()).toBe(before);
    expect(await storedFacts('req_journal_abandoned')).toBeUndefined();
    const entries = await handle.rows<{ kind: string; amount_centavos: string | number; note: string | null; note_code: string | null }>(
      sql`select kind, amount_centavos, note, note_code from ledger_entries where request_id = ${'req_journal_abandoned'} order by id`,
    );
    expect(entries.map((entry) => [entry.kind, Number(entry.amount_centavos)])).toEqual([
      ['hold', -150],
      ['void', 150],
    ]);
    // Its row says why by code; lib/presentation/ledger-notes.ts words it ("…la consulta se detuvo antes de la fuente").
    expect([entries[1]!.note, entries[1]!.note_code]).toEqual([null, 'hold_abandoned']);
    const [open] = await handle.rows<{ count: string | number }>(
      sql`select count(*) as count from ledger_open_holds o join ledger_entries h on h.id = o.hold_id where h.request_id = ${'req_journal_abandoned'}`,
    );
    expect(Number(open!.count)).toBe(0);
    await file.close();
  });
});
