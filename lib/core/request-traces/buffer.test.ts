// The request traces' buffer: a refusal or an answer the service could not serve traced by its
// request id (and a replay by the request it repeated) costs no database trip until the flush; past
// REQUEST_TRACE_MAX_PER_MINUTE of them in a minute they are only counted; a failed write keeps
// them; old ones go with the retention job.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { metrics } from '@/lib/platform/metrics/registry';
import { countRefusal, flushRefusals } from '@/lib/core/rollups/refusals';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '../../../tests/support/test-database';
import { flushRequestTraces, traceReplay, traceUnserved } from './buffer';
import { purgeExpiredRequestTraces, requestTrace, untracedSince } from './read';

let testDatabase: TestDatabase;
let coopId = 0;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const created = await createIntegration({ kind: 'system', name: 'test' }, { nombre: 'coop-ejemplo' });
  if (!created.ok) throw new Error(created.error.message);
  coopId = created.value.integration.id;
});

afterAll(async () => {
  delete process.env.REQUEST_TRACE_MAX_PER_MINUTE;
  resetEnvCache();
  await testDatabase?.cleanup();
});

beforeEach(async () => {
  await flushRequestTraces();
  await flushRefusals();
  await (await database()).rows(sql`delete from request_traces`);
  await (await database()).rows(sql`delete from request_trace_overflow`);
});

