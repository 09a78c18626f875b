// What the conformance and concurrency tests share: integrations made through the same lib
// functions the console and CLI use, the upstream simulator behind a relay that records what the
// gateway sends upstream, the built app (tests/support/app-server.ts) pointed at both, one way to
// call the API as an integrator would, and readers for what the database recorded.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { DatabaseHandle } from '@/db/client';
import type { Actor } from '@/lib/core/audit/audit';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { FLAG_NAMES, type IntegrationFlags } from '@/lib/core/integrations/flags';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { openNullable } from '@/lib/core/sealing/envelope';
import { DEFAULT_SIMULATOR_SEED, samplePopulation, startSimulator, type PopulationSample, type RunningSimulator, type SimulatorOptions } from '@/simulator';
import { startApp, type RunningApp } from '../support/app-server';
import { expectDocumentedResponse } from '../support/openapi-validator';
import type { TestDatabase } from '../support/test-database';

export const TEST_ACTOR: Actor = { kind: 'system', name: 'test' };

/** The five lookups as an integrator reaches them ({base_url} is `<origin>/api`). */
export const ROUTES = {
  renap: '/api/renap/buscar-cui',
  rtuNits: '/api/rtu/nits',
  cuiNit: '/api/catalogos/cui-nit',
  catalogRtu: '/api/catalogos/rtu',
  omisos: '/api/catalogos/omisos',
} as const;

export type Route = (typeof ROUTES)[keyof typeof ROUTES];
export const CATALOG_ROUTES = [ROUTES.cuiNit, ROUTES.catalogRtu, ROUTES.omisos] as const;
export type CatalogRoute = (typeof CATALOG_ROUTES)[number];
export const REGISTRY_ROUTES = [ROUTES.renap, ROUTES.rtuNits] as const;
export const ALL_ROUTES = [...REGISTRY_ROUTES, ...CATALOG_ROUTES] as const;

/** The upstream operation each catalog route queries (docs/sources.md). */
export const CATALOG_UPSTREAM_PATHS: Record<CatalogRoute, string> = {
  [ROUTES.cuiNit]: '/catalog/v2/consultas/identidad',
  [ROUTES.catalogRtu]: '/catalog/v2/consultas/ficha',
  [ROUTES.omisos]: '/catalog/v2/consultas/cumplimiento',
};

/** The lookup name a query record carries for each route. */
export const RECORDED_LOOKUP: Record<Route, string> = {
  [ROUTES.renap]: 'renap',
  [ROUTES.rtuNits]: 'rtu_nits',
  [ROUTES.cuiNit]: 'cui_nit',
  [ROUTES.catalogRtu]: 'rtu',
  [ROUTES.omisos]: 'omisos',
};

const everyFlag = (enabled: boolean) => Object.fromEntries(FLAG_NAMES.map((flag) => [flag, enabled])) as IntegrationFlags;

export const ALL_FLAGS_ON: IntegrationFlags = everyFlag(true);

export const ALL_FLAGS_OFF: IntegrationFlags = everyFlag(false);

/** The flag that enables each route, by its property name. */
export const ROUTE_FLAG: Record<Route, keyof IntegrationFlags> = {
  [ROUTES.renap]: 'isRenapEnabled',
  [ROUTES.rtuNits]: 'isRtuEnabled',
  [ROUTES.cuiNit]: 'isCuiNitEnabled',
  [ROUTES.catalogRtu]: 'isRtuV2Enabled',
  [ROUTES.omisos]: 'isOmisosEnabled',
};

export interface TestIntegration {
  id: number;
  nombre: string;
  token: string;
}

export interface IntegrationSetup {
  flags?: Partial<IntegrationFlags>;
  tariffCentavos?: number;
  balanceCentavos?: number;
}

/**
 * Creates an integration through lib/core/integrations (as the console and the CLI do): every lookup
 * enabled unless `flags` says otherwise. On PGlite call it before the app starts (one process at a
 * time may open the database).
 */
export async function createTestIntegration(nombre: string, setup: IntegrationSetup = {}): Promise<TestIntegration> {
  const created = await createIntegration(TEST_ACTOR, {
    nombre,
    flags: { ...ALL_FLAGS_ON, ...setup.flags },
    tariffCentavos: setup.tariffCentavos ?? 0,
    initialBalanceCentavos: setup.balanceCentavos ?? 0,
  });
  if (!created.ok) throw new Error(`createIntegration(${nombre}) failed: ${created.error.message}`);
  return { id: created.value.integration.id, nombre: created.value.integration.nombre, token: created.value.token };
}

