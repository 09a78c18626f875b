// A small TypeScript client for the taxpayer lookup API, as an integrator would write it
// (docs/integrators.md). No dependencies: fetch and AbortSignal from Node 18+ or a browser.
// It branches on HTTP status only, never on message texts, which may change without notice.
//
//   const BASE_URL = process.env.BASE_URL!; // the environment's {base_url}: https://<host>/api
//   const LOGIN = process.env.LOGIN!;       // x-integracion-login
//   const TOKEN = process.env.TOKEN!;       // x-integracion-token, from your secrets manager
//   const client = new TaxpayerLookupClient({ baseUrl: BASE_URL, login: LOGIN, token: TOKEN });

export interface ClientOptions {
  /** {base_url} of the environment: https://<host>/api. Never hard-code it. */
  baseUrl: string;
  login: string;
  token: string;
  /** Per attempt. Above the service's 30-second ceiling, so its 502 arrives before our time-out. */
  timeoutMs?: number;
  /** Retries of a 502 (and of a dropped connection or a time-out), with exponential backoff. */
  maxRetries?: number;
  /** First backoff delay; doubled each retry, with jitter. */
  backoffMs?: number;
}

export interface CatalogQuery {
  nit?: string;
  cui?: string;
  /** true: ask the source now (slower, most recent). */
  actualizado?: boolean;
  /** YYYY-MM-DD; only /catalogos/rtu reads it, when the source holds no copy of the record. */
  dateOfBirth?: string;
}

export type LookupResult<T> =
  | { ok: true; status: number; body: T; requestId: string | null; attempts: number }
  | { ok: false; status: number; error: string; requestId: string | null; attempts: number };

/** Envelope of /renap/buscar-cui and /rtu/nits. */
export interface LookupEnvelope<T> {
  success: boolean;
  data: T | null;
  message: string;
  responseCode: number;
}

export interface CodigoDescripcion {
  codigo: number | string | null;
  descripcion: string | null;
}

/** Catalog codes come as numbers or strings and leading zeros matter: compare them as text. */
export function sameCode(a: CodigoDescripcion['codigo'], b: CodigoDescripcion['codigo']): boolean {
  return a !== null && b !== null && String(a) === String(b);
}

/** The CUI in omisos may have spaces between digit groups: strip them before comparing. */
export function sameCui(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

const RETRYABLE = new Set([502]);

export class TaxpayerLookupClient {
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoffMs: number;

  constructor(private readonly options: ClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 35_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
  }

  /** A person by CUI. Check both the HTTP status and the envelope's responseCode. */
  buscarCui(cui: string) {
    return this.post<LookupEnvelope<Record<string, unknown> & { cui: string }>>('/renap/buscar-cui', { cui });
  }

  /** Up to 50 NITs; a query without matches is a 200 with an empty data array. */
  rtuPorNits(nits: string[]) {
    if (nits.length > 50) throw new RangeError('At most 50 NITs per request: split the batch.');
    return this.post<LookupEnvelope<Array<Record<string, unknown> & { nit: string }>>>('/rtu/nits', { nits });
  }

  cuiNit(query: CatalogQuery) {
    return this.post<{ data: Record<string, unknown> }>('/catalogos/cui-nit', catalogBody(query));
  }

  rtu(query: CatalogQuery) {
    return this.post<{ data: Record<string, unknown> }>('/catalogos/rtu', catalogBody(query, true));
  }

  omisos(query: CatalogQuery) {
    return this.post<{ data: Record<string, unknown> }>('/catalogos/omisos', catalogBody(query));
  }

  private async post<T>(path: string, body: unknown): Promise<LookupResult<T>> {
    for (let attempt = 1; ; attempt++) {
      const result = await this.attempt<T>(path, body, attempt);
      // A 502 was not resolved and not charged: retrying duplicates nothing. Every retry spends
      // from the per-minute and global limits, so retries are few and spaced out.
      const retryable = !result.ok && (RETRYABLE.has(result.status) || result.status === 0);
      if (!retryable || attempt > this.maxRetries) return result;
      const delay = this.backoffMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * (delay / 2)));
    }
  }

  private async attempt<T>(path: string, body: unknown, attempts: number): Promise<LookupResult<T>> {
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-integracion-login': this.options.login,
          'x-integracion-token': this.options.token,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { ok: false, status: 0, error: `no answer: ${(error as Error).message}`, requestId: null, attempts };
    }
    const requestId = response.headers.get('x-request-id');
    const text = await response.text();
    // The global per-IP limiter answers in plain text: check the content type before parsing.
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const parsed: unknown = isJson ? JSON.parse(text) : text;
    // The over-50 rejection of /rtu/nits is an envelope with status 400; treat it as the error it is.
    if (response.ok) return { ok: true, status: response.status, body: parsed as T, requestId, attempts };
    return { ok: false, status: response.status, error: describeError(parsed), requestId, attempts };
  }
}

function catalogBody(query: CatalogQuery, readsDateOfBirth = false): Record<string, unknown> {
  return {
    ...(query.nit !== undefined ? { nit: query.nit } : {}),
    ...(query.cui !== undefined ? { cui: query.cui } : {}),
    actualizado: query.actualizado ?? false,
    ...(readsDateOfBirth && query.dateOfBirth !== undefined ? { date_of_birth: query.dateOfBirth } : {}),
  };
}

/** For logs and support tickets only; never branch on it. */
function describeError(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    return String(fields.message ?? fields.error ?? JSON.stringify(body));
  }
  return String(body);
}
