// The certifier as a component, read from the calls every instance's worker recorded: up after an
// answered call, degraded after one or two unanswered, down from the third, refusing the
// credentials since the first refusal of the run, and what waits for it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { publishInvoicingDecision } from '@/lib/core/invoices/decision';
import { db } from '@/db/client';
import { createTestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { certifierHealth } from './health';

let testDatabase: TestDatabase;
let invoiceId: number;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  await publishInvoicingDecision(await db(), { FEL_ENABLED: true, FEL_ISSUER_AFFILIATION: 'GEN' }, 'test');
  const integration = await createTestIntegration('salud-certificador', { balanceCentavos: 10_000 });
  const [row] = await (await database()).rows<{ id: number }>(sql`select id from invoices where integration_id = ${integration.id}::integer`);
  invoiceId = Number(row!.id);
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function call(outcome: string, minutesAgo: number): Promise<void> {
  await (await database()).rows(sql`
    insert into invoice_attempts (invoice_id, call, certifier, outcome, holder, duration_ms, created_at)
    values (${invoiceId}::integer, 'certify', 'infile', ${outcome}, 'w', 10, now() - make_interval(mins => ${minutesAgo}::integer))`);
}

describe('the certifier’s health', () => {
  it('is idle before any call, with what waits for it', async () => {
    expect(await certifierHealth()).toMatchObject({ state: 'idle', since: null, waiting: 1 });
  });

  it('is degraded after one or two unanswered calls, down from the third, up again once one is answered', async () => {
    await call('certified', 60);
    expect((await certifierHealth()).state).toBe('up');
    await call('retry_later', 50);
    await call('indeterminate', 40);
    expect(await certifierHealth()).toMatchObject({ state: 'degraded' });
    await call('retry_later', 30);
    const down = await certifierHealth();
    expect(down.state).toBe('down');
    // Since the first unanswered call of the run.
    expect(Date.now() - down.since!.getTime()).toBeGreaterThan(49 * 60_000);
    await call('certified', 20);
    expect(await certifierHealth()).toMatchObject({ state: 'up', since: null });
  });

  it('refuses the credentials since the first refusal of the run', async () => {
    await call('credentials_refused', 10);
    await call('credentials_refused', 5);
    const refused = await certifierHealth();
    expect(refused.state).toBe('credentials_refused');
    expect(Math.round((Date.now() - refused.since!.getTime()) / 60_000)).toBe(10);
  });
});