export function credentialHeaders(integration: TestIntegration): Record<string, string> {
  return { 'x-integracion-login': integration.nombre, 'x-integracion-token': integration.token };
}

// ---------------------------------------------------------------------------------------------
// What the gateway sends upstream

export interface UpstreamRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** An answer the relay gives instead of the simulator's (for upstream answers the simulator cannot produce). */
export interface UpstreamAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface UpstreamRecorder {
  url: string;
  requests: UpstreamRequest[];
  /** Answers the requests `matches` picks with `answer` instead of relaying them to the simulator. */
  answerInstead(matches: (request: UpstreamRequest) => boolean, answer: UpstreamAnswer): void;
  /** The requests to one upstream operation path (e.g. /catalog/v2/consultas/identidad). */
  requestsTo(path: string): UpstreamRequest[];
  close(): Promise<void>;
}

/**
 * A relay between the gateway and the simulator that keeps a copy of every request body, so a
 * test can see exactly what reached the source (or that nothing did). Faults pass through: a
 * dropped upstream connection drops the gateway's, and a gateway that gives up cancels upstream.
 */
export async function startUpstreamRecorder(targetUrl: string): Promise<UpstreamRecorder> {
  const target = new URL(targetUrl);
  const requests: UpstreamRequest[] = [];
  const replacements: Array<{ matches: (request: UpstreamRequest) => boolean; answer: UpstreamAnswer }> = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the gateway always sends JSON, so a test would notice.
      }
      const path = new URL(incoming.url ?? '/', 'http://relay').pathname;
      const request = { path, headers: incoming.headers, body };
      requests.push(request);
      const replacement = replacements.find((candidate) => candidate.matches(request));
      if (replacement) {
        outgoing.writeHead(replacement.answer.status, { 'content-type': replacement.answer.contentType });
        outgoing.end(replacement.answer.body);
        return;
      }
      const relayed = http.request(
        { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          answer.on('error', () => outgoing.destroy());
        },
      );
      relayed.on('error', () => outgoing.destroy());
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) relayed.destroy();
      });
      relayed.end(raw);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerInstead: (matches, answer) => replacements.push({ matches, answer }),
    requestsTo: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The gateway under test

/** The source ceiling the tests run with; the simulator's slow fault waits longer than this. */
export const TEST_SOURCE_TIMEOUT_MS = 1_500;
const TEST_SLOW_FAULT_DELAY_MS = 10_000;
/** For files that do not test the global per-IP limit: every request comes from 127.0.0.1. */
export const GLOBAL_LIMIT_OUT_OF_THE_WAY = '1000000';

export interface StartGatewayOptions {
  /** App settings on top of the defaults below (source URLs, a short source ceiling, no global limit). */
  env?: Record<string, string | undefined>;
  simulator?: Partial<SimulatorOptions>;
}

