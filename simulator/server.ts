// The upstream simulator: one node:http server speaking the three source protocols of
// docs/sources.md over the synthetic population, with latency and fault injection. Tests start it
// in-process on port 0; `npm run simulator` starts it from the environment (simulator/main.ts).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SIMULATOR_DEV_CREDENTIALS } from '../lib/sources/settings';
import { createCatalogUpstream } from './catalog';
import { createFelSimulator, type FelFault, type FelSimControl, type FelSimCredentials } from './fel';
import { createFaultPlan, FAULT_HEADER, LATENCY_HEADER, parseFaultSpec, type FaultName, type RunFault } from './faults';
import { amendablePopulation, createPopulation, DEFAULT_POPULATION_SIZE, type Population, type TaxpayerAmendment } from './population';
import type { SimAnswer, SimulatedUpstream } from './protocol';
import { createRenapUpstream } from './renap';
import { createRecurrenteSimulator, type RecurrenteSimControl, type RecurrenteSimOptions } from './recurrente';
import { createOidcSimulator, type OidcSimControl, type OidcSimOptions } from './oidc';
import { createTsaSimulator, type TsaSimControl, type TsaSimOptions } from './tsa';
import { createRtuUpstream } from './rtu';
import { sleep } from './abortable-sleep';
import { readBody } from './body';

export const DEFAULT_SIMULATOR_SEED = 20_260_101;
/** Extra time of an online query (actualizado: true, or a record the source holds no copy of). */
export const DEFAULT_ONLINE_LATENCY_MS = 150;
/** The `slow` fault's delay: beyond the gateway's 30-second ceiling unless a test shortens it. */
export const DEFAULT_SLOW_FAULT_DELAY_MS = 35_000;
const MAX_BODY_BYTES = 64 * 1024;

export interface SimulatorCredentials {
  renapApiKey: string;
  rtuApiKey: string;
  catalogClientId: string;
  catalogClientSecret: string;
}

export interface SimulatorOptions {
  port: number;
  host?: string;
  seed?: number;
  populationSize?: number;
  /** Added to every answer. A request's x-sim-latency-ms header replaces it. */
  latencyMs?: number;
  /**
   * Up to this much more, at random, on each answer given latencyMs: a real source's times vary,
   * and a constant one keeps a closed-loop load generator's requests in lockstep (the bench).
   */
  latencyJitterMs?: number;
  onlineLatencyMs?: number;
  slowFaultDelayMs?: number;
  /** Faults for the whole run, as RunFault values or a SIMULATOR_FAULT string. */
  faults?: RunFault[] | string;
  /** What the simulated upstreams accept; defaults to the development credentials of lib/sources/settings.ts. */
  credentials?: SimulatorCredentials;
  /** One line per request; silent when absent. */
  log?: (line: string) => void;
  /** The FEL certifier under /fel (simulator/fel.ts, docs/fel.md). */
  fel?: { credentials?: FelSimCredentials; faults?: FelFault[]; dailyQuota?: number; voidDeadlines?: Record<string, string>; now?: () => Date };
  /** The payment provider Recurrente under /recurrente (simulator/recurrente.ts, docs/payments.md). */
  recurrente?: Omit<RecurrenteSimOptions, 'log'>;
  /** An OpenID Provider under /oidc, as the operators' identity providers (simulator/oidc.ts, docs/sso.md). */
  oidc?: Omit<OidcSimOptions, 'log'>;
  /** An RFC 3161 time-stamping authority under /tsa (simulator/tsa.ts). */
  tsa?: Omit<TsaSimOptions, 'log'>;
}

