// Issue 21, point 5: request framing against the built app (server.mjs in front of Next, as
// `npm start` runs it). An oversized body is answered 400 as soon as it passes MAX_BODY_BYTES and
// the connection is closed after the answer instead of being left half-read, so neither a raw
// client nor a keep-alive pool waits on it; a client that hangs up mid-body is a client abort
// (status 499, outcome client_aborted) in the metrics and the log, never a 500 and never charged
// or recorded; one that hangs up while its query is at the source still gets the query recorded.
import net from 'node:net';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_LEVEL, logLines, type LogLine } from '../support/logs';
import { serverActionId } from '../support/console-client';
import { rawRequest, singleHeader } from '../support/raw-http';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import {
  CATALOG_UPSTREAM_PATHS,
  createTestIntegration,
  credentialHeaders,
  readMoney,
  readRecords,
  ROUTES,
  startGateway,
  validRequestBody,
  type Gateway,
  type Route,
  type TestIntegration,
} from '../conformance/harness';
import { sampleValue, scrapeMetrics, type Sample } from './metrics-support';

const METRICS_TOKEN = 'metrics-token-for-the-framing-tests-0123';
const TOO_LARGE = { [ROUTES.rtuNits]: { error: 'Request body is too large.' }, [ROUTES.cuiNit]: { message: 'El cuerpo de la petición es demasiado grande.' } } as const;
const TWO_MEGABYTES = 2 * 1024 * 1024;
const CHUNK_BYTES = 16 * 1024;
/** A condition not met within this is a hang (the app answers these in milliseconds). */
const CONDITION_TIMEOUT_MS = 15_000;
// An online catalog query (actualizado: true) waits this long at the simulator, well inside the
// source ceiling below: long enough for the client to hang up while the query is at the source.
const ONLINE_LATENCY_MS = 1_500;
const START_BALANCE = 10_000;
/** How long a request may take to arrive here (REQUEST_RECEIVE_TIMEOUT_MS; 30 s by default). */
const RECEIVE_TIMEOUT_MS = 3_000;
const TARIFF = 100;

let testDb: TestDatabase;
let gateway: Gateway;
let sender: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  sender = await createTestIntegration('framing-sender', { tariffCentavos: TARIFF, balanceCentavos: START_BALANCE });
  gateway = await startGateway(testDb, {
    env: { METRICS_TOKEN, SOURCE_TIMEOUT_MS: '10000', RATE_LIMIT_CATALOG_PER_MINUTE: '1000', RATE_LIMIT_RTU_PER_MINUTE: '1000', REQUEST_RECEIVE_TIMEOUT_MS: String(RECEIVE_TIMEOUT_MS) },
    simulator: { onlineLatencyMs: ONLINE_LATENCY_MS },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

// ---------------------------------------------------------------------------------------------
// One HTTP/1.1 connection written by hand, read as it arrives

interface RawConnection {
  socket: net.Socket;
  /** Resolves with the first complete answer on the connection (status, headers, de-chunked body). */
  answer(): Promise<{ status: number; headers: Map<string, string>; text: string }>;
  /** Resolves when the server ended the connection (its FIN); rejects if that does not happen in time. */
  endedByServer(): Promise<void>;
  /** Resolves when the socket is closed on both sides, with the error it closed with, if any. */
  closed(): Promise<Error | undefined>;
  /** Bytes of the body written so far. */
  bodyBytesWritten(): number;
  writeChunk(bytes: Buffer): boolean;
}

function until<T>(what: string, check: () => T | undefined, events: NodeJS.EventEmitter, names: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      let value: T | undefined;
      try {
        value = check();
      } catch (error) {
        finish();
        reject(error as Error);
        return;
      }
      if (value === undefined) return;
      finish();
      resolve(value);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`${what}: not within ${CONDITION_TIMEOUT_MS} ms`));
    }, CONDITION_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      for (const name of names) events.off(name, attempt);
    };
    for (const name of names) events.on(name, attempt);
    attempt();
  });
}

