// Client of the RTU registry (batch by NIT), docs/sources.md "RTU registry". It refuses more than
// 50 NITs itself, before any network call: the contract's over-50 rejection comes from here.

import type { SourceFault } from './faults';
import { guarded, type SourceGuard } from './guard';
import { excerpt, joinUrl, parseJsonText, postJson } from './http';
import { asObject, member } from './source-values';

export const RTU_MAX_NITS = 50;
export const RTU_SEARCH_PATH = '/v1/contribuyentes/consulta-nits';

export type RtuRecord = Record<string, unknown> & { nit: string };

/** The records found, as the registry publishes them; or the refusal; or the registry failing. */
export type RtuAnswer =
  | { ok: true; records: RtuRecord[] }
  | { ok: false; reason: 'too_many_nits' }
  | { ok: false; reason: 'failed'; detail: string; fault: SourceFault; notSent?: true };

export interface RtuClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** For tests: a fetch to call instead of the default node:http transport (lib/sources/http.ts). */
  fetch?: typeof fetch;
  /** Circuit breaker and bulkhead of this source (lib/sources/guard.ts); none in unit tests. */
  guard?: SourceGuard;
}

export interface RtuClient {
  searchByNits(nits: string[]): Promise<RtuAnswer>;
}

/** Reads the registry's 200 body `{contribuyentes: [{nit, ...}]}`; anything else is a failure. */
export function interpretRtuAnswer(httpStatus: number, bodyText: string): RtuAnswer {
  const failed = (reason: string, fault: SourceFault = { kind: 'unreadable', status: httpStatus }): RtuAnswer => ({
    ok: false,
    reason: 'failed',
    detail: `RTU registry answered HTTP ${httpStatus} ${reason}: ${excerpt(bodyText)}`,
    fault,
  });
  if (httpStatus !== 200) return failed('(not a success)', { kind: 'status', status: httpStatus });
  const parsed = parseJsonText(bodyText);
  if (!parsed.ok) return failed('with a body that is not JSON');
  const records = member(asObject(parsed.value), 'contribuyentes');
  if (!Array.isArray(records)) return failed('without a contribuyentes list');
  const valid: RtuRecord[] = [];
  for (const record of records) {
    const object = asObject(record);
    const nit = member(object, 'nit');
    // A record without its NIT cannot be matched to the request: the answer breaks the protocol.
    if (object === null || typeof nit !== 'string' || nit === '') return failed('with a record that has no nit');
    valid.push(object as RtuRecord);
  }
  return { ok: true, records: valid };
}

export function createRtuClient(options: RtuClientOptions): RtuClient {
  const fetchImplementation = options.fetch;
  return {
    async searchByNits(nits) {
      if (nits.length > RTU_MAX_NITS) return { ok: false, reason: 'too_many_nits' };
      const exchange = await guarded(options.guard, () =>
        postJson({
        fetch: fetchImplementation,
        url: joinUrl(options.baseUrl, RTU_SEARCH_PATH),
        headers: { authorization: `Bearer ${options.apiKey}` },
        body: { nits },
        timeoutMs: options.timeoutMs,
        }),
      );
      if (!exchange.ok) return { ok: false, reason: 'failed', detail: `RTU registry: ${exchange.detail}`, fault: exchange.fault, ...('notSent' in exchange ? { notSent: true as const } : {}) };
      return interpretRtuAnswer(exchange.status, exchange.bodyText);
    },
  };
}
