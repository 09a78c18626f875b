// The schema as migrations build it, on whichever database this run uses: embedded PGlite by
// default, PostgreSQL 15 when the run was given DATABASE_URL (CI runs both).
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { database, type DatabaseHandle } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { alertDeliveries, alertDeliveryAttempts, integrations, ledgerEntries } from '@/db/schema';
import { describeWebhookUrl, withoutUrlSecrets } from '@/lib/platform/security/outbound-urls';
import { runCli } from '../support/cli';
import { depositDaysAgo, shownDay } from '../support/deposit-dates';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

const expectedKind = inject('adminDatabaseUrl') ? 'postgres' : 'pglite';
const journal = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'db/migrations/meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  // Migrated here by the app's applyMigrations(), not copied from the run's migrated template.
  testDb = await useTestDatabase({ fromScratch: true });
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
    .values({ nombre: `schema-test-${seq}`, ...overrides })
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
        // request_id is unique per month: an index on each month's partition (db/migrations/0066).
        `query_records_${new Date().toISOString().slice(0, 7).replace('-', '_')}_request_id_unique`,
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

describe(`migration 0006 on ${expectedKind}`, () => {
  // Run again over rows as versions before it wrote them: whole webhook URLs as targets, and fetch's
  // error quoting one. Its SQL must give what lib/platform/security/outbound-urls.ts gives new rows.
  const urls = [
    'https://hooks.slack.com/services/T0123ABCD/B0456EFGH/XyZ0aBcDeFgHiJkLmNoPqRsT',
    'https://discord.com/api/webhooks/112233445566778899/AbCdEf-gHiJkLmNoP_qRsTuV',
    'https://alertas.example.gt/hook?token=s3cr3t-t0ken-value',
    'https://alertas.example.gt/hook/mysecrettoken',
    'https://usuario:clave-secreta@Alertas.Example.gt:8443/recibir/',
    'https://alertas.example.gt:443/api/alertas#fragmento-secreto',
    'http://127.0.0.1:9000/alertas',
    'https://alertas.example.gt/',
    'https://alertas.example.gt',
    'https://hooks.slack.com/services/…',
  ];

  it('rewrites stored webhook URLs and the errors quoting them to their descriptions, and leaves e-mail targets alone', async () => {
    const migration = fs.readFileSync(path.join(process.cwd(), 'db/migrations/0006_alert_targets_without_secrets.sql'), 'utf8');
    const error = (url: string) => `Request cannot be constructed from a URL that includes credentials: ${url} ← y otra vez "${url}"`;
    const rows = await handle.db
      .insert(alertDeliveries)
      .values([
        ...urls.map((url) => ({ alertId: `alr_migration_${url}`, condition: 'breaker_open' as const, channel: 'webhook' as const, target: url, payload: '{}', lastError: error(url) })),
        { alertId: 'alr_migration_email', condition: 'breaker_open' as const, channel: 'email' as const, target: 'ana@example.gt, luis@example.gt', payload: '{}', lastError: 'Invalid login: 535 5.7.8' },
      ])
      .returning();
    await handle.db.insert(alertDeliveryAttempts).values(rows.map((row) => ({ deliveryId: row.id, attempt: 1, error: row.lastError, durationMs: 1 })));

    for (const statement of migration.split('--> statement-breakpoint')) await handle.db.execute(sql.raw(statement));

    const ids = rows.map((row) => row.id);
    const after = await handle.rows<{ target: string; last_error: string; error: string }>(
      sql`select d.target, d.last_error, a.error from alert_deliveries d join alert_delivery_attempts a on a.delivery_id = d.id where d.id in ${ids} order by d.id`,
    );
    expect(after.map((row) => row.target)).toEqual([...urls.map((url) => describeWebhookUrl(url)), 'ana@example.gt, luis@example.gt']);
    const expectedErrors = [...urls.map((url) => withoutUrlSecrets(error(url))), 'Invalid login: 535 5.7.8'];
    expect(after.map((row) => row.last_error)).toEqual(expectedErrors);
    expect(after.map((row) => row.error)).toEqual(expectedErrors);
    for (const secret of ['XyZ0aBcDeFgHiJkLmNoPqRsT', 'AbCdEf-gHiJkLmNoP_qRsTuV', 's3cr3t-t0ken-value', 'mysecrettoken', 'clave-secreta', 'fragmento-secreto']) {
      expect(JSON.stringify(after)).not.toContain(secret);
    }
    // The functions it used are gone again.
    expect(await handle.rows(sql`select proname from pg_proc where proname in ('alert_webhook_description', 'alert_error_without_urls')`)).toEqual([]);
  });
});

