// Issue 24, defect 15: "Saldo bajo" meant fewer than 100 queries on the Panel but a quetzal
// threshold in the alerts. The Panel now lists what the alerts would call low or exhausted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { allSettings as env } from '@/lib/root/settings';
import { createTestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { lowBalanceIntegrations } from './usage';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

describe('the Panel\'s low balances', () => {
  it('follow the alert thresholds: the integration\'s own, else the default, and exhausted first', async () => {
    const defaultCentavos = env().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS;
    // Covers 200 queries (not low by the old rule of 100) but is below the default threshold.
    const belowDefault = await createTestIntegration('bajo-umbral-predeterminado', { tariffCentavos: 10, balanceCentavos: defaultCentavos / 5 });
    // Covers 50 queries (low by the old rule) but its own threshold is lower: not low.
    const ownLower = await createTestIntegration('umbral-propio-bajo', { tariffCentavos: 100, balanceCentavos: 5_000 });
    // Its own threshold is above its balance: low.
    const ownHigher = await createTestIntegration('umbral-propio-alto', { tariffCentavos: 100, balanceCentavos: 500_000 });
    const exhausted = await createTestIntegration('agotada', { tariffCentavos: 150, balanceCentavos: 100 });
    const handle = await database();
    await handle.rows(sql`update integrations set low_balance_alert_centavos = 1000 where id = ${ownLower.id}::integer`);
    await handle.rows(sql`update integrations set low_balance_alert_centavos = 600000 where id = ${ownHigher.id}::integer`);

    const listed = await lowBalanceIntegrations();
    const mine = listed.filter((row) => [belowDefault.id, ownLower.id, ownHigher.id, exhausted.id].includes(row.id));
    expect(mine.map((row) => [row.nombre, row.thresholdCentavos, row.exhausted])).toEqual([
      ['agotada', defaultCentavos, true],
      ['bajo-umbral-predeterminado', defaultCentavos, false],
      ['umbral-propio-alto', 600_000, false],
    ]);
  });
});
