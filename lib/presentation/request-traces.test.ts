// The one sentence support reads, and repeats to the integrator, for a request id that left no
// query record (issue 32, point 1): who, which route, the status the integrator got and why, when
// (Guatemala's time), that nothing was charged, and, for an answer the gateway could not serve,
// what the integrator should do.
import { describe, expect, it } from 'vitest';
import type { UnservedCause } from '@/db/schema';
import { describeRequestTrace } from './request-traces';
import type { RequestTrace } from '@/lib/core/request-traces/read';
import { unservedStatus } from '@/lib/core/request-traces/statuses';

const AT = new Date('2026-11-24T10:02:09.000Z');
const COOP = { id: 7, nombre: 'coop-ejemplo', legalName: null };

function unserved(lookup: RequestTrace['lookup'], cause: UnservedCause, integration: RequestTrace['integration'] = COOP): RequestTrace {
  return { kind: 'unserved', requestId: 'req_5f0c3a9d2b7e41c8a6f1', at: AT, lookup, httpStatus: unservedStatus(lookup, cause), integration, cause };
}

describe('describeRequestTrace', () => {
  it('says what a catalog answered when the service could not serve it, that it was not charged, and what to do', () => {
    expect(describeRequestTrace(unserved('cui_nit', 'shed'))).toBe(
      'req_5f0c3a9d2b7e41c8a6f1: coop-ejemplo, /api/catalogos/cui-nit, 502 servicio saturado, 24/11/2026, 04:02:09, sin cobro: reintente en unos segundos',
    );
    expect(describeRequestTrace(unserved('omisos', 'key_in_use'))).toBe(
      'req_5f0c3a9d2b7e41c8a6f1: coop-ejemplo, /api/catalogos/omisos, 502 Idempotency-Key en uso por una solicitud aún en curso, 24/11/2026, 04:02:09, sin cobro: reintente con la misma Idempotency-Key',
    );
    expect(describeRequestTrace(unserved('rtu', 'source_not_sent'))).toBe(
      'req_5f0c3a9d2b7e41c8a6f1: coop-ejemplo, /api/catalogos/rtu, 502 fuente fuera de servicio o sin capacidad, no consultada, 24/11/2026, 04:02:09, sin cobro: reintente en unos minutos',
    );
    expect(describeRequestTrace(unserved('cui_nit', 'unhandled'))).toBe(
      'req_5f0c3a9d2b7e41c8a6f1: coop-ejemplo, /api/catalogos/cui-nit, 500 error interno del servicio, 24/11/2026, 04:02:09, sin cobro: reintente; si vuelve a fallar, avísenos',
    );
  });

  it('gives the registries their 500 (they have no 502), and names no integration the service could not check', () => {
    expect(describeRequestTrace(unserved('renap', 'shed'))).toBe(
      'req_5f0c3a9d2b7e41c8a6f1: coop-ejemplo, /api/renap/buscar-cui, 500 servicio saturado, 24/11/2026, 04:02:09, sin cobro: reintente en unos segundos',
    );
    expect(describeRequestTrace(unserved('rtu_nits', 'credentials_unavailable', null))).toBe(
      'req_5f0c3a9d2b7e41c8a6f1: sin integración identificada, /api/rtu/nits, 500 credenciales no verificables por una falla del servicio, 24/11/2026, 04:02:09, sin cobro: reintente en unos segundos',
    );
    expect(describeRequestTrace(unserved('cui_nit', 'credentials_unavailable', null))).toContain(
      '/api/catalogos/cui-nit, 502 credenciales no verificables por una falla del servicio,',
    );
  });

  it('reads refusals and replays as before', () => {
    expect(
      describeRequestTrace({ kind: 'refusal', requestId: 'req_refused', at: AT, lookup: 'cui_nit', httpStatus: 402, integration: COOP, reason: 'balance_exhausted' }),
    ).toBe('req_refused: coop-ejemplo, /api/catalogos/cui-nit, 402 sin saldo, 24/11/2026, 04:02:09, sin cobro');
    expect(
      describeRequestTrace({ kind: 'refusal', requestId: 'req_get', at: AT, lookup: 'rtu_nits', httpStatus: 405, integration: null, reason: 'method_not_allowed' }),
    ).toBe('req_get: sin integración identificada, /api/rtu/nits, 405 método no permitido: las consultas son POST, 24/11/2026, 04:02:09, sin cobro');
    expect(
      describeRequestTrace({ kind: 'replay', requestId: 'req_replay', at: AT, lookup: 'omisos', httpStatus: 200, integration: COOP, replayOf: 'req_original', originalRecordId: null }),
    ).toBe('req_replay: coop-ejemplo, /api/catalogos/omisos, 200, repetición de req_original con la misma Idempotency-Key, 24/11/2026, 04:02:09, sin cobro');
  });
});