describe(`migration 0008 on ${expectedKind}`, () => {
  it('moves each integration\'s single token into integration_tokens unchanged, so the token keeps working (issue 22)', async () => {
    const migration = fs.readFileSync(path.join(process.cwd(), 'db/migrations/0008_integration_tokens.sql'), 'utf8');
    const rolledBack = new Error('rolled back on purpose');
    let moved: Array<{ nombre: string; label: string; token_hash: string; token_prefix: string; revoked_at: unknown; expires_at: unknown }> = [];
    let columnsLeft: unknown[] = [];
    // The schema as it was before 0008 (each integration with its own token), in a transaction
    // rolled back afterwards (DDL is transactional).
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`drop table integration_tokens`);
        await tx.execute(sql`alter table integrations add column token_hash text, add column token_prefix text`);
        await tx.execute(sql`update integrations set token_hash = md5(id::text) || md5(nombre), token_prefix = 'tlk_' || left(md5(id::text), 6)`);
        await tx.execute(sql`insert into integrations (nombre, token_hash, token_prefix) values ('before-0008', ${'a1'.repeat(32)}, 'tlk_a1a1a1')`);
        for (const statement of migration.split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
        const rows: unknown = await tx.execute(sql`
          select i.nombre, t.label, t.token_hash, t.token_prefix, t.revoked_at, t.expires_at
            from integration_tokens t join integrations i on i.id = t.integration_id where i.nombre = 'before-0008'`);
        moved = resultRows(rows) as typeof moved;
        const columns: unknown = await tx.execute(sql`select column_name from information_schema.columns where table_name = 'integrations' and column_name like 'token%'`);
        columnsLeft = resultRows(columns);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(moved).toEqual([{ nombre: 'before-0008', label: 'Principal', token_hash: 'a1'.repeat(32), token_prefix: 'tlk_a1a1a1', revoked_at: null, expires_at: null }]);
    expect(columnsLeft).toEqual([]);
  });
});

