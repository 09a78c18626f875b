// The client of the taxpayer lookup gateway (docs/clients.md). Its types are generated from the
// app's OpenAPI document (./openapi.ts); what generation cannot say is here, the same in every
// language: the contract's error per cause, retries only where the contract says they are safe,
// one Idempotency-Key per catalog call kept across its retries, and time-outs above the 30-second
// ceiling.
import { errorOf, ErrorDeConsulta, ServicioNoDisponible, SinRespuesta } from './errors.js';
import type { components, operations } from './openapi.js';

export * from './errors.js';
export { verificarAviso } from './webhooks.js';
export type { components, operations, paths } from './openapi.js';

type JsonBody<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;
type Success<O extends keyof operations> = operations[O] extends { responses: { 200: { content: { 'application/json': infer Answer } } } } ? Answer : never;

export type RenapRequest = JsonBody<'searchRenapByCui'>;
export type RenapAnswer = Success<'searchRenapByCui'>;
export type RtuNitsRequest = JsonBody<'searchRtuByNits'>;
export type RtuNitsAnswer = Success<'searchRtuByNits'>;
export type CatalogRequest = JsonBody<'lookupCuiNit'>;
export type CuiNitAnswer = Success<'lookupCuiNit'>;
export type RtuAnswer = Success<'lookupRtuV2'>;
export type OmisosAnswer = Success<'lookupOmisos'>;

export interface ClienteOptions {
  /** The deployment's API address, as the service gave it (production or development), e.g. https://…/api. Never assumed. */
  baseUrl: string;
  /** The integration's name (x-integracion-login). */
  login: string;
  /** The integration's token (x-integracion-token). */
  token: string;
  /** How long one attempt may take. Above the contract's 30-second ceiling, so a slow source answers 502 instead of a cut connection. */
  timeoutMs?: number;
  /** How many times a 502 or a failed connection is retried (never a 429 nor another 4xx). */
  retries?: number;
  /** The first retry's wait; each next one doubles, with full jitter, up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Another fetch (a proxy's, a test's); the platform's by default. */
  fetch?: typeof fetch;
}

/** Per call: ask for a constancia de consulta, or name the catalog call with your own Idempotency-Key. */
export interface CallOptions {
  constancia?: boolean;
  /** For a catalog: the key of this logical call (a UUID is made once per call otherwise) and kept on every retry. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** An answer with what its headers said beside the contract's body. */
export interface Respuesta<Body> {
  body: Body;
  status: number;
  requestId: string | null;
  /** The Idempotency-Key this call sent (catalogs), the same on every retry. */
  idempotencyKey: string | null;
  /** The same answer given again for a repeated Idempotency-Key (nothing charged again). */
  replayed: boolean;
  /** With constancia: true, the receipt's id and address, or why none was issued. */
  constancia: { id: string; url: string } | { motivo: string } | null;
  /** How many attempts it took (1 unless a 502 or a failed connection was retried). */
  attempts: number;
}

export const DEFAULT_TIMEOUT_MS = 45_000;
export const DEFAULT_RETRIES = 3;

type Query = Record<string, string | number | undefined>;
type Schemas = components['schemas'];
export type Cuenta = Schemas['Cuenta'];
export type Movimiento = Schemas['Movimiento'];
export type ConsultaResumen = Schemas['Consultas']['consultas'][number];
export type Lote = Schemas['Lote'];
export type LoteRequest = Schemas['LoteRequest'];
export type LoteResultado = Schemas['LoteResultado'];
export type Vigilancia = Schemas['Vigilancia'];
export type VigilanciaRequest = Schemas['VigilanciaRequest'];
export type VigilanciaCambio = Schemas['VigilanciaCambio'];
export type VigilanciaCambioRequest = Schemas['VigilanciaCambioRequest'];

/** What one request sends; the transport adds the credentials, the time-out and the retries. */
interface Sent {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Query;
  json?: unknown;
  headers?: Record<string, string>;
  accept?: string;
  signal?: AbortSignal;
}

interface Received {
  status: number;
  body: unknown;
  headers: Headers;
  requestId: string | null;
  attempts: number;
}

/** A job's states after which nothing more happens to it. */
const FINISHED_JOB_STATES = new Set(['completado', 'cancelado']);

export class ClienteConsultas {
  private readonly baseUrl: string;
  private readonly options: Required<Omit<ClienteOptions, 'baseUrl' | 'login' | 'token' | 'fetch'>> & { fetch: typeof fetch };

  constructor(private readonly settings: ClienteOptions) {
    if (!settings.baseUrl) throw new TypeError('baseUrl is required: the API address of the deployment (production or development)');
    if (!settings.login || !settings.token) throw new TypeError('login and token are required: the integration’s two credentials');
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
    this.options = {
      timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retries: settings.retries ?? DEFAULT_RETRIES,
      backoffMs: settings.backoffMs ?? 500,
      maxBackoffMs: settings.maxBackoffMs ?? 8_000,
      fetch: settings.fetch ?? globalThis.fetch.bind(globalThis),
    };
  }