export interface RunningSimulator {
  url: string;
  port: number;
  population: Population;
  /**
   * Changes one taxpayer from now on, by NIT (tests: a supplier who becomes omiso between two runs
   * of a watch list). Only this simulator's answers change; the shared population stays as drawn.
   */
  amendTaxpayer(nit: string, amendment: TaxpayerAmendment): void;
  /** Replaces the run's faults from now on (tests: an upstream that goes down and comes back). */
  setFaults(faults: RunFault[] | string): void;
  /** Replaces the latency added to every lookup's answer from now on (the bench: one instance measured at zero latency, then at a source's). */
  setLatency(latency: { latencyMs: number; latencyJitterMs?: number }): void;
  /** The FEL certifier: what it certified, how often per identifier, and its faults. */
  fel: FelSimControl;
  /** Recurrente: its checkouts and payments, the webhooks it sent, its clock and its faults. */
  recurrente: RecurrenteSimControl;
  /** The identity provider: its directory, clients, keys, faults, sessions and back-channel logouts. */
  oidc: OidcSimControl;
  /** The time-stamping authority: its certificate, the tokens it issued and its faults. */
  tsa: TsaSimControl;
  /**
   * Registry and catalog lookups received and not answered yet (tests: a gateway instance that has
   * one waiting here holds money for it, so a kill now leaves the sweeper a hold to void).
   */
  lookupsInFlight(): number;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const seed = options.seed ?? DEFAULT_SIMULATOR_SEED;
  const population = amendablePopulation(createPopulation({ seed, size: options.populationSize ?? DEFAULT_POPULATION_SIZE }));
  const credentials = options.credentials ?? SIMULATOR_DEV_CREDENTIALS;
  const upstreams: SimulatedUpstream[] = [
    createRenapUpstream({ population, apiKey: credentials.renapApiKey }),
    createRtuUpstream({ population, apiKey: credentials.rtuApiKey }),
    createCatalogUpstream({ population, clientId: credentials.catalogClientId, clientSecret: credentials.catalogClientSecret }),
  ];
  const runFaults = typeof options.faults === 'string' ? parseFaultSpec(options.faults) : (options.faults ?? []);
  let faultPlan = createFaultPlan({ runFaults, seed });
  const timing = {
    latencyMs: options.latencyMs ?? 0,
    latencyJitterMs: options.latencyJitterMs ?? 0,
    onlineLatencyMs: options.onlineLatencyMs ?? DEFAULT_ONLINE_LATENCY_MS,
    slowFaultDelayMs: options.slowFaultDelayMs ?? DEFAULT_SLOW_FAULT_DELAY_MS,
  };
  const log = options.log ?? (() => {});
  const fel = createFelSimulator({ ...options.fel, population, seed, log });
  const recurrente = createRecurrenteSimulator({ ...options.recurrente, log });
  const oidc = createOidcSimulator({ ...options.oidc, log });
  const tsa = await createTsaSimulator({ ...options.tsa, log });

  const sockets = new Set<Socket>();
  let lookupsInFlight = 0;
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      log(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) writeAnswer(response, { kind: 'json', status: 500, body: { error: 'simulator internal error' } });
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const started = Date.now();
    const path = new URL(request.url ?? '/', 'http://simulator').pathname;
    if (request.method === 'GET' && (path === '/' || path === '/health')) {
      writeAnswer(response, { kind: 'json', status: 200, body: { status: 'ok', seed, population: population.size, protocols: upstreams.map(describe) } });
      return;
    }
    if (path.startsWith('/fel/')) {
      await fel.serve(request, response, (request.url ?? path).slice('/fel'.length));
      return;
    }
    if (path.startsWith('/oidc/')) {
      await oidc.serve(request, response, (request.url ?? path).slice('/oidc'.length));
      return;
    }
    if (path === '/tsa' || path.startsWith('/tsa/')) {
      await tsa.serve(request, response, (request.url ?? path).slice('/tsa'.length));
      return;
    }
    if (path.startsWith('/recurrente/')) {
      await recurrente.serve(request, response, (request.url ?? path).slice('/recurrente'.length));
      return;
    }
    const upstream = upstreams.find((candidate) => path.startsWith(`${candidate.prefix}/`));
    const operation = upstream === undefined ? undefined : path.slice(upstream.prefix.length);
    if (upstream === undefined || operation === undefined || !upstream.operations.includes(operation)) {
      writeAnswer(response, { kind: 'raw', status: 404, contentType: 'text/plain; charset=utf-8', body: `No route ${request.method} ${path}\n` });
      return;
    }
    if (request.method !== 'POST') {
      response.setHeader('allow', 'POST');
      writeAnswer(response, { kind: 'raw', status: 405, contentType: 'text/plain; charset=utf-8', body: 'Method not allowed\n' });
      return;
    }

