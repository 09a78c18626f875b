// The client of the taxpayer lookup gateway (docs/clients.md). Its types are generated from the
// app's OpenAPI document (./openapi.ts); what generation cannot say is here, the same in every
// language: the contract's error per cause, retries only where the contract says they are safe,
// one Idempotency-Key per catalog call kept across its retries, and time-outs above the 30-second
// ceiling.
import { errorOf, ErrorDeConsulta, ServicioNoDisponible, SinRespuesta } from './errors.js';
import type { operations } from './openapi.js';

export * from './errors.js';
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

  private async lookup<Body>(path: string, request: unknown, options: CallOptions, catalog: boolean): Promise<Respuesta<Body>> {
    // Fixed before the first attempt: every retry of this call is the same call, charged once.
    const idempotencyKey = catalog ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : null;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-integracion-login': this.settings.login,
      'x-integracion-token': this.settings.token,
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (options.constancia) headers['x-constancia'] = 'true';
    const payload = JSON.stringify(request);
    for (let attempt = 1; ; attempt++) {
      const last = attempt > this.options.retries;
      let response: Response;
      try {
        response = await this.options.fetch(`${this.baseUrl}${path}`, { method: 'POST', headers, body: payload, signal: this.attemptSignal(options.signal) });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        // No answer: the call may or may not have reached the source. Sending it again with its key is safe.
        if (last) throw new SinRespuesta(`Sin respuesta de ${path}: ${error instanceof Error ? error.message : String(error)}`, 0, null, null);
        await this.pause(attempt, options.signal);
        continue;
      }
      const body = await bodyOf(response);
      const requestId = response.headers.get('x-request-id');
      if (response.status === 200) {
        return {
          body: body as Body,
          status: 200,
          requestId,
          idempotencyKey,
          replayed: response.headers.get('idempotency-replayed') === 'true',
          constancia: constanciaOf(response.headers, options.constancia === true),
          attempts: attempt,
        };
      }
      const error = errorOf(response.status, requestId, body, response.headers);
      if (!(error instanceof ServicioNoDisponible) || last) throw attach(error, attempt);
      await this.pause(attempt, options.signal);
    }
  }

  private attemptSignal(caller: AbortSignal | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    return caller ? AbortSignal.any([caller, timeout]) : timeout;
  }

  /** Exponential backoff with full jitter: 0 to backoffMs·2^(attempt-1), at most maxBackoffMs. */
  private pause(attempt: number, signal: AbortSignal | undefined): Promise<void> {
    const ceiling = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempt - 1));
    const wait = Math.random() * ceiling;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }
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