  /** POST /renap/buscar-cui: the person registry by CUI. */
  renap(request: RenapRequest, options: CallOptions = {}): Promise<Respuesta<RenapAnswer>> {
    return this.lookup('/renap/buscar-cui', request, options, false);
  }

  /** POST /rtu/nits: the RTU of up to 50 NITs. */
  rtuNits(request: RtuNitsRequest, options: CallOptions = {}): Promise<Respuesta<RtuNitsAnswer>> {
    return this.lookup('/rtu/nits', request, options, false);
  }

  /** POST /catalogos/cui-nit (charged). */
  cuiNit(request: CatalogRequest, options: CallOptions = {}): Promise<Respuesta<CuiNitAnswer>> {
    return this.lookup('/catalogos/cui-nit', request, options, true);
  }

  /** POST /catalogos/rtu (charged). */
  rtu(request: CatalogRequest, options: CallOptions = {}): Promise<Respuesta<RtuAnswer>> {
    return this.lookup('/catalogos/rtu', request, options, true);
  }

  /** POST /catalogos/omisos (charged). */
  omisos(request: CatalogRequest, options: CallOptions = {}): Promise<Respuesta<OmisosAnswer>> {
    return this.lookup('/catalogos/omisos', request, options, true);
  }

  /** GET /cuenta: the balance, tariff, enabled lookups, limits and spending. */
  async cuenta(): Promise<Cuenta> {
    return (await this.send({ method: 'GET', path: '/cuenta' })).body as Cuenta;
  }

  /** GET /cuenta/movimientos, every page: newest first. */
  movimientos(filters: { desde?: string; hasta?: string; tipo?: Movimiento['tipo'] } = {}): AsyncGenerator<Movimiento> {
    return this.pages<Movimiento>('/cuenta/movimientos', 'movimientos', filters);
  }

  /** GET /consultas, every page: the integration's queries, newest first. */
  consultas(filters: { consulta?: string; estado?: number; resultado?: string; desde?: string; hasta?: string } = {}): AsyncGenerator<ConsultaResumen> {
    return this.pages<ConsultaResumen>('/consultas', 'consultas', filters);
  }

  /** GET /consultas/{request_id}: what happened to one request. */
  async consulta(requestId: string): Promise<unknown> {
    return (await this.send({ method: 'GET', path: `/consultas/${encodeURIComponent(requestId)}` })).body;
  }

  /** POST /lotes: a bulk job, sent once whatever the retries (one Idempotency-Key per call). */
  async crearLote(request: LoteRequest, options: { idempotencyKey?: string } = {}): Promise<Lote> {
    const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    return (await this.send({ method: 'POST', path: '/lotes', json: request, headers: { 'idempotency-key': key } })).body as Lote;
  }

  /** GET /lotes/{id}. */
  async lote(id: string): Promise<Lote> {
    return (await this.send({ method: 'GET', path: `/lotes/${encodeURIComponent(id)}` })).body as Lote;
  }

  /** GET /lotes, every page. */
  lotes(): AsyncGenerator<Lote> {
    return this.pages<Lote>('/lotes', 'lotes', {});
  }

  /**
   * Waits until the job is completed or cancelled, reading it every `intervalMs` and telling
   * `onProgress` each reading. A job paused for balance waits for a top-up: stop it with `signal`.
   */
  async esperarLote(id: string, options: { intervalMs?: number; onProgress?: (job: Lote) => void; signal?: AbortSignal } = {}): Promise<Lote> {
    for (;;) {
      const job = await this.lote(id);
      options.onProgress?.(job);
      if (FINISHED_JOB_STATES.has(job.estado)) return job;
      await sleep(options.intervalMs ?? 2_000, options.signal);
    }
  }

  /** GET /lotes/{id}/resultados as JSON lines, one result at a time. */
  async *resultadosLote(id: string): AsyncGenerator<LoteResultado> {
    const { body } = await this.send({ method: 'GET', path: `/lotes/${encodeURIComponent(id)}/resultados`, accept: 'application/x-ndjson' });
    for (const line of String(body).split('\n')) if (line.trim() !== '') yield JSON.parse(line) as LoteResultado;
  }

  /** GET /lotes/{id}/resultados as CSV, the text as served. */
  async resultadosLoteCsv(id: string): Promise<string> {
    return String((await this.send({ method: 'GET', path: `/lotes/${encodeURIComponent(id)}/resultados`, accept: 'text/csv' })).body);
  }

  /** POST /vigilancias: a watch list, created once whatever the retries. */
  async crearVigilancia(request: VigilanciaRequest, options: { idempotencyKey?: string } = {}): Promise<Vigilancia> {
    const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
    return (await this.send({ method: 'POST', path: '/vigilancias', json: request, headers: { 'idempotency-key': key } })).body as Vigilancia;
  }

  /** GET /vigilancias, every page. */
  vigilancias(): AsyncGenerator<Vigilancia> {
    return this.pages<Vigilancia>('/vigilancias', 'vigilancias', {});
  }

