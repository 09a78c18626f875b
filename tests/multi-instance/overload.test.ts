// Issue 21: one built instance on PostgreSQL and Redis under a burst of 2,000 concurrent requests
// (each from its own client address, behind one trusted proxy hop, as a load balancer sends them).
// A valid client within its limits is served, late rather than failed; its limit still counts
// exactly; wrong tokens are refused from the credentials copy without a database statement.
// Issue 68: the same burst asking for receipts gets one each, every one true and charged once.
// Bounded and on loopback: every request is sent once, on its own connection.
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { database } from '@/db/client';
import { verifyLedger } from '@/lib/core/billing/verify';
import { setConstanciaTariff, setConstancias } from '@/lib/flows/integration-management/service';
import { startSimulator, type RunningSimulator } from '@/simulator/index';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import { startApp, type RunningApp } from '../support/app-server';
import { REPO_ROOT } from '../support/child-env';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { countBy, newIntegration, requiredEnv, sourceUrls, TEST_ACTOR, type TestIntegration, withinOneLimitMinute } from './support';

const RTU_NITS = '/api/rtu/nits';
const BURST = 2_000;
/** The per-integration limit of /rtu/nits (RATE_LIMIT_RTU_PER_MINUTE, the contract's 50 a minute). */
const RTU_PER_MINUTE = 50;
const INTEGRATIONS = BURST / RTU_PER_MINUTE;
const METRICS_TOKEN = 'overload-test-metrics-token-0123456789';
/** The contract tells clients to wait more than 30 s for an answer. */
const CLIENT_PATIENCE_MS = 30_000;
/** What each receipt costs its integration (an administrator's tariff item), charged with its lookup. */
const RECEIPT_TARIFF = 25;

let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let baselineGroup: TestIntegration[];
let burstGroup: TestIntegration[];
/** Integrations with receipts switched on and a receipt tariff. */
let receiptGroup: TestIntegration[];
let single: TestIntegration;
let besideFlood: TestIntegration;
/** Two of each: the probes of one turn stay under an integration's 50 a minute. */
let idleProbes: TestIntegration[];
let floodProbes: TestIntegration[];
let framing: TestIntegration;
/** Every request gets an address no other request of this file used: the global per-IP limit never decides here. */
let nextClient = 0;

interface Answer {
  status: number;
  body: string;
  elapsedMs: number;
  requestId: string | undefined;
  /** The receipt the answer names, when it was asked for one (x-constancia-id). */
  constanciaId: string | undefined;
}

interface Request {
  headers: Record<string, string>;
  body: unknown;
}

