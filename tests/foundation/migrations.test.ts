// The schema as migrations build it, on whichever database this run uses: embedded PGlite by
// default, PostgreSQL 15 when the run was given DATABASE_URL (CI runs both).
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { database, type DatabaseHandle } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { integrations, ledgerEntries } from '@/db/schema';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

const expectedKind = inject('adminDatabaseUrl') ? 'postgres' : 'pglite';
const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'db/migrations/meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await useTestDatabase();
  // Open for the whole file: no other process uses this database.
  handle = await database();
});

afterAll(async () => {
  await testDb?.cleanup();
});

async function appliedMigrations(): Promise<number> {
  const [row] = await handle.rows<{ count: number | string }>(sql`select count(*) as count from drizzle.__drizzle_migrations`);
  return Number(row!.count);
}

/** The SQLSTATE of a failed statement, whichever driver (and drizzle wrapper) reported it. */
async function failureOf(statement: Promise<unknown>): Promise<{ code?: string; text: string }> {
  try {
    await statement;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = (error as { code?: string }).code ?? cause?.code;
    return { code, text: `${(error as Error).message} ${cause?.message ?? ''}` };
  }
  throw new Error('expected the statement to fail');
}

let seq = 0;
function newIntegration(overrides: Partial<typeof integrations.$inferInsert> = {}) {
  seq++;
  return handle.db
    .insert(integrations)
    .values({ nombre: `schema-test-${seq}`, tokenHash: 'f'.repeat(64), tokenPrefix: 'tlk_abcdef', ...overrides })
    .returning();
}

describe(`migrations on ${expectedKind}`, () => {
  it('apply every migration of the journal on this database kind', async () => {
    expect(handle.kind).toBe(expectedKind);
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(await appliedMigrations()).toBe(journal.entries.length);
  });

  it('are idempotent: applying them again changes nothing and keeps the data', async () => {
    const [row] = await newIntegration();
    await applyMigrations(handle);
    await applyMigrations(handle);
    expect(await appliedMigrations()).toBe(journal.entries.length);
    const [kept] = await handle.rows<{ nombre: string }>(sql`select nombre from integrations where id = ${row!.id}`);
    expect(kept?.nombre).toBe(row!.nombre);
  });

  it('create the tables', async () => {
    const rows = await handle.rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(['integrations', 'ledger_entries', 'query_records', 'console_users', 'audit_log']),
    );
  });

  it('create the indexes the console and the billing path rely on', async () => {
    const rows = await handle.rows<{ indexname: string }>(sql`select indexname from pg_indexes where schemaname = 'public'`);
    expect(rows.map((row) => row.indexname)).toEqual(
      expect.arrayContaining([
        'integrations_nombre_lower_unique',
        'ledger_entries_posted_idx',
        'ledger_entries_kind_idx',
        'ledger_entries_hold_settled_once',
        'ledger_open_holds_pkey',
        'query_records_request_id_unique',
        'query_records_created_idx',
        'query_records_integration_created_idx',
        'query_records_lookup_created_idx',
        'query_records_status_created_idx',
        'query_record_identifiers_search_idx',
        'query_hourly_rollups_pkey',
        'query_hourly_rollups_by_integration_pkey',
        'query_daily_rollups_pkey',
        'query_daily_rollups_by_integration_pkey',
        'refusal_rollups_pkey',
        'refusal_rollups_by_integration_pkey',
        'console_users_email_lower_unique',
        'audit_log_created_idx',
        'audit_log_target_idx',
      ]),
    );
  });
});

describe(`constraints on ${expectedKind}`, () => {
  it('refuse a negative balance, on insert and on update', async () => {
    const inserted = await failureOf(newIntegration({ balanceCentavos: -1 }));
    expect(inserted.code).toBe('23514');
    expect(inserted.text).toContain('integrations_balance_non_negative');

    const [row] = await newIntegration({ balanceCentavos: 500 });
    const updated = await failureOf(handle.rows(sql`update integrations set balance_centavos = balance_centavos - 501 where id = ${row!.id}`));
    expect(updated.code).toBe('23514');
    const [after] = await handle.rows<{ balance: string | number }>(sql`select balance_centavos as balance from integrations where id = ${row!.id}`);
    expect(Number(after!.balance)).toBe(500);
  });

  it('refuse a negative tariff', async () => {
    const failure = await failureOf(newIntegration({ tariffCentavos: -150 }));
    expect(failure.code).toBe('23514');
    expect(failure.text).toContain('integrations_tariff_non_negative');
  });

  it('refuse two integrations whose names differ only in case (the login header is matched lowercased)', async () => {
    await newIntegration({ nombre: 'Banco-Ejemplo' });
    const failure = await failureOf(newIntegration({ nombre: 'banco-ejemplo' }));
    expect(failure.code).toBe('23505');
  });

  it('refuse two console users whose e-mails differ only in case', async () => {
    const insertUser = (email: string) =>
      handle.rows(sql`insert into console_users (email, name, password_hash, role) values (${email}, 'Ana', 'x', 'admin')`);
    await insertUser('ana@example.com');
    expect((await failureOf(insertUser('ANA@example.com'))).code).toBe('23505');
  });

  it('let a hold be settled only once', async () => {
    const [integration] = await newIntegration({ balanceCentavos: 1_000 });
    const [hold] = await handle.db
      .insert(ledgerEntries)
      .values({ integrationId: integration!.id, kind: 'hold', amountCentavos: -150, postedCentavos: 0, actor: 'test', requestId: 'req_hold' })
      .returning();
    const settle = (kind: 'capture' | 'void') =>
      handle.db
        .insert(ledgerEntries)
        .values({ integrationId: integration!.id, kind, amountCentavos: kind === 'void' ? 150 : 0, postedCentavos: kind === 'void' ? 0 : -150, actor: 'test', holdId: hold!.id });
    await settle('capture');
    expect((await failureOf(settle('void'))).code).toBe('23505');
  });
});
