// Client of the person registry (RENAP), docs/sources.md "Person registry". The gateway's
// /renap/buscar-cui answers with the registry's own HTTP status and responseCode, so this client
// does not classify statuses: it reports what the registry said, or that it said nothing usable.

import type { SourceFault } from './faults';
import { guarded, type SourceGuard } from './guard';
import { excerpt, joinUrl, parseJsonText, postJson } from './http';
import { asObject, member } from './source-values';

export const RENAP_SEARCH_PATH = '/v1/personas/consulta-cui';

/**
 * ok: true whenever the registry answered with its own body, whatever the HTTP status; a 200
 * can still carry an error responseCode, so callers check both. `data` is the person record as
 * published (it always has `cui`), or null. ok: false means no usable answer (no response,
 * timeout, a body that is not the registry's): the gateway answers 500.
 */
export type RenapAnswer =
  | { ok: true; httpStatus: number; responseCode: number; message: string; data: Record<string, unknown> | null }
  | { ok: false; detail: string; fault: SourceFault; notSent?: true };

export interface RenapClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** For tests: a fetch to call instead of the default node:http transport (lib/sources/http.ts). */
  fetch?: typeof fetch;
  /** Circuit breaker and bulkhead of this source (lib/sources/guard.ts); none in unit tests. */
  guard?: SourceGuard;
}

export interface RenapClient {
  searchByCui(cui: string): Promise<RenapAnswer>;
}

/** Reads the registry's body: `{responseCode: integer, message: string, data: object with cui | null}`. */
export function interpretRenapAnswer(httpStatus: number, bodyText: string): RenapAnswer {
  const failed = (reason: string): RenapAnswer => ({
    ok: false,
    detail: `person registry answered HTTP ${httpStatus} ${reason}: ${excerpt(bodyText)}`,
    fault: { kind: 'unreadable', status: httpStatus },
  });
  const parsed = parseJsonText(bodyText);
  if (!parsed.ok) return failed('with a body that is not JSON');
  const body = asObject(parsed.value);
  if (body === null) return failed('with JSON that is not an object');
  const responseCode = member(body, 'responseCode');
  if (typeof responseCode !== 'number' || !Number.isSafeInteger(responseCode)) return failed('without an integer responseCode');
  const message = member(body, 'message');
  const data = member(body, 'data');
  if (data !== undefined && data !== null) {
    const record = asObject(data);
    if (record === null || typeof member(record, 'cui') !== 'string') return failed('with a data record that has no cui');
    return { ok: true, httpStatus, responseCode, message: typeof message === 'string' ? message : '', data: record };
  }
  return { ok: true, httpStatus, responseCode, message: typeof message === 'string' ? message : '', data: null };
}

export function createRenapClient(options: RenapClientOptions): RenapClient {
  const fetchImplementation = options.fetch;
  return {
    async searchByCui(cui) {
      const exchange = await guarded(options.guard, () =>
        postJson({
        fetch: fetchImplementation,
        url: joinUrl(options.baseUrl, RENAP_SEARCH_PATH),
        headers: { 'x-api-key': options.apiKey },
        body: { cui },
        timeoutMs: options.timeoutMs,
        }),
      );
      if (!exchange.ok) return { ok: false, detail: `person registry: ${exchange.detail}`, fault: exchange.fault, ...('notSent' in exchange ? { notSent: true as const } : {}) };
      return interpretRenapAnswer(exchange.status, exchange.bodyText);
    },
  };
}