describe('request traces', () => {
  it('keep a refusal by its request id with the status the integrator got, written only by the flush', async () => {
    await database();
    const roundTrips = async () => (await metrics().databaseRoundTrips.get()).values.reduce((total, value) => total + value.value, 0);
    const before = await roundTrips();
    const at = new Date('2026-11-24T10:02:09.000Z');
    countRefusal({ integrationId: coopId, lookup: 'cui_nit', reason: 'balance_exhausted', requestId: 'req_refused402' }, at);
    countRefusal({ lookup: 'renap', reason: 'credentials_invalid', requestId: 'req_refused403' }, at);
    countRefusal({ lookup: 'omisos', reason: 'ip_not_allowed', integrationId: coopId, requestId: 'req_refused401' }, at);
    expect(await roundTrips()).toBe(before);
    expect(await requestTrace('req_refused402')).toBeUndefined();

    await flushRequestTraces();
    expect(await requestTrace('req_refused402')).toEqual({
      kind: 'refusal',
      requestId: 'req_refused402',
      at,
      lookup: 'cui_nit',
      httpStatus: 402,
      reason: 'balance_exhausted',
      integration: { id: coopId, nombre: 'coop-ejemplo', legalName: null },
    });
    // The registries answer missing and wrong credentials with one 403; the catalogs a wrong one with 401.
    expect(await requestTrace('req_refused403')).toMatchObject({ httpStatus: 403, integration: null, reason: 'credentials_invalid' });
    expect(await requestTrace('req_refused401')).toMatchObject({ httpStatus: 401, reason: 'ip_not_allowed' });
    countRefusal({ lookup: 'omisos', reason: 'method_not_allowed', requestId: 'req_refused405' }, at);
    await flushRequestTraces();
    expect(await requestTrace('req_refused405')).toMatchObject({ httpStatus: 405, integration: null, reason: 'method_not_allowed' });
  });

  it('lead a replay to the request it repeated', async () => {
    traceReplay({ requestId: 'req_replay', integrationId: coopId, lookup: 'omisos', httpStatus: 200, replayOf: 'req_original' });
    await flushRequestTraces();
    expect(await requestTrace('req_replay')).toMatchObject({ kind: 'replay', replayOf: 'req_original', originalRecordId: null, httpStatus: 200 });
  });

  it('keep an answer the service could not serve with its cause and the status its route family gave', async () => {
    const at = new Date('2026-11-24T10:02:09.000Z');
    traceUnserved({ requestId: 'req_shed', integrationId: coopId, lookup: 'cui_nit', cause: 'shed' }, at);
    traceUnserved({ requestId: 'req_shedrenap', integrationId: coopId, lookup: 'renap', cause: 'shed' }, at);
    traceUnserved({ requestId: 'req_nocopy', lookup: 'omisos', cause: 'credentials_unavailable' }, at);
    traceUnserved({ requestId: 'req_crashed', integrationId: coopId, lookup: 'rtu', cause: 'unhandled' }, at);
    expect(await requestTrace('req_shed')).toBeUndefined();
    await flushRequestTraces();
    expect(await requestTrace('req_shed')).toEqual({
      kind: 'unserved',
      requestId: 'req_shed',
      at,
      lookup: 'cui_nit',
      httpStatus: 502,
      cause: 'shed',
      integration: { id: coopId, nombre: 'coop-ejemplo', legalName: null },
    });
    // The registries have no 502: their "unavailable" is the 500; an unexpected error is a 500 everywhere.
    expect(await requestTrace('req_shedrenap')).toMatchObject({ kind: 'unserved', httpStatus: 500, cause: 'shed' });
    expect(await requestTrace('req_nocopy')).toMatchObject({ kind: 'unserved', httpStatus: 502, cause: 'credentials_unavailable', integration: null });
    expect(await requestTrace('req_crashed')).toMatchObject({ kind: 'unserved', httpStatus: 500, cause: 'unhandled' });
  });

  it('trace at most REQUEST_TRACE_MAX_PER_MINUTE refusals and unserved answers a minute per instance, and count the rest', async () => {
    process.env.REQUEST_TRACE_MAX_PER_MINUTE = '5';
    resetEnvCache();
    try {
      // An overload: thousands shed in a minute, beside the refusals of the same minute.
      const minute = new Date('2026-11-24T11:05:00.000Z');
      countRefusal({ lookup: 'cui_nit', reason: 'credentials_invalid', requestId: 'req_refusedfirst' }, minute);
      for (let index = 0; index < 2_000; index++) {
        traceUnserved({ requestId: `req_shed${index}`, integrationId: coopId, lookup: 'omisos', cause: 'shed' }, new Date(minute.getTime() + 1 + index));
      }
      countRefusal({ lookup: 'cui_nit', reason: 'credentials_invalid', requestId: 'req_refusedlast' }, new Date(minute.getTime() + 5_000));
      await flushRequestTraces();
      const [{ traced }] = (await (await database()).rows<{ traced: number | string }>(sql`select count(*) as traced from request_traces`)) as [
        { traced: number | string },
      ];
      expect(Number(traced)).toBe(5);
      expect(await requestTrace('req_refusedfirst')).toBeDefined();
      expect(await requestTrace('req_shed3')).toMatchObject({ cause: 'shed' });
      expect(await requestTrace('req_shed4')).toBeUndefined();
      expect(await requestTrace('req_refusedlast')).toBeUndefined();
      expect(await untracedSince(new Date('2026-11-24T11:59:00.000Z'), 24)).toBe(1_997);

      // Replays stay uncapped: they passed the integration's credentials and its per-minute limit.
      traceReplay({ requestId: 'req_replaypastcap', integrationId: coopId, lookup: 'omisos', httpStatus: 200, replayOf: 'req_original' }, new Date(minute.getTime() + 6_000));
      await flushRequestTraces();
      expect(await requestTrace('req_replaypastcap')).toMatchObject({ kind: 'replay' });
    } finally {
      delete process.env.REQUEST_TRACE_MAX_PER_MINUTE;
      resetEnvCache();
    }
  });

  it('trace at most REQUEST_TRACE_MAX_PER_MINUTE refusals a minute per instance and count the rest', async () => {
    process.env.REQUEST_TRACE_MAX_PER_MINUTE = '5';
    resetEnvCache();
    try {
      const minute = new Date('2026-11-24T10:05:00.000Z');
      for (let index = 0; index < 2_000; index++) {
        countRefusal({ lookup: 'cui_nit', reason: 'credentials_invalid', requestId: `req_flood${index}` }, new Date(minute.getTime() + index));
      }
      // The next minute traces again.
      countRefusal({ lookup: 'cui_nit', reason: 'credentials_invalid', requestId: 'req_nextminute' }, new Date(minute.getTime() + 60_000));
      await flushRequestTraces();
      const [{ traced }] = (await (await database()).rows<{ traced: number | string }>(sql`select count(*) as traced from request_traces`)) as [
        { traced: number | string },
      ];
      expect(Number(traced)).toBe(6);
      expect(await requestTrace('req_flood4')).toBeDefined();
      expect(await requestTrace('req_flood5')).toBeUndefined();
      expect(await requestTrace('req_nextminute')).toBeDefined();
      expect(await untracedSince(new Date('2026-11-24T10:59:00.000Z'), 24)).toBe(1_995);
    } finally {
      delete process.env.REQUEST_TRACE_MAX_PER_MINUTE;
      resetEnvCache();
    }
  });

  it('are kept for the next flush when the write fails, and deleted past their retention', async () => {
    countRefusal({ lookup: 'rtu', reason: 'rate_limited', integrationId: coopId, requestId: 'req_kept' }, new Date('2026-11-01T10:00:00.000Z'));
    traceUnserved({ requestId: 'req_keptshed', integrationId: coopId, lookup: 'rtu', cause: 'shed' }, new Date('2026-11-01T10:00:01.000Z'));
    await (await database()).rows(sql`alter table request_traces rename to request_traces_away`);
    try {
      await expect(flushRequestTraces()).rejects.toThrow();
    } finally {
      await (await database()).rows(sql`alter table request_traces_away rename to request_traces`);
    }
    await flushRequestTraces();
    expect(await requestTrace('req_kept')).toMatchObject({ httpStatus: 429, reason: 'rate_limited' });
    expect(await requestTrace('req_keptshed')).toMatchObject({ httpStatus: 502, cause: 'shed' });

    expect(await purgeExpiredRequestTraces(7, new Date('2026-11-07T09:00:00.000Z'))).toBe(0);
    expect(await purgeExpiredRequestTraces(7, new Date('2026-11-08T11:00:00.000Z'))).toBe(2);
    expect(await requestTrace('req_kept')).toBeUndefined();
    expect(await requestTrace('req_keptshed')).toBeUndefined();
  });
});