  /** GET /vigilancias/{id}. */
  async vigilancia(id: string): Promise<Vigilancia> {
    return (await this.send({ method: 'GET', path: `/vigilancias/${encodeURIComponent(id)}` })).body as Vigilancia;
  }

  /** PATCH /vigilancias/{id}: its name, schedule, state, NITs or constancias. */
  async modificarVigilancia(id: string, change: VigilanciaCambioRequest): Promise<Vigilancia> {
    return (await this.send({ method: 'PATCH', path: `/vigilancias/${encodeURIComponent(id)}`, json: change })).body as Vigilancia;
  }

  /** DELETE /vigilancias/{id}. */
  async eliminarVigilancia(id: string): Promise<void> {
    await this.send({ method: 'DELETE', path: `/vigilancias/${encodeURIComponent(id)}` });
  }

  /** GET /vigilancias/{id}/cambios, every page: newest first. */
  cambiosVigilancia(id: string): AsyncGenerator<VigilanciaCambio> {
    return this.pages<VigilanciaCambio>(`/vigilancias/${encodeURIComponent(id)}/cambios`, 'cambios', {});
  }

  private async lookup<Body>(path: string, request: unknown, options: CallOptions, catalog: boolean): Promise<Respuesta<Body>> {
    // Fixed before the first attempt: every retry of this call is the same call, charged once.
    const idempotencyKey = catalog ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : null;
    const headers: Record<string, string> = {};
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (options.constancia) headers['x-constancia'] = 'true';
    const answer = await this.send({ method: 'POST', path, json: request, headers, signal: options.signal });
    return {
      body: answer.body as Body,
      status: answer.status,
      requestId: answer.requestId,
      idempotencyKey,
      replayed: answer.headers.get('idempotency-replayed') === 'true',
      constancia: constanciaOf(answer.headers, options.constancia === true),
      attempts: answer.attempts,
    };
  }

  /** Every item of a list the API pages with `siguiente` (a cursor), page after page. */
  private async *pages<Item>(path: string, field: string, filters: Query): AsyncGenerator<Item> {
    let cursor: string | undefined;
    do {
      const { body } = await this.send({ method: 'GET', path, query: { ...filters, cursor } });
      const page = body as Record<string, unknown> & { siguiente?: string | null };
      for (const item of (page[field] as Item[] | undefined) ?? []) yield item;
      cursor = page.siguiente ?? undefined;
    } while (cursor);
  }

  /** One request, with the credentials; a 502 or a failed connection retried, anything else not 2xx thrown as its cause. */
  private async send(sent: Sent): Promise<Received> {
    const url = new URL(`${this.baseUrl}${sent.path}`);
    for (const [name, value] of Object.entries(sent.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      'x-integracion-login': this.settings.login,
      'x-integracion-token': this.settings.token,
      accept: sent.accept ?? 'application/json',
      ...sent.headers,
    };
    if (sent.json !== undefined) headers['content-type'] = 'application/json';
    const payload = sent.json === undefined ? undefined : JSON.stringify(sent.json);
    for (let attempt = 1; ; attempt++) {
      const last = attempt > this.options.retries;
      let response: Response;
      try {
        response = await this.options.fetch(url, { method: sent.method, headers, body: payload, signal: this.attemptSignal(sent.signal) });
      } catch (error) {
        if (sent.signal?.aborted) throw error;
        // No answer: the request may or may not have arrived. Sent again with the same key, it counts once.
        if (last) throw new SinRespuesta(`Sin respuesta de ${sent.path}: ${error instanceof Error ? error.message : String(error)}`, 0, null, null);
        await sleep(this.backoff(attempt), sent.signal);
        continue;
      }
      const body = await bodyOf(response);
      const requestId = response.headers.get('x-request-id');
      if (response.ok) return { status: response.status, body, headers: response.headers, requestId, attempts: attempt };
      const error = errorOf(response.status, requestId, body, response.headers);
      if (!(error instanceof ServicioNoDisponible) || last) throw attach(error, attempt);
      await sleep(this.backoff(attempt), sent.signal);
    }
  }

  private attemptSignal(caller: AbortSignal | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    return caller ? AbortSignal.any([caller, timeout]) : timeout;
  }

  /** Exponential backoff with full jitter: 0 to backoffMs·2^(attempt-1), at most maxBackoffMs. */
  private backoff(attempt: number): number {
    return Math.random() * Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempt - 1));
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

function attach(error: ErrorDeConsulta, attempts: number): ErrorDeConsulta {
  return Object.assign(error, { attempts });
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function constanciaOf(headers: Headers, asked: boolean): Respuesta<unknown>['constancia'] {
  if (!asked) return null;
  const id = headers.get('x-constancia-id');
  const url = headers.get('x-constancia-url');
  if (id && url) return { id, url };
  return { motivo: headers.get('x-constancia-motivo') ?? 'no-disponible' };
}
