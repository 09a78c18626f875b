// Every query that reaches a source is recorded, a bulk item's too: an instance that dies while its
// item's lookup waits on the catalog source leaves a hold that keeps the record's intent, so the hold
// sweeper writes the query's record ("resultado desconocido", not charged) even when the job is then
// cancelled and the item never runs again.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { OUTCOME_UNKNOWN_DETAIL, sweepStaleHolds } from '@/lib/core/billing/holds';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { allSettings as env } from '@/lib/root/settings';
import { buildSourceClients } from '@/lib/sources';
import { startSimulator, type RunningSimulator } from '@/simulator';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { claimItems } from './items';
import { cancelJob, submitJob } from './jobs';
import { runItem } from './runner';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';

const TARIFF = 150;
const BALANCE = 10 * TARIFF;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let integration: TestIntegration;
/** Held at the catalog source: the lookup is asked and its answer never comes back while closed. */
let gate: { reached: Promise<void>; open: () => void };


beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  process.env.CATALOG_BASE_URL = `${simulator.url}/catalog`;
  resetEnvCache();
  let reached!: () => void;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gate = { reached: new Promise<void>((resolve) => (reached = resolve)), open };
  // The catalog source gets the question (the simulator answers it) and its answer waits at the gate.
  const gatedFetch: typeof fetch = async (url, init) => {
    const answer = await fetch(url, init);
    if (String(url).includes('/catalog/') && !String(url).includes('token')) {
      reached();
      await opened;
    }
    return answer;
  };
  setProcessSlot('sourceClients', buildSourceClients(env(), gatedFetch));
  integration = await createTestIntegration('lotes-caida', { tariffCentavos: TARIFF, balanceCentavos: BALANCE });
});

afterAll(async () => {
  gate?.open();
  setProcessSlot('sourceClients', undefined);
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe("a bulk item's lookup whose instance dies after asking the source", () => {
  it('is recorded by the hold sweeper, not charged, when its job is then cancelled', async () => {
    const submitted = await submitJob(integration.id, 'omisos', ['576937-K'], 'caida-tras-la-fuente');
    if (submitted.kind !== 'created') throw new Error('a new job');
    const [item] = await claimItems('instancia-que-muere', 1, 120);
    if (!item) throw new Error('its item is claimable');
    const running = runItem(item);
    await gate.reached;

    // From here on the instance is gone, as far as the database can tell: the sweeper gives its
    // hold back after the source's ceiling, and the integrator cancels the job before the item's
    // lease expires, so the item never runs again.
    const handle = await database();
    const [hold] = await handle.rows<{ request_id: string }>(sql`
      select h.request_id from ledger_open_holds o join ledger_entries h on h.id = o.hold_id where h.integration_id = ${integration.id}::integer`);
    expect(hold).toBeDefined();
    expect(await sweepStaleHolds(0)).toBe(1);
    expect(await cancelJob(integration.id, submitted.publicId)).toEqual({ kind: 'cancelled' });

    const records = await handle.rows<{ request_id: string; lookup: string; charged_centavos: string | number; error_message: string | null }>(sql`
      select request_id, lookup, charged_centavos, error_message from query_records where integration_id = ${integration.id}::integer`);
    expect(records.map((record) => ({ ...record, charged_centavos: Number(record.charged_centavos) }))).toEqual([
      { request_id: hold!.request_id, lookup: 'omisos', charged_centavos: 0, error_message: OUTCOME_UNKNOWN_DETAIL },
    ]);
    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: BALANCE, ledgerSumCentavos: BALANCE });

    // (The instance in this test is not really gone: its late answer finds the hold given back and
    // the record written, and adds neither a charge nor a second record.)
    gate.open();
    await running;
    const [after] = await handle.rows<{ n: number }>(sql`select count(*)::int as n from query_records where integration_id = ${integration.id}::integer`);
    expect(after!.n).toBe(1);
    expect(await balanceAndLedgerSum(integration.id)).toEqual({ balanceCentavos: BALANCE, ledgerSumCentavos: BALANCE });
  });
});