    // Aborted when the client goes away (for instance its timeout fired): pending delays stop.
    const abort = new AbortController();
    lookupsInFlight += 1;
    response.once('close', () => {
      lookupsInFlight -= 1;
      if (!response.writableFinished) abort.abort();
    });

    const bodyText = await readBody(request, MAX_BODY_BYTES);
    const latencyOverride = parseLatencyHeader(request.headers[LATENCY_HEADER]);
    let delayMs = latencyOverride ?? timing.latencyMs + Math.floor(Math.random() * timing.latencyJitterMs);
    let answer: SimAnswer | 'drop';
    let fault: FaultName | null = null;

    if (bodyText === null) {
      answer = { kind: 'raw', status: 413, contentType: 'text/plain; charset=utf-8', body: 'Request body too large\n' };
    } else if (!upstream.isAuthorized(request.headers)) {
      answer = upstream.unauthorized();
    } else {
      const body = parseJson(bodyText);
      const headerFault = request.headers[FAULT_HEADER];
      const choice = faultPlan.choose({
        protocol: upstream.protocol,
        headerFault: Array.isArray(headerFault) ? headerFault[0] : headerFault,
        identifiers: body.ok ? upstream.identifiers(body.value) : [],
      });
      if (!choice.ok) {
        answer = { kind: 'raw', status: 400, contentType: 'text/plain; charset=utf-8', body: `${choice.problem}\n` };
      } else {
        fault = choice.fault;
        const now = new Date();
        if (fault === 'connection_dropped') {
          answer = 'drop';
        } else if (fault !== null && fault !== 'slow') {
          answer = upstream.faultAnswer(fault, body.ok ? body.value : undefined, now);
        } else if (!body.ok) {
          answer = upstream.malformedBody();
        } else {
          const outcome = upstream.handle(operation, body.value, now);
          answer = outcome.answer;
          if (outcome.online) delayMs += timing.onlineLatencyMs;
        }
        if (fault === 'slow') delayMs += timing.slowFaultDelayMs;
      }
    }

    const completed = await sleep(delayMs, abort.signal);
    const summary = `${request.method} ${path}${fault === null ? '' : ` fault=${fault}`}`;
    if (!completed) {
      log(`${summary} -> client went away after ${Date.now() - started} ms`);
      return;
    }
    if (answer === 'drop') {
      log(`${summary} -> connection dropped`);
      request.socket.destroy();
      return;
    }
    writeAnswer(response, answer);
    log(`${summary} -> ${answer.status} in ${Date.now() - started} ms`);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  oidc.listening(`http://${host}:${address.port}`);

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    population,
    amendTaxpayer: (nit, amendment) => population.amend(nit, amendment),
    fel,
    recurrente,
    oidc,
    tsa,
    lookupsInFlight: () => lookupsInFlight,
    setFaults(faults) {
      faultPlan = createFaultPlan({ runFaults: typeof faults === 'string' ? parseFaultSpec(faults) : faults, seed });
    },
    setLatency({ latencyMs, latencyJitterMs = 0 }) {
      timing.latencyMs = latencyMs;
      timing.latencyJitterMs = latencyJitterMs;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        // Held-open connections (keep-alive, a slow fault still waiting) would delay close forever.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

function describe(upstream: SimulatedUpstream) {
  return { protocol: upstream.protocol, operations: upstream.operations.map((operation) => `POST ${upstream.prefix}${operation}`) };
}

function writeAnswer(response: ServerResponse, answer: SimAnswer): void {
  const [contentType, text] =
    answer.kind === 'json' ? ['application/json; charset=utf-8', JSON.stringify(answer.body)] : [answer.contentType, answer.body];
  response.writeHead(answer.status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function parseLatencyHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const milliseconds = Number(text);
  return Number.isFinite(milliseconds) && milliseconds >= 0 ? milliseconds : undefined;
}

