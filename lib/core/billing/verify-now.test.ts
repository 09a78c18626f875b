// "Verificar ahora": a run's row exists from its start and moves step by step to its verdict, the
// start answers before the run ends, a second start while one runs (on this instance or another)
// gets the running one instead of a second run, the start is audited, and a run whose process
// stopped reads as interrupted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import type { LedgerVerification } from '@/db/schema';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { beginVerification, INTERRUPTED_AFTER_MS, VERIFICATION_STEPS, verificationState, verifyLedger } from './verify';
import { findTypedIntegration as integrationForVerification } from '@/lib/surfaces/console/integrations';
import { CONSOLE_VERIFICATION_LEASE, startVerificationNow } from './verify-now';

let testDatabase: TestDatabase;
let integration: TestIntegration;
const ACTOR = { kind: 'user', id: 41, email: 'soporte@example.com' } as const;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('verify-now', { tariffCentavos: 100, balanceCentavos: 1_000 });
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function run(id: number): Promise<LedgerVerification> {
  const [row] = await (await database()).rows<Record<string, unknown>>(sql`select * from ledger_verifications where id = ${id}::bigint`);
  return {
    ...row,
    id: Number(row!.id),
    startedAt: new Date(row!.started_at as string),
    finishedAt: row!.finished_at ? new Date(row!.finished_at as string) : null,
    heartbeatAt: row!.heartbeat_at ? new Date(row!.heartbeat_at as string) : null,
    stepsDone: row!.steps_done,
    stepsTotal: row!.steps_total,
    stepName: row!.step_name,
    ok: row!.ok,
    failure: row!.failure,
  } as LedgerVerification;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a reconciliation run', () => {
  it('exists from its start, at step 1 of n, and ends with every step done and its verdict', async () => {
    const begun = await beginVerification({ trigger: 'cli', integrationId: integration.id });
    expect(begun).toMatchObject({ scope: String(integration.id), finishedAt: null, ok: null, stepsDone: 0, stepsTotal: VERIFICATION_STEPS.length, stepName: VERIFICATION_STEPS[0] });
    expect(verificationState(begun)).toBe('running');
    const finished = await verifyLedger({ trigger: 'cli', integrationId: integration.id, sweepAfterSeconds: 60, runId: begun.id });
    expect(finished).toMatchObject({ id: begun.id, ok: true, stepsDone: VERIFICATION_STEPS.length, stepName: null, integrationsChecked: 1 });
    expect(verificationState(finished)).toBe('ok');
  });

  it('reads as interrupted once its process stopped saying it is alive', async () => {
    const begun = await beginVerification({ trigger: 'console' });
    const now = new Date(begun.heartbeatAt!.getTime() + INTERRUPTED_AFTER_MS + 1_000);
    expect(verificationState(begun, now)).toBe('interrupted');
    // Finished by hand so it does not look like a run under way to the next tests.
    await (await database()).rows(sql`update ledger_verifications set finished_at = now(), ok = true where id = ${begun.id}::bigint`);
  });
});

describe('startVerificationNow', () => {
  it('answers before the run ends, runs one at a time, and audits who started it', async () => {
    const first = await startVerificationNow(ACTOR, { integrationId: integration.id, sweepAfterSeconds: 60 });
    expect(first.started).toBe(true);
    expect(first.run).toMatchObject({ trigger: 'console', startedBy: 'user:41 soporte@example.com', finishedAt: null });
    // Asked again while it runs: the running one, not a second run.
    const second = await startVerificationNow(ACTOR, { sweepAfterSeconds: 60 });
    expect(second).toMatchObject({ started: false, run: { id: first.run!.id } });

    const finished = await until(() => run(first.run!.id), (row) => row.finishedAt !== null);
    expect(finished).toMatchObject({ ok: true, stepsDone: VERIFICATION_STEPS.length });
    const handle = await database();
    expect(await handle.rows(sql`select actor, action, target_type, target_id from audit_log where action = 'ledger.verify' order by id`)).toEqual([
      { actor: 'user:41 soporte@example.com', action: 'ledger.verify', target_type: 'integration', target_id: String(integration.id) },
    ]);
    const [runs] = await handle.rows<{ count: string | number }>(sql`select count(*) as count from ledger_verifications where trigger = 'console'`);
    expect(Number(runs!.count)).toBe(2);

    // Once it ended, the next start is a new run (over everything, audited as such).
    await until(() => startVerificationNow(ACTOR, { sweepAfterSeconds: 60 }), (start) => start.started).then(async (start) => {
      expect(start.started).toBe(true);
      await until(() => run(start.run!.id), (row) => row.finishedAt !== null);
    });
    const [last] = await handle.rows(sql`select target_type, target_id from audit_log where action = 'ledger.verify' order by id desc limit 1`);
    expect(last).toEqual({ target_type: 'ledger', target_id: 'all' });
  });

  it('does not start while another instance holds the lease, and does once it expired', async () => {
    const handle = await database();
    await handle.rows(sql`update job_leases set holder = 'other-host:1:abc', expires_at = now() + interval '1 minute' where name = ${CONSOLE_VERIFICATION_LEASE}::text`);
    expect((await startVerificationNow(ACTOR, { sweepAfterSeconds: 60 })).started).toBe(false);
    await handle.rows(sql`update job_leases set expires_at = now() - interval '1 second' where name = ${CONSOLE_VERIFICATION_LEASE}::text`);
    const start = await startVerificationNow(ACTOR, { sweepAfterSeconds: 60 });
    expect(start.started).toBe(true);
    await until(() => run(start.run!.id), (row) => row.finishedAt !== null);
  });

  it('finds the integration typed as its number, as offered, or by its exact name', async () => {
    expect(await integrationForVerification(String(integration.id))).toEqual({ id: integration.id, nombre: 'verify-now' });
    expect(await integrationForVerification(`verify-now (n.º ${integration.id})`)).toEqual({ id: integration.id, nombre: 'verify-now' });
    expect(await integrationForVerification('VERIFY-NOW')).toEqual({ id: integration.id, nombre: 'verify-now' });
    expect(await integrationForVerification('verify')).toBeUndefined();
  });
});