describe(`migration 0046 on ${expectedKind}`, () => {
  it('keys the reports of before by letters and digits without failing on those that now collide, refuses a new one of them, and `top-ups:duplicates` lists them', async () => {
    const migration = fs.readFileSync(path.join(process.cwd(), 'db/migrations/0046_top_up_reference_keys.sql'), 'utf8');
    const [integration] = await newIntegration({ nombre: 'recargas-0046', balanceCentavos: 25_000 });
    const deposited = depositDaysAgo(5);
    // The table as the release before wrote it (references keyed trimmed, upper case, without
    // spaces), with reports that were three apart then and are one deposit now; then 0046, committed.
    const ids = await handle.db.transaction(async (tx) => {
      await tx.execute(sql`drop index top_up_requests_bank_reference_key_unique`);
      await tx.execute(sql`drop index top_up_requests_legacy_duplicate_idx`);
      await tx.execute(sql`alter table top_up_requests drop column reference_key, drop column legacy_duplicate, alter column normalized_reference set not null`);
      await tx.execute(sql`create unique index top_up_requests_bank_reference_unique on top_up_requests (bank, normalized_reference) where state <> 'rejected'`);
      const [person] = resultRows(
        await tx.execute(sql`insert into portal_users (integration_id, email, name, role, password_hash) values (${integration!.id}, 'pagos@recargas-0046.gt', 'Pagos', 'facturacion', 'x') returning id`),
      ) as Array<{ id: number }>;
      const [entry] = resultRows(
        await tx.execute(sql`insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor) values (${integration!.id}, 'top_up', 25000, 25000, 'test') returning id`),
      ) as Array<{ id: number | string }>;
      const report = async (bank: string, reference: string, state: 'pending' | 'approved' | 'rejected' = 'pending') => {
        const decided = state === 'pending' ? sql`null` : sql`now()`;
        const [row] = resultRows(
          await tx.execute(sql`
            insert into top_up_requests (integration_id, reported_by, bank, reference, normalized_reference, deposit_date, amount_centavos, state, reason, decided_at, ledger_entry_id)
            values (${integration!.id}, ${person!.id}, ${bank}, ${reference}, ${reference.toUpperCase().replace(/\s+/g, '')}, ${deposited}, 25000, ${state},
                    ${state === 'rejected' ? 'No aparece en el banco.' : null}, ${decided}, ${state === 'approved' ? Number(entry!.id) : null})
            returning id`),
        ) as Array<{ id: number }>;
        return row!.id;
      };
      const reported = {
        pending: await report('BI', 'DUP-777'),
        approved: await report('BI', 'DUP777', 'approved'),
        spaced: await report('BI', 'dup.7 77'),
        rejected: await report('BI', 'DUP 777', 'rejected'),
        otherBank: await report('BAM', 'DUP-777'),
        alone: await report('BI', 'OTRA-1'),
      };
      for (const statement of migration.split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
      return reported;
    });

    const rows = await handle.rows<{ id: number; reference_key: string; legacy_duplicate: boolean }>(
      sql`select id, reference_key, legacy_duplicate from top_up_requests where integration_id = ${integration!.id} order by id`,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(rows.map((row) => row.reference_key)).toEqual(['DUP777', 'DUP777', 'DUP777', 'DUP777', 'DUP777', 'OTRA1']);
    // The approved one keeps the key (it can no longer be rejected); the other pending ones are set apart.
    expect([ids.pending, ids.approved, ids.spaced, ids.rejected, ids.otherBank, ids.alone].map((id) => byId.get(id)!.legacy_duplicate)).toEqual([true, false, true, false, false, false]);

    const again = (bank: string, reference: string) =>
      handle.rows(sql`insert into top_up_requests (integration_id, reported_by, bank, reference, deposit_date, amount_centavos)
                      select integration_id, reported_by, ${bank}, ${reference}, deposit_date, 100 from top_up_requests where id = ${ids.alone}`);
    expect((await failureOf(again('BI', 'Dup 777'))).code).toBe('23505');
    expect((await failureOf(again('BAM', 'dup777'))).code).toBe('23505');
    expect((await failureOf(again('BI', 'otra.1'))).code).toBe('23505');

    const check = await runCli(['top-ups:duplicates'], testDb.env);
    expect(check.code, check.stderr).toBe(1);
    const lines = check.stdout.trim().split('\n');
    expect(lines[0]).toBe('1 grupo de solicitudes de recarga comparte banco y referencia (comparadas por sus letras y números):');
    expect(lines[1]).toBe('Banco Industrial, referencia DUP777: 3 solicitudes');
    expect(lines.slice(2, 5).map((line) => /^ {2}#(\d+) recargas-0046 · Q 250\.00 · Banco Industrial referencia (.+) del (\S+) · ([^·]+) ·/.exec(line)?.slice(1))).toEqual([
      [String(ids.pending), 'DUP-777', shownDay(deposited), 'Pendiente de revisión'],
      [String(ids.approved), 'DUP777', shownDay(deposited), 'Acreditada'],
      [String(ids.spaced), 'dup.7 77', shownDay(deposited), 'Pendiente de revisión'],
    ]);
    expect(check.stdout).not.toContain(`#${ids.rejected} `);
    expect(check.stdout).not.toContain(`#${ids.otherBank} `);
    const listed = await runCli(['top-ups:duplicates', '--json'], testDb.env);
    expect(listed.json<Array<{ bank: string; key: string; requests: Array<{ id: number; reference: string; state: string; amountCentavos: number; depositDate: string }> }>>()).toEqual([
      {
        bank: 'BI',
        bankName: 'Banco Industrial',
        key: 'DUP777',
        requests: [
          expect.objectContaining({ id: ids.pending, reference: 'DUP-777', state: 'pending', amountCentavos: 25_000, depositDate: deposited, integrationName: 'recargas-0046' }),
          expect.objectContaining({ id: ids.approved, reference: 'DUP777', state: 'approved' }),
          expect.objectContaining({ id: ids.spaced, reference: 'dup.7 77', state: 'pending' }),
        ],
      },
    ]);
  });
});

/** The rows of a raw statement, whichever driver ran it (PGlite wraps them in `rows`). */
function resultRows(result: unknown): unknown[] {
  return Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
}
