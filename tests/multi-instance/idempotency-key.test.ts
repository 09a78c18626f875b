// Idempotency-Key across two instances on one PostgreSQL (and Redis for the limits): concurrent
// repeats of a billed lookup spread over both are charged once, reach the source once and all get
// the same answer; another body with the same key gets the 400 on either instance (issue 25, point 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { countBy, newIntegration, requiredEnv, servedBy, sourceUrls } from './support';

const OMISOS = '/api/catalogos/omisos';
const UPSTREAM_OMISOS = '/catalog/v2/consultas/cumplimiento';
const TARIFF = 175;
const CONCURRENT_REPEATS = 20;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
const upstreamLines: string[] = [];
const apps: RunningApp[] = [];

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  // The source takes a moment on `actualizado: true`, so the repeats find the first one running.
  simulator = await startSimulator({ port: 0, latencyMs: 0, onlineLatencyMs: 500, log: (line) => upstreamLines.push(line) });
  const env = {
    ...testDatabase.env,
    ...sourceUrls(simulator),
    REDIS_URL: requiredEnv('REDIS_URL'),
    RATE_LIMIT_GLOBAL_MAX: '100000',
    RATE_LIMIT_CATALOG_PER_MINUTE: '1000',
    SOURCE_TIMEOUT_MS: '30000',
  };
  apps.push(...(await Promise.all([startApp({ env }), startApp({ env })])));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await simulator?.close();
  await testDatabase?.cleanup();
});

interface Answer {
  status: number;
  text: string;
  replayed: string | null;
}

async function post(app: RunningApp, headers: Record<string, string>, key: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${OMISOS}`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text(), replayed: response.headers.get('idempotency-replayed') };
}

function sourceCalls(): number {
  return upstreamLines.filter((line) => line.includes(UPSTREAM_OMISOS)).length;
}

describe('an Idempotency-Key shared by two instances', () => {
  it(`charges ${CONCURRENT_REPEATS} concurrent repeats spread over both once, with one source call and one answer`, async () => {
    const integration = await newIntegration(TARIFF, 10 * TARIFF);
    await servedBy(apps, integration);
    const key = `multi-${Date.now()}`;
    const body = { nit: SHOWCASE_MEMBER.nit, actualizado: true };
    const callsBefore = sourceCalls();

    const answers = await Promise.all(Array.from({ length: CONCURRENT_REPEATS }, (_, index) => post(apps[index % 2]!, integration.headers, key, body)));
    expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: CONCURRENT_REPEATS });
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === 'true')).toHaveLength(CONCURRENT_REPEATS - 1);
    expect(sourceCalls() - callsBefore).toBe(1);

    // And later, one after another on each instance: still the same answer, still nothing more.
    for (const app of apps) {
      const repeat = await post(app, integration.headers, key, body);
      expect({ status: repeat.status, text: repeat.text, replayed: repeat.replayed }).toEqual({ status: 200, text: answers[0]!.text, replayed: 'true' });
    }
    expect(sourceCalls() - callsBefore).toBe(1);

    const { balanceCentavos, ledgerSumCentavos } = await balanceAndLedgerSum(integration.id);
    expect(balanceCentavos).toBe(9 * TARIFF);
    expect(ledgerSumCentavos).toBe(balanceCentavos);
    const handle = await database();
    // (servedBy's RENAP lookups are recorded too: only the catalog's count here.)
    const records = await handle.rows<{ n: string | number }>(
      sql`select count(*) as n from query_records where integration_id = ${integration.id}::integer and lookup = 'omisos'`,
    );
    expect(Number(records[0]!.n)).toBe(1);
  });

  it("answers the same key with another body with the contract's 400 on either instance", async () => {
    const integration = await newIntegration(TARIFF, 10 * TARIFF);
    await servedBy(apps, integration);
    const key = `multi-other-${Date.now()}`;
    expect((await post(apps[0]!, integration.headers, key, { nit: SHOWCASE_MEMBER.nit })).status).toBe(200);
    const callsBefore = sourceCalls();
    for (const app of apps) {
      const other = await post(app, integration.headers, key, { cui: SHOWCASE_MEMBER.cui });
      expect({ status: other.status, body: JSON.parse(other.text), replayed: other.replayed }).toEqual({
        status: 400,
        body: { message: CATALOG_MESSAGES.sourceRejectedData },
        replayed: null,
      });
    }
    expect(sourceCalls()).toBe(callsBefore);
    expect((await balanceAndLedgerSum(integration.id)).balanceCentavos).toBe(9 * TARIFF);
  });
});