beforeAll(async () => {
  requiredEnv('DATABASE_URL');
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0, latencyMs: 0 });
  // Created before the instance starts: its first credentials load has them all.
  baselineGroup = await Promise.all(Array.from({ length: INTEGRATIONS }, () => newIntegration(0, 0)));
  burstGroup = await Promise.all(Array.from({ length: INTEGRATIONS }, () => newIntegration(0, 0)));
  receiptGroup = await Promise.all(Array.from({ length: INTEGRATIONS }, () => newIntegration(0, 100 * RECEIPT_TARIFF)));
  for (const integration of receiptGroup) {
    expect((await setConstancias(TEST_ACTOR, integration.id, true)).ok).toBe(true);
    expect((await setConstanciaTariff(TEST_ACTOR, integration.id, RECEIPT_TARIFF)).ok).toBe(true);
  }
  single = await newIntegration(0, 0);
  besideFlood = await newIntegration(0, 0);
  idleProbes = [await newIntegration(0, 0), await newIntegration(0, 0)];
  floodProbes = [await newIntegration(0, 0), await newIntegration(0, 0)];
  framing = await newIntegration(0, 0);
  app = await startApp({
    env: {
      ...testDatabase.env,
      ...sourceUrls(simulator),
      REDIS_URL: requiredEnv('REDIS_URL'),
      TRUSTED_PROXY_HOPS: '1',
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

function lookups(group: TestIntegration[], perIntegration: number, headers: (integration: TestIntegration) => Record<string, string> = (integration) => integration.headers): Request[] {
  return group.flatMap((integration) => Array.from({ length: perIntegration }, () => ({ headers: headers(integration), body: { nits: [SHOWCASE_MEMBER.nit] } })));
}

/** Sends every request on at most `connections` connections at once; how each went, and how long all took. */
async function send(requests: Request[], connections: number): Promise<{ answers: Answer[]; elapsedMs: number }> {
  const pool = new Pool(app.baseUrl, { connections, pipelining: 1, headersTimeout: 2 * CLIENT_PATIENCE_MS, bodyTimeout: 2 * CLIENT_PATIENCE_MS });
  const startedAt = performance.now();
  try {
    const answers = await Promise.all(
      requests.map(async ({ headers, body }) => {
        const client = ++nextClient;
        const sentAt = performance.now();
        const response = await pool.request({
          path: RTU_NITS,
          method: 'POST',
          headers: { ...headers, 'x-forwarded-for': clientAddress(client) },
          body: JSON.stringify(body),
        });
        const text = await response.body.text();
        const header = (name: string) => {
          const value = response.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        return { status: response.statusCode, body: text, elapsedMs: performance.now() - sentAt, requestId: header('x-request-id'), constanciaId: header('x-constancia-id') };
      }),
    );
    return { answers, elapsedMs: performance.now() - startedAt };
  } finally {
    await pool.close();
  }
}

function clientAddress(client: number): string {
  return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
}

/** A GET of the instance's API from a client address of its own, as JSON. */
async function getJson(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${app.baseUrl}${path}`, { headers: { ...headers, 'x-forwarded-for': clientAddress(++nextClient) } });
  return { status: response.status, body: await response.json() };
}

async function metricValue(name: string, labels: string): Promise<number> {
  const response = await fetch(`${app.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}}`) || (labels === '' && candidate.startsWith(`${name} `)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('one instance under a burst of 2,000 concurrent lookups', () => {
  it(`serves ${BURST} valid lookups from ${INTEGRATIONS} integrations, all within ${CLIENT_PATIENCE_MS / 1000} s and at 80 % or more of its throughput at 50 connections`, async () => {
    const baseline = await send(lookups(baselineGroup, RTU_PER_MINUTE), 50);
    expect(countBy(baseline.answers, (answer) => answer.status)).toEqual({ 200: BURST });
    const baselinePerSecond = (BURST / baseline.elapsedMs) * 1000;

    const burst = await send(lookups(burstGroup, RTU_PER_MINUTE), BURST);
    const burstPerSecond = (BURST / burst.elapsedMs) * 1000;
    const slowestMs = Math.max(...burst.answers.map((answer) => answer.elapsedMs));
    console.log(
      `[overload] at 50 connections: ${baselinePerSecond.toFixed(0)} lookups/s; ${BURST} at once: ${burstPerSecond.toFixed(0)} lookups/s, slowest answer ${(slowestMs / 1000).toFixed(1)} s`,
    );
    expect(countBy(burst.answers, (answer) => answer.status)).toEqual({ 200: BURST });
    expect(slowestMs).toBeLessThan(CLIENT_PATIENCE_MS);
    expect(burstPerSecond).toBeGreaterThanOrEqual(0.8 * baselinePerSecond);
  });

  it(`gives each of ${BURST} concurrent lookups asking for a receipt its own, which verifies and was charged once`, async () => {
    const asking = lookups(receiptGroup, RTU_PER_MINUTE, (integration) => ({ ...integration.headers, 'x-constancia': 'true' }));
    const burst = await send(asking, BURST);
    const slowestMs = Math.max(...burst.answers.map((answer) => answer.elapsedMs));
    console.log(`[overload] ${BURST} at once, each asking for a receipt: ${((BURST / burst.elapsedMs) * 1000).toFixed(0)} lookups/s, slowest answer ${(slowestMs / 1000).toFixed(1)} s`);
    expect(countBy(burst.answers, (answer) => answer.status)).toEqual({ 200: BURST });
    expect(slowestMs).toBeLessThan(CLIENT_PATIENCE_MS);
    expect(burst.answers.filter((answer) => answer.constanciaId === undefined)).toEqual([]);
    expect(new Set(burst.answers.map((answer) => answer.constanciaId)).size).toBe(BURST);

    // Every id leads to a stored receipt of its own answer, at a place of its own in the log.
    const handle = await database();
    const ids = receiptGroup.map((integration) => integration.id);
    const inGroup = sql`integration_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`;
    const stored = await handle.rows<{ id: string; request_id: string; leaf_index: number }>(sql`select id, request_id, leaf_index::int from constancias where ${inGroup}`);
    expect(new Map(stored.map((row) => [row.id, row.request_id]))).toEqual(new Map(burst.answers.map((answer) => [answer.constanciaId, answer.requestId])));
    expect(new Set(stored.map((row) => row.leaf_index)).size).toBe(BURST);
    // One in ten, read back by the integration that asked, verifies with the published keys alone.
    const keys = createLocalJWKSet((await getJson('/.well-known/jwks.json')).body as JSONWebKeySet);
    const sampled = burst.answers.map((answer, index) => ({ answer, headers: asking[index]!.headers })).filter((_, index) => index % 10 === 0);
    await Promise.all(
      sampled.map(async ({ answer, headers }) => {
        const read = await getJson(`/api/constancias/${answer.constanciaId}`, headers);
        expect(read.status, answer.constanciaId).toBe(200);
        const { payload } = await compactVerify((read.body as { constancia: string }).constancia, keys);
        expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ id: answer.constanciaId, solicitud: { requestId: answer.requestId }, respuesta: { estado: 200 } });
      }),
    );

    // The money: one charge of the receipt's tariff per receipt, on its own record, and the ledger
    // reconciles.
    const [charges] = await handle.rows<{ entries: number; records: number; centavos: number }>(sql`
      select count(*)::int as entries, count(distinct query_record_id)::int as records, coalesce(sum(amount_centavos), 0)::int as centavos
        from ledger_entries where ${inGroup} and kind = 'constancia'`);
    expect(charges).toEqual({ entries: BURST, records: BURST, centavos: -RECEIPT_TARIFF * BURST });
    expect((await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 600 })).differences).toEqual([]);
  });

  it(`answers ${BURST} concurrent lookups of one integration with exactly its ${RTU_PER_MINUTE} × 200 and 429 for the rest`, async () => {
    await withinOneLimitMinute(20_000);
    const { answers } = await send(lookups([single], BURST), BURST);
    expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: RTU_PER_MINUTE, 429: BURST - RTU_PER_MINUTE });
  });

  it(`refuses ${BURST} wrong tokens without one database statement, and a valid lookup beside them is served`, async () => {
    const statementsBefore = await metricValue('gateway_lookup_database_round_trips_sum', 'lookup="rtu_nits"');
    const lookupsBefore = await metricValue('gateway_lookup_database_round_trips_count', 'lookup="rtu_nits"');
    const known = burstGroup[0]!;
    const wrong = [
      // A known login with a wrong token, and logins no integration has.
      ...lookups([known], BURST / 2, (integration) => ({ ...integration.headers, 'x-integracion-token': `wrong-${integration.id}` })),
      ...Array.from({ length: BURST / 2 }, (_, index) => ({
        headers: { ...known.headers, 'x-integracion-login': `nobody-${index}` },
        body: { nits: [SHOWCASE_MEMBER.nit] },
      })),
    ];
    const [flood, beside] = await Promise.all([send(wrong, BURST), send(lookups([besideFlood], 1), 1)]);
    expect(countBy(flood.answers, (answer) => answer.status)).toEqual({ 403: BURST });
    expect(flood.answers[0]!.body).toBe(JSON.stringify({ error: 'Integration authentication required.' }));
    expect(beside.answers.map((answer) => answer.status)).toEqual([200]);
    expect(beside.answers[0]!.elapsedMs).toBeLessThan(CLIENT_PATIENCE_MS);

    expect(await metricValue('gateway_lookup_database_round_trips_count', 'lookup="rtu_nits"')).toBe(lookupsBefore + BURST + 1);
    // One statement in all: the record of the valid lookup beside the flood.
    expect(await metricValue('gateway_lookup_database_round_trips_sum', 'lookup="rtu_nits"')).toBe(statementsBefore + 1);
  });

  it('keeps lookup latency within 2× of idle while 300 keep-alive connections poll /api/ready', async () => {
    const PROBES = 30;
    const median = (answers: Answer[]) => answers.map((answer) => answer.elapsedMs).sort((a, b) => a - b)[Math.floor(answers.length / 2)]!;
    /** One lookup after the other, as a client that waits for each answer. */
    const oneByOne = async (integration: TestIntegration) => {
      const answers: Answer[] = [];
      for (const request of lookups([integration], PROBES)) answers.push(...(await send([request], 1)).answers);
      return { answers };
    };
    // Two medians one after the other, the lower kept, alone and under the flood: the other
    // processes on these two cores only ever add time (once in CI the flood's medians went from 2.5
    // to 5.6 ms with 492 polls meanwhile, and here 2.8 to 4.3 with 85 to 258). A flood that starves
    // the lookups (it took their median to 23 s before server.mjs answered the probes) fails both.
    const lowerMedian = async (integrations: TestIntegration[]) => {
      const medians: number[] = [];
      for (const integration of integrations) {
        const { answers } = await oneByOne(integration);
        expect(countBy(answers, (answer) => answer.status)).toEqual({ 200: PROBES });
        medians.push(median(answers));
      }
      return Math.min(...medians);
    };
    const idle = await lowerMedian(idleProbes);

    // The flood comes from a process of its own, as it would: in this one its answers would queue
    // with the lookups' own.
    const flood = startReadinessFlood(app.baseUrl, 300);
    try {
      await vi.waitFor(() => expect(flood.polls()).toBeGreaterThan(600), { timeout: 30_000, interval: 50 });
      const pollsBefore = flood.polls();
      const during = await lowerMedian(floodProbes);
      console.log(`[overload] lookup p50 idle ${idle.toFixed(1)} ms, under a readiness flood ${during.toFixed(1)} ms (${flood.polls() - pollsBefore} polls meanwhile)`);
      expect(flood.unexpected()).toEqual([]);
      expect(during).toBeLessThanOrEqual(2 * idle);
    } finally {
      await flood.stop();
    }
  });
});

describe('framing on the same instance', () => {
  it('answers a 2 MB chunked body with 400, and serves the next request on the same keep-alive client at once', async () => {
    const pool = new Pool(app.baseUrl, { connections: 1, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
    try {
      async function* twoMegabytes() {
        yield Buffer.from('{"nits":["');
        for (let sent = 0; sent < 2 * 1024 * 1024; sent += 16 * 1024) yield Buffer.alloc(16 * 1024, '1');
      }
      const headers = { ...framing.headers, 'x-forwarded-for': '10.255.0.1' };
      const oversized = await pool.request({ path: RTU_NITS, method: 'POST', headers, body: Readable.from(twoMegabytes()) });
      expect({ status: oversized.statusCode, body: await oversized.body.json() }).toEqual({ status: 400, body: { error: 'Request body is too large.' } });
      const next = await pool.request({ path: RTU_NITS, method: 'POST', headers, body: JSON.stringify({ nits: [SHOWCASE_MEMBER.nit] }) });
      expect(next.statusCode, await next.body.text()).toBe(200);
    } finally {
      await pool.close();
    }
  });
});

/**
 * `connections` keep-alive connections polling GET /api/ready as fast as they are answered, from a
 * child process; it reports every answer's status on its standard output.
 */
function startReadinessFlood(baseUrl: string, connections: number) {
  const script = `
    import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
    const pool = new Pool(process.argv[1], { connections: ${connections}, pipelining: 1 });
    let polls = 0;
    const unexpected = new Set();
    setInterval(() => process.stdout.write(JSON.stringify({ polls, unexpected: [...unexpected] }) + '\\n'), 50);
    for (let i = 0; i < ${connections}; i++) {
      (async () => {
        for (;;) {
          const response = await pool.request({ path: '/api/ready', method: 'GET' }).catch((error) => ({ statusCode: error.code }));
          await response.body?.dump();
          if (response.statusCode !== 200) unexpected.add(String(response.statusCode));
          polls++;
        }
      })();
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, baseUrl], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let last = { polls: 0, unexpected: [] as string[] };
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    if (lines.length > 0) last = JSON.parse(lines[lines.length - 1]!);
  });
  return {
    polls: () => last.polls,
    unexpected: () => last.unexpected,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