function openConnection(route: Route, headers: Record<string, string>): Promise<RawConnection> {
  const head = [`POST ${route} HTTP/1.1`, `host: 127.0.0.1:${gateway.app.port}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.app.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let ended = false;
    let closed = false;
    let closeError: Error | undefined;
    let bodyBytes = 0;
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    socket.on('end', () => (ended = true));
    socket.on('error', (error) => (closeError = error));
    socket.on('close', () => (closed = true));
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      resolve({
        socket,
        answer: () => until('a complete answer', () => parseAnswer(received), socket, ['data', 'end', 'close']),
        endedByServer: () => until('the server closing the connection', () => (ended ? true : closed ? failClosed(closeError) : undefined), socket, ['end', 'close']).then(() => {}),
        closed: () => until('the socket closing', () => (closed ? { error: closeError } : undefined), socket, ['close']).then(({ error }) => error),
        bodyBytesWritten: () => bodyBytes,
        writeChunk(bytes) {
          bodyBytes += bytes.length;
          return socket.write(Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]));
        },
      });
    });
    socket.once('error', reject);
  });
}

function failClosed(error: Error | undefined): never {
  throw new Error(`the connection was reset instead of closed after the answer: ${error?.message ?? 'closed without a FIN'}`);
}

/** The first answer in `raw` once it is complete (a chunked body up to its last chunk, or Content-Length bytes). */
function parseAnswer(raw: Buffer): { status: number; headers: Map<string, string>; text: string } | undefined {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const body = raw.subarray(headEnd + 4);
  if (headers.get('transfer-encoding') === 'chunked') {
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (size === 0) return { status, headers, text: Buffer.concat(parts).toString('utf8') };
      if (body.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers.get('content-length') ?? 0);
  return body.length < length ? undefined : { status, headers, text: body.subarray(0, length).toString('utf8') };
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const paddingChunk = Buffer.alloc(CHUNK_BYTES, 'x');

/** The start of a JSON body that never ends within the limit: `{"nits":["…"],"padding":"xxxx…`. */
function bodyOpening(route: Route): Buffer {
  return Buffer.from(`${JSON.stringify(validRequestBody(route, gateway.sample)).slice(0, -1)},"padding":"`);
}

async function expectServedAtOnce(route: Route): Promise<void> {
  const answer = await gateway.call(route, { as: sender, json: validRequestBody(route, gateway.sample) });
  expect(answer.status, answer.text).toBe(200);
}

// ---------------------------------------------------------------------------------------------

describe('an oversized body', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  for (const route of [ROUTES.rtuNits, ROUTES.cuiNit] as const) {
    it(`${route}: a 2 MB chunked body is answered 400 while the client is still sending, and the server closes the connection after the answer`, async () => {
      const connection = await openConnection(route, { ...JSON_HEADERS, ...credentialHeaders(sender), 'transfer-encoding': 'chunked' });
      // Four times the limit, then the client waits: the rest of its 2 MB would follow only after.
      connection.writeChunk(bodyOpening(route));
      for (let i = 0; i < 4; i++) connection.writeChunk(paddingChunk);

      const answer = await connection.answer();
      expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({ status: 400, body: TOO_LARGE[route] });
      expect(answer.headers.get('connection')).toBe('close');
      expect(connection.bodyBytesWritten()).toBeLessThan(TWO_MEGABYTES);
      await connection.endedByServer();
      connection.socket.destroy();

      await expectServedAtOnce(route);
    });
  }

  it('written as fast as the socket takes it: 400, and the connection is closed, not reset and not left open', async () => {
    const route = ROUTES.rtuNits;
    const connection = await openConnection(route, { ...JSON_HEADERS, ...credentialHeaders(sender), 'transfer-encoding': 'chunked' });
    connection.writeChunk(bodyOpening(route));
    const answered = connection.answer();
    // The whole 2 MB, as fast as the socket takes it; the answer may come before the end.
    await new Promise<void>((resolve) => {
      const pump = () => {
        while (connection.bodyBytesWritten() < TWO_MEGABYTES && connection.socket.writable) {
          if (!connection.writeChunk(paddingChunk)) return void connection.socket.once('drain', pump);
        }
        resolve();
      };
      connection.socket.once('end', resolve);
      pump();
    });
    const answer = await answered;
    expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({ status: 400, body: TOO_LARGE[route] });
    await connection.endedByServer();
    // Our side ends after the server's FIN (net's default); the server closes once it saw that,
    // having read what we sent meanwhile: a reset could erase the answer before a client reads it.
    expect(await connection.closed()).toBeUndefined();

    await expectServedAtOnce(route);
  });

  it('a Content-Length past the limit is answered 400 before any of the body is sent, and the connection closed', async () => {
    for (const route of [ROUTES.rtuNits, ROUTES.cuiNit] as const) {
      const connection = await openConnection(route, { ...JSON_HEADERS, ...credentialHeaders(sender), 'content-length': String(TWO_MEGABYTES) });
      const answer = await connection.answer();
      expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({ status: 400, body: TOO_LARGE[route] });
      expect(connection.bodyBytesWritten()).toBe(0);
      await connection.endedByServer();
      connection.socket.destroy();
    }
  });

  it('a keep-alive client with one connection: the oversized body gets 400, and its next request 200', async () => {
    const pool = new Pool(gateway.app.baseUrl, { connections: 1 });
    try {
      const route = ROUTES.cuiNit;
      const headers = { ...JSON_HEADERS, ...credentialHeaders(sender) };
      async function* chunkedBody() {
        yield bodyOpening(route);
        for (let sent = 0; sent < TWO_MEGABYTES; sent += CHUNK_BYTES) yield paddingChunk;
      }
      const declaredLength = Buffer.concat([bodyOpening(route), Buffer.alloc(TWO_MEGABYTES, 'x')]);
      // A stream goes chunked (no length); the buffer declares its length.
      for (const body of [Readable.from(chunkedBody()), declaredLength]) {
        const oversized = await pool.request({ path: route, method: 'POST', headers, body });
        expect({ status: oversized.statusCode, body: await oversized.body.json() }).toEqual({ status: 400, body: TOO_LARGE[route] });
        const next = await pool.request({ path: route, method: 'POST', headers, body: JSON.stringify(validRequestBody(route, gateway.sample)) });
        const text = await next.body.text();
        expect(next.statusCode, text).toBe(200);
      }
    } finally {
      await pool.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

function metricsDelta(before: Sample[], after: Sample[], labels: Record<string, string>): number {
  const total = (samples: Sample[]) =>
    samples
      .filter((sample) => sample.name === 'gateway_lookup_requests_total' && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
      .reduce((sum, sample) => sum + sample.value, 0);
  return total(after) - total(before);
}

async function scrape(): Promise<Sample[]> {
  return (await scrapeMetrics(gateway.app.baseUrl, METRICS_TOKEN)).samples;
}

/** Polls the metrics until `done` holds (the app reports a lookup when its handler returns). */
async function metricsWhen(done: (samples: Sample[]) => boolean): Promise<Sample[]> {
  const deadline = Date.now() + CONDITION_TIMEOUT_MS;
  for (;;) {
    const samples = await scrape();
    if (done(samples)) return samples;
    if (Date.now() > deadline) throw new Error(`metrics never matched:\n${gateway.app.logs().slice(-3_000)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function lookupLines(): LogLine[] {
  return logLines(gateway.app.logs()).filter((line) => line.component === 'lookup' && line.msg === 'lookup');
}

describe('a client that hangs up', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('mid-body: counted and logged as a client abort (499), not an error, no 500; nothing charged or recorded', async () => {
    const routes = [ROUTES.rtuNits, ROUTES.cuiNit] as const;
    const before = await scrape();
    const linesBefore = logLines(gateway.app.logs()).length;
    for (const route of routes) {
      const body = Buffer.from(JSON.stringify({ ...validRequestBody(route, gateway.sample), padding: 'x'.repeat(1_000) }));
      const connection = await openConnection(route, { ...JSON_HEADERS, ...credentialHeaders(sender), 'content-length': String(body.length) });
      // Half the body, handed to the network; then the client gives up.
      await new Promise<void>((resolve, reject) => connection.socket.write(body.subarray(0, body.length / 2), (error) => (error ? reject(error) : resolve())));
      connection.socket.destroy();
    }
    const lookups = { rtuNits: 'rtu_nits', cuiNit: 'cui_nit' };
    const after = await metricsWhen((samples) => metricsDelta(before, samples, { outcome: 'client_aborted' }) >= routes.length);
    for (const lookup of Object.values(lookups)) expect(metricsDelta(before, after, { lookup, outcome: 'client_aborted', status: '499' }), lookup).toBe(1);
    expect(metricsDelta(before, after, { status: '500' })).toBe(0);
    expect(metricsDelta(before, after, { outcome: 'unhandled' })).toBe(0);
    // Not refused either: the client never finished asking.
    expect(sampleValue(after, 'gateway_lookup_refusals_total', { lookup: 'rtu_nits', reason: 'invalid_request' })).toBe(
      sampleValue(before, 'gateway_lookup_refusals_total', { lookup: 'rtu_nits', reason: 'invalid_request' }),
    );

    const newLines = logLines(gateway.app.logs()).slice(linesBefore);
    const aborted = newLines.filter((line) => line.component === 'lookup' && line.outcome === 'client_aborted');
    expect(aborted.map((line) => [line.lookup, line.status])).toEqual(expect.arrayContaining([['rtu_nits', 499], ['cui_nit', 499]]));
    expect(aborted).toHaveLength(2);
    for (const line of aborted) expect(line.level).toBeLessThan(LOG_LEVEL.error);
    expect(newLines.filter((line) => line.level >= LOG_LEVEL.error)).toEqual([]);
    expect(sampleValue(after, 'gateway_holds_open')).toBe(0);

    const { records, money } = await gateway.withDatabase(async (handle) => ({ records: await readRecords(handle, sender.id), money: await readMoney(handle, sender.id) }));
    expect(records.filter((record) => record.httpStatus === 499 || record.httpStatus === 500)).toEqual([]);
    expect(money.ledger.filter((entry) => entry.kind === 'hold').length).toBe(records.filter((record) => record.lookup === 'cui_nit').length);
    expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
  });

  it('while its query is at the source: the lookup runs to its end, charged and recorded as answered', async () => {
    const route = ROUTES.cuiNit;
    const nit = gateway.sample.individual.nit;
    const upstreamPath = CATALOG_UPSTREAM_PATHS[route];
    const sentUpstream = gateway.upstream.requestsTo(upstreamPath).length;
    const linesBefore = lookupLines().length;

    const body = Buffer.from(JSON.stringify({ nit, actualizado: true }));
    const connection = await openConnection(route, { ...JSON_HEADERS, ...credentialHeaders(sender), 'content-length': String(body.length) });
    connection.socket.write(body);
    // The online query waits ONLINE_LATENCY_MS at the source: hang up as soon as it got there.
    const deadline = Date.now() + CONDITION_TIMEOUT_MS;
    while (gateway.upstream.requestsTo(upstreamPath).length === sentUpstream) {
      if (Date.now() > deadline) throw new Error('the query never reached the source');
      await new Promise((resolve) => setImmediate(resolve));
    }
    connection.socket.destroy();

    const deadlineForLine = Date.now() + CONDITION_TIMEOUT_MS;
    while (lookupLines().length === linesBefore) {
      if (Date.now() > deadlineForLine) throw new Error(`the lookup never finished:\n${gateway.app.logs().slice(-3_000)}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [line] = lookupLines().slice(linesBefore);
    expect({ lookup: line!.lookup, status: line!.status, outcome: line!.outcome, clientAborted: line!.clientAborted }).toEqual({
      lookup: 'cui_nit',
      status: 200,
      outcome: 'success',
      clientAborted: true,
    });
    expect(line!.level).toBeLessThan(LOG_LEVEL.warn);

    const { records, money } = await gateway.withDatabase(async (handle) => ({ records: await readRecords(handle, sender.id), money: await readMoney(handle, sender.id) }));
    const record = records.find((candidate) => candidate.requestId === line!.requestId);
    expect({ status: record?.httpStatus, charged: record?.chargedCentavos }).toEqual({ status: 200, charged: TARIFF });
    const holds = money.ledger.filter((entry) => entry.kind === 'hold').length;
    expect(money.ledger.filter((entry) => entry.kind === 'capture' || entry.kind === 'void').length).toBe(holds);
    expect(money.ledgerSumCentavos).toBe(money.balanceCentavos);
  });
});

describe('requests the app answers without Next (issue 30, point 7)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('OPTIONS * is answered with what the server allows; GET * and POST * are 400; nothing reaches stderr', async () => {
    const port = Number(new URL(gateway.app.baseUrl).port);
    const options = await rawRequest(port, 'OPTIONS', '*', { host: `127.0.0.1:${port}` });
    expect(options.status).toBe(204);
    expect(singleHeader(options, 'allow')).toBe('GET, HEAD, POST, OPTIONS');
    for (const method of ['GET', 'POST']) {
      const answer = await rawRequest(port, method, '*', { host: `127.0.0.1:${port}`, 'content-length': '0' });
      expect(answer.status, method).toBe(400);
      expect(answer.text).toBe('Bad request: only OPTIONS may ask for "*".\n');
      // Like every other refusal: an id the integrator can quote (the console says what it is).
      expect(singleHeader(answer, 'x-request-id'), method).toMatch(/^req_[0-9a-f]{20}$/);
    }
    const misdirected = await rawRequest(port, 'GET', 'http://evil.example/api/health', { host: `127.0.0.1:${port}` });
    expect(misdirected.status).toBe(400);
    expect(singleHeader(misdirected, 'x-request-id')).toMatch(/^req_[0-9a-f]{20}$/);
    expect(gateway.app.logs()).not.toContain('Invalid URL');
    expect(gateway.app.logs()).not.toContain('TypeError');
  });

  it('a server action from another origin is refused with 403 (not 500), whatever X-Forwarded-Host says; from this origin it reaches the action', async () => {
    const action = (headers: Record<string, string>) =>
      fetch(`${gateway.app.baseUrl}/admin`, {
        method: 'POST',
        headers: { 'next-action': serverActionId('startLedgerVerification'), accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', ...headers },
        body: JSON.stringify([{ integracion: '' }]),
        redirect: 'manual',
      });
    // This service's own host under another scheme is another origin too (the sixth review: only the host was compared).
    const otherScheme = gateway.app.baseUrl.replace(/^http:/, 'https:');
    const foreign: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' }, { origin: otherScheme }];
    for (const headers of foreign) {
      const refused = await action(headers);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe('Solicitud rechazada: el formulario no viene de esta consola.');
    }
    // A forged X-Forwarded-Host beside this origin does not turn the action into a 500 either.
    const own = await action({ origin: gateway.app.baseUrl, 'x-forwarded-host': 'evil.example' });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('Su sesión terminó o ya no es válida.');
    expect(logLines(gateway.app.logs()).filter((line) => line.msg === 'cross-origin console form refused')).toHaveLength(3);
  });

  it('a body that stalls is answered 408 and its connection closed after REQUEST_RECEIVE_TIMEOUT_MS (Node\'s own bound was five minutes)', async () => {
    const port = Number(new URL(gateway.app.baseUrl).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => {
        const headers = { ...credentialHeaders(sender), host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': '100' };
        socket.write(`POST ${ROUTES.cuiNit} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n{"nit":`);
      });
      socket.setTimeout(RECEIVE_TIMEOUT_MS + 10_000, () => socket.destroy(new Error('the stalled request was never answered')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // Node's own 408 carried no header at all: this one has a request id and the baseline headers.
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase().split('\r\n');
    expect(head.filter((line) => /^x-request-id: req_[0-9a-f]{20}$/.test(line))).toHaveLength(1);
    expect(head).toContain('x-content-type-options: nosniff');
    expect(head).toContain('connection: close');
  });

  it('a request Node cannot parse is answered 400 with a request id, and its connection closed', async () => {
    const port = Number(new URL(gateway.app.baseUrl).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Without Colon\r\n\r\n'));
      socket.setTimeout(10_000, () => socket.destroy(new Error('the malformed request was never answered')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase().split('\r\n');
    expect(head.filter((line) => /^x-request-id: req_[0-9a-f]{20}$/.test(line))).toHaveLength(1);
  });
});
