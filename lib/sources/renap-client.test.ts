// The person-registry client against the simulator over real HTTP. The client reports what the
// registry said (status, responseCode, record) or that it said nothing usable.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_DEV_CREDENTIALS } from '@/lib/sources/settings';
import { FAULT_IDENTIFIERS } from '../../simulator/faults';
import { samplePopulation } from '../../simulator/population';
import { DEFAULT_SIMULATOR_SEED, startSimulator, type RunningSimulator } from '../../simulator/server';
import { createRenapClient, interpretRenapAnswer, type RenapClientOptions } from './renap-client';

const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, slowFaultDelayMs: 10_000 });
});
afterAll(async () => {
  await simulator.close();
});

function client(overrides: Partial<RenapClientOptions> = {}) {
  return createRenapClient({ baseUrl: `${simulator.url}/renap`, apiKey: SIMULATOR_DEV_CREDENTIALS.renapApiKey, timeoutMs: 5_000, ...overrides });
}

describe('person registry client', () => {
  it('returns the person record as published, with its cui', async () => {
    const answer = await client().searchByCui(sample.individual.cui ?? '');
    expect(answer).toMatchObject({ ok: true, httpStatus: 200, responseCode: 200 });
    if (answer.ok) {
      expect(answer.data).toMatchObject({ cui: sample.individual.cui });
      expect(answer.data).toHaveProperty('primer_apellido');
      expect(answer.data).toHaveProperty('fecha_nacimiento');
    }
  });

  it('reports an unknown CUI as the registry does: HTTP 200 carrying responseCode 404', async () => {
    expect(await client().searchByCui(sample.unknownCui)).toEqual({
      ok: true,
      httpStatus: 200,
      responseCode: 404,
      message: 'No se encontró registro para el CUI indicado',
      data: null,
    });
  });

  it('passes the registry 4xx and 5xx through with their codes', async () => {
    expect(await client().searchByCui('1680352240101')).toMatchObject({ ok: true, httpStatus: 400, responseCode: 400, data: null });
    expect(await client().searchByCui(FAULT_IDENTIFIERS.data_rejected.cui)).toMatchObject({ ok: true, httpStatus: 400, responseCode: 400 });
    expect(await client().searchByCui(FAULT_IDENTIFIERS.auth_rejected.cui)).toMatchObject({ ok: true, httpStatus: 401, responseCode: 401 });
    expect(await client().searchByCui(FAULT_IDENTIFIERS.rate_limited.cui)).toMatchObject({ ok: true, httpStatus: 429, responseCode: 429 });
    expect(await client().searchByCui(FAULT_IDENTIFIERS.server_error.cui)).toMatchObject({ ok: true, httpStatus: 500, responseCode: 500 });
    expect(await client({ apiKey: 'wrong' }).searchByCui(sample.individual.cui ?? '')).toMatchObject({ ok: true, httpStatus: 401, responseCode: 401 });
  });

  it('reports a 200 whose body carries an error responseCode', async () => {
    expect(await client().searchByCui(FAULT_IDENTIFIERS.error_code_in_success.cui)).toMatchObject({ ok: true, httpStatus: 200, responseCode: 503, data: null });
  });

  it.each(['unparseable', 'connection_dropped'] as const)('the %s fault is no usable answer', async (fault) => {
    expect(await client().searchByCui(FAULT_IDENTIFIERS[fault].cui)).toMatchObject({ ok: false });
  });

  it('a registry slower than the ceiling is no usable answer', async () => {
    const answer = await client({ timeoutMs: 250 }).searchByCui(FAULT_IDENTIFIERS.slow.cui);
    expect(answer).toMatchObject({ ok: false });
    expect(!answer.ok && answer.detail).toContain('250 ms');
  });

  it('refuses bodies that are not the registry protocol', () => {
    expect(interpretRenapAnswer(200, '{"responseCode":"200","message":"ok","data":null}').ok).toBe(false);
    expect(interpretRenapAnswer(200, '{"responseCode":200,"message":"ok","data":{"nombre":"sin cui"}}').ok).toBe(false);
    expect(interpretRenapAnswer(200, '{"responseCode":200,"message":"ok","data":[{"cui":"1"}]}').ok).toBe(false);
    expect(interpretRenapAnswer(502, '<html>Bad Gateway</html>').ok).toBe(false);
    expect(interpretRenapAnswer(200, '{"responseCode":200,"data":{"cui":"1587564440904"}}')).toEqual({
      ok: true,
      httpStatus: 200,
      responseCode: 200,
      message: '',
      data: { cui: '1587564440904' },
    });
  });
});
