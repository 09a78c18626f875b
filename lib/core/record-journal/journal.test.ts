// The journal of query records the database did not take: what is on disk, in which order, what a
// crash mid-write leaves, and how a replay writes, waits or sets aside.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openNullable } from '@/lib/core/sealing/envelope';
import { resetEnvCache } from '@/tests/support/test-database';
import { TEST_PERSONAL_DATA_KEYS } from '@/tests/support/personal-data-keys';
import { databaseWasUnreachable, RecordJournal, requestIdOf, type JournalEntry } from './index';
import { JournalFile } from './journal';

// Entries are sealed with the personal-data keys: the test's, not development ones under .data/.
Object.assign(process.env, TEST_PERSONAL_DATA_KEYS);
resetEnvCache();

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

function journalPath(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'record-journal-test-'));
  directories.push(directory);
  return path.join(directory, 'query-records.jsonl');
}

function entry(requestId: string): JournalEntry {
  return {
    kind: 'unbilled',
    record: { integrationId: 1, lookup: 'renap', httpStatus: 200, responseTimeMs: 5, nit: null, cui: '1587 56444 0904', errorMessage: null, requestId },
  };
}

describe('JournalFile', () => {
  it('has every kept entry on disk when keep resolves, in order, and drops only what was written', async () => {
    const file = journalPath();
    const journal = new JournalFile<JournalEntry>(file);
    expect(await journal.open()).toBe(0);
    await Promise.all(['a', 'b', 'c'].map((id) => journal.keep(entry(id))));
    expect(fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).record.requestId)).toEqual(['a', 'b', 'c']);
    expect(journal.pending).toBe(3);

    // Two were written to the database while a fourth was kept: the fourth stays.
    const kept = journal.keep(entry('d'));
    await journal.drop(2);
    await kept;
    expect((await journal.read()).map((each) => requestIdOf(each))).toEqual(['c', 'd']);
    expect(journal.pending).toBe(2);
    await journal.close();
  });

  it('finds what a previous process left, without the line a crash cut short', async () => {
    const file = journalPath();
    fs.writeFileSync(file, `${JSON.stringify(entry('left-1'))}\n${JSON.stringify(entry('left-2'))}\n{"kind":"unbil`);
    const journal = new JournalFile<JournalEntry>(file);
    expect(await journal.open()).toBe(2);
    await journal.keep(entry('next'));
    expect((await journal.read()).map((each) => requestIdOf(each))).toEqual(['left-1', 'left-2', 'next']);
    await journal.close();
  });
});

describe('RecordJournal', () => {
  async function journalWith(ids: string[], write: (entry: JournalEntry) => Promise<void>, reachable: () => Promise<boolean>) {
    const file = new JournalFile<JournalEntry>(journalPath());
    await file.open();
    const journal = new RecordJournal(file, write, reachable);
    for (const id of ids) await journal.keep(entry(id));
    return { file, journal };
  }

  it('writes the kept entries in order and keeps the rest when the database is still away', async () => {
    const written: string[] = [];
    let databaseUp = false;
    const { file, journal } = await journalWith(
      ['a', 'b'],
      async (each) => {
        if (!databaseUp) throw new Error('connect ECONNREFUSED');
        written.push(requestIdOf(each));
      },
      async () => databaseUp,
    );
    expect(await journal.replay()).toBe(0);
    expect(journal.pending).toBe(2);

    databaseUp = true;
    expect(await journal.replay()).toBe(2);
    expect(written).toEqual(['a', 'b']);
    expect(journal.pending).toBe(0);
    expect(await file.read()).toEqual([]);
  });

  // CI lost a record this way: the write failed to connect, the database came back a moment
  // later, and the entry was set aside as if the database had refused it.
  it('keeps an entry whose write failed to connect, even when the database answers by the time it is asked', async () => {
    const { file, journal } = await journalWith(
      ['a'],
      async () => {
        throw new Error('Failed query: insert into query_records …', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }) });
      },
      async () => true,
    );
    expect(await journal.replay()).toBe(0);
    expect(journal.pending).toBe(1);
    expect(fs.existsSync(`${file.file}.rejected`)).toBe(false);
  });

  it('sets aside an entry the database answers and refuses, instead of blocking the later ones', async () => {
    const written: string[] = [];
    const { file, journal } = await journalWith(
      ['a', 'refused', 'c'],
      async (each) => {
        if (requestIdOf(each) === 'refused') throw new Error('value too long for type character varying(64)');
        written.push(requestIdOf(each));
      },
      async () => true,
    );
    expect(await journal.replay()).toBe(3);
    expect(written).toEqual(['a', 'c']);
    const rejected = fs.readFileSync(`${file.file}.rejected`, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(rejected).toEqual([
      { entry: { kind: 'unbilled', record: expect.objectContaining({ requestId: 'refused', sealed: true }) }, error: expect.stringContaining('value too long') },
    ]);
  });

  it('keeps records sealed on disk: no NIT or CUI in clear, and the replay writes them as the lookup would have', async () => {
    const written: JournalEntry[] = [];
    const { file, journal } = await journalWith(['sealed'], async (each) => void written.push(each), async () => true);
    const onDisk = fs.readFileSync(file.file, 'utf8');
    expect(onDisk).toContain('"requestId":"sealed"');
    expect(onDisk).not.toMatch(/1587564440904|1587 56444 0904/);
    expect(await journal.replay()).toBe(1);
    expect(openNullable((written[0] as Extract<JournalEntry, { kind: 'unbilled' }>).record.cui, 'cui')).toBe('1587 56444 0904');
  });
});

describe('databaseWasUnreachable', () => {
  /** drizzle wraps a driver's error as the cause of its "Failed query" error. */
  const failedQuery = (cause: Error & { code?: string }) => new Error('Failed query: insert into query_records …', { cause });
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('keeps a record when the connection failed, and not when the database refused the statement', () => {
    expect(databaseWasUnreachable(failedQuery(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')))).toBe(true);
    expect(databaseWasUnreachable(failedQuery(withCode('write CONNECTION_CLOSED', 'CONNECTION_CLOSED')))).toBe(true);
    expect(databaseWasUnreachable(failedQuery(withCode('terminating connection due to administrator command', '57P01')))).toBe(true);
    expect(databaseWasUnreachable(failedQuery(withCode('connection failure', '08006')))).toBe(true);
    expect(databaseWasUnreachable(failedQuery(withCode('duplicate key value violates unique constraint', '23505')))).toBe(false);
    expect(databaseWasUnreachable(failedQuery(withCode('inserts refused by the test', 'P0001')))).toBe(false);
    expect(databaseWasUnreachable(new Error('something else'))).toBe(false);
  });
});