export interface Gateway {
  app: RunningApp;
  simulator: RunningSimulator;
  upstream: UpstreamRecorder;
  /** One member of each trait of the simulator's population, plus identifiers nobody knows. */
  sample: PopulationSample;
  call(route: string, request?: ApiRequest): Promise<ApiAnswer>;
  /** Reads (or changes) the database the app uses; on PGlite the app is stopped meanwhile. */
  withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the simulator, the relay in front of it and the built app pointed at the relay. */
export async function startGateway(testDb: TestDatabase, options: StartGatewayOptions = {}): Promise<Gateway> {
  const simulator = await startSimulator({
    port: 0,
    seed: DEFAULT_SIMULATOR_SEED,
    slowFaultDelayMs: TEST_SLOW_FAULT_DELAY_MS,
    onlineLatencyMs: 10,
    ...options.simulator,
  });
  const upstream = await startUpstreamRecorder(simulator.url);
  let app: RunningApp;
  try {
    app = await startApp({
      env: {
        RENAP_BASE_URL: `${upstream.url}/renap`,
        RTU_BASE_URL: `${upstream.url}/rtu`,
        CATALOG_BASE_URL: `${upstream.url}/catalog`,
        SOURCE_TIMEOUT_MS: String(TEST_SOURCE_TIMEOUT_MS),
        RATE_LIMIT_GLOBAL_MAX: GLOBAL_LIMIT_OUT_OF_THE_WAY,
        ...options.env,
      },
    });
  } catch (error) {
    await upstream.close();
    await simulator.close();
    throw error;
  }
  const sample = samplePopulation({ seed: options.simulator?.seed ?? DEFAULT_SIMULATOR_SEED });
  return {
    app,
    simulator,
    upstream,
    sample,
    async call(route, request) {
      try {
        return await callApi(app.baseUrl, route, request);
      } catch (error) {
        // A request that hangs or a connection that breaks: show what the app said last.
        if (error instanceof Error && error.name !== 'AssertionError') error.message += `\n--- app log (tail) ---\n${app.logs().slice(-4_000)}`;
        throw error;
      }
    },
    withDatabase: (fn) => app.withDatabase(() => testDb.use(fn)),
    async stop() {
      await app.stop();
      await upstream.close();
      await simulator.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Calling the API

/** A body each route answers with 200 for the population's first individual. */
export function validRequestBody(route: Route, sample: PopulationSample): Record<string, unknown> {
  switch (route) {
    case ROUTES.renap:
      return { cui: sample.individual.cui };
    case ROUTES.rtuNits:
      return { nits: [sample.individual.nit] };
    default:
      return { nit: sample.individual.nit };
  }
}

export interface ApiRequest {
  /** Sends this integration's two credential headers. */
  as?: TestIntegration;
  /** Serialized as JSON. */
  json?: unknown;
  /** Sent as is instead of `json` (malformed bodies, streams). */
  rawBody?: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array<ArrayBuffer>>;
  /** Defaults to application/json; null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  body: unknown;
  requestId: string;
}

const REQUEST_ID_PATTERN = /^req_[0-9a-f]{20}$/;
const DOCUMENTED_LOOKUPS = new Set(['/renap/buscar-cui', '/rtu/nits', '/catalogos/cui-nit', '/catalogos/rtu', '/catalogos/omisos']);
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * One POST as an integrator sends it. Every answer of the API must carry an x-request-id
 * (docs/decisions.md, "Request ids"): checked here, for every request of every test.
 */
export async function callApi(baseUrl: string, route: string, request: ApiRequest = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = {};
  const contentType = request.contentType === undefined ? 'application/json' : request.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  if (request.as) Object.assign(headers, credentialHeaders(request.as));
  Object.assign(headers, request.headers);
  const body = request.rawBody ?? (request.json === undefined ? undefined : JSON.stringify(request.json));
  // No answer in this time means the app hung: fail with the route rather than at the test's ceiling.
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  if (body instanceof ReadableStream) init.duplex = 'half';
  const response = await fetch(`${baseUrl}${route}`, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const requestId = response.headers.get('x-request-id') ?? '';
  expect(requestId, `x-request-id of POST ${route} (HTTP ${response.status})`).toMatch(REQUEST_ID_PATTERN);
  // Every answer of a lookup must be one the OpenAPI document describes (issue 7).
  const lookupPath = route.replace(/^\/api/, '');
  if (DOCUMENTED_LOOKUPS.has(lookupPath)) {
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    expectDocumentedResponse({ path: lookupPath, status: response.status, contentType: response.headers.get('content-type'), body: isJson ? parsed : text });
  }
  return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', text, body: parsed, requestId };
}

/** Sends `count` requests one after another (the limits count them in order). */
export async function callRepeatedly(gateway: Gateway, count: number, route: string, request: ApiRequest): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  for (let i = 0; i < count; i++) answers.push(await gateway.call(route, request));
  return answers;
}

/** A JSON error answer: exactly one key, `error` or `message`, holding this text. */
export function expectErrorBody(answer: ApiAnswer, status: number, key: 'error' | 'message', text: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { [key]: text } });
  expect(answer.contentType).toMatch(/^application\/json/);
}

/** The same, when the text is not fixed (500s): one key holding a non-empty string. */
export function expectUnspecifiedErrorBody(answer: ApiAnswer, status: number, key: 'error' | 'message'): void {
  expect(answer.status).toBe(status);
  expect(Object.keys(answer.body as object)).toEqual([key]);
  const text = (answer.body as Record<string, unknown>)[key];
  expect(typeof text).toBe('string');
  expect(text).not.toBe('');
}

/** A catalog success: an object with one key, `data`, and the HTTP status 200. */
export function catalogData(answer: ApiAnswer): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(200);
  expect(Object.keys(answer.body as object)).toEqual(['data']);
  return (answer.body as { data: Record<string, unknown> }).data;
}

// ---------------------------------------------------------------------------------------------
// What the database holds

export interface RecordRow {
  id: number;
  requestId: string;
  integrationId: number;
  lookup: string;
  httpStatus: number;
  responseTimeMs: number;
  nit: string | null;
  cui: string | null;
  chargedCentavos: number;
  tariffCentavos: number | null;
}

export interface LedgerRow {
  id: number;
  kind: string;
  amountCentavos: number;
  holdId: number | null;
  requestId: string | null;
  queryRecordId: number | null;
}

export interface MoneyState {
  balanceCentavos: number;
  ledgerSumCentavos: number;
  ledger: LedgerRow[];
}

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export async function readRecords(handle: DatabaseHandle, integrationId: number): Promise<RecordRow[]> {
  const rows = await handle.rows<Record<string, unknown>>(sql`
    select id, request_id, integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos
      from query_records where integration_id = ${integrationId} order by id`);
  return rows.map((row) => ({
    id: Number(row.id),
    requestId: String(row.request_id),
    integrationId: Number(row.integration_id),
    lookup: String(row.lookup),
    httpStatus: Number(row.http_status),
    responseTimeMs: Number(row.response_time_ms),
    // Stored encrypted (lib/core/personal-data): the contract's "as sent" is what they decrypt to.
    nit: openNullable((row.nit as string | null) ?? null, 'nit'),
    cui: openNullable((row.cui as string | null) ?? null, 'cui'),
    chargedCentavos: Number(row.charged_centavos),
    tariffCentavos: nullableNumber(row.tariff_centavos),
  }));
}

export async function readMoney(handle: DatabaseHandle, integrationId: number): Promise<MoneyState> {
  const { balanceCentavos, ledgerSumCentavos } = await balanceAndLedgerSum(integrationId);
  const rows = await handle.rows<Record<string, unknown>>(sql`
    select id, kind, amount_centavos, hold_id, request_id, query_record_id
      from ledger_entries where integration_id = ${integrationId} order by id`);
  const ledger = rows.map((row) => ({
    id: Number(row.id),
    kind: String(row.kind),
    amountCentavos: Number(row.amount_centavos),
    holdId: nullableNumber(row.hold_id),
    requestId: (row.request_id as string | null) ?? null,
    queryRecordId: nullableNumber(row.query_record_id),
  }));
  return { balanceCentavos, ledgerSumCentavos, ledger };
}

/** Polls `probe` until it returns a value `accept` likes, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still not the case after ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until `count` (an instance's statements sent, say) stands still for 300 ms: its start-up and
 * periodic work are between runs, so what follows is what the test itself causes.
 */
export async function untilCountSettles(count: () => Promise<number>, what: string): Promise<void> {
  let previous = -1;
  await eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await count();
      const still = now === previous;
      previous = now;
      return still;
    },
    Boolean,
    30_000,
    what,
  );
}

/**
 * Reads a bulk job through GET /api/lotes/{id} as an integrator polls it, until `accept` likes it:
 * after 0.2 s, then twice as late each time, at most every 2 s. Those reads share the account API's
 * 60 a minute (ACCOUNT_API_PER_MINUTE): at ten a second, a job that runs longer than six seconds on a
 * busy machine has its polls refused with 429. A read refused that way waits for the next.
 */
export async function untilJob<T extends { estado: string } = { estado: string; conteos: Record<string, number> }>(
  gateway: Gateway,
  as: TestIntegration,
  jobId: string,
  accept: (job: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 60_000;
  let last = 'nothing yet';
  for (let pauseMs = 200; ; pauseMs = Math.min(pauseMs * 2, 2000)) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const response = await fetch(`${gateway.app.baseUrl}/api/lotes/${jobId}`, { headers: credentialHeaders(as) });
    last = await response.text();
    if (response.status === 200 && accept(JSON.parse(last) as T)) return JSON.parse(last) as T;
    if (response.status !== 200 && response.status !== 429) throw new Error(`GET /api/lotes/${jobId} answered ${response.status}: ${last}`);
    if (Date.now() > deadline) throw new Error(`${what}: still not the case after 60 s (last: ${last})`);
  }
}
