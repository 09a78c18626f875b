// The RTU-registry client against the simulator over real HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_DEV_CREDENTIALS } from '@/lib/sources/settings';
import { FAULT_IDENTIFIERS } from '../../simulator/faults';
import { createPopulation, samplePopulation } from '../../simulator/population';
import { DEFAULT_SIMULATOR_SEED, startSimulator, type RunningSimulator } from '../../simulator/server';
import { createRtuClient, interpretRtuAnswer, RTU_MAX_NITS, type RtuClientOptions } from './rtu-client';

const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, slowFaultDelayMs: 10_000 });
});
afterAll(async () => {
  await simulator.close();
});

function client(overrides: Partial<RtuClientOptions> = {}) {
  return createRtuClient({ baseUrl: `${simulator.url}/rtu`, apiKey: SIMULATOR_DEV_CREDENTIALS.rtuApiKey, timeoutMs: 5_000, ...overrides });
}

describe('RTU registry client', () => {
  it('returns the records found, as published, each with its nit', async () => {
    const answer = await client().searchByNits([sample.legalEntity.nit, sample.unknownNit, sample.individual.nit, sample.cuiOnlyIndividual.nit]);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.records.map((record) => record.nit)).toEqual([sample.legalEntity.nit, sample.individual.nit, sample.cuiOnlyIndividual.nit]);
    expect(answer.records[0]).toMatchObject({ tipo_persona: 'JURIDICA', nombre: population.member(sample.legalEntity.index).satName });
  });

  it('finds a person by the CUI that is also their NIT', async () => {
    const answer = await client().searchByNits([sample.individual.cui ?? '']);
    expect(answer.ok && answer.records).toMatchObject([{ nit: sample.individual.cui, nit_anterior: sample.individual.nit }]);
  });

  it(`answers ${RTU_MAX_NITS} NITs, and refuses ${RTU_MAX_NITS + 1} without calling the registry`, async () => {
    const nits = Array.from({ length: RTU_MAX_NITS + 1 }, (_, index) => population.member(index).nit);
    const answer = await client().searchByNits(nits.slice(0, RTU_MAX_NITS));
    expect(answer.ok && answer.records).toHaveLength(RTU_MAX_NITS);

    let calls = 0;
    const countingFetch: typeof fetch = (...args) => {
      calls += 1;
      return fetch(...args);
    };
    expect(await client({ fetch: countingFetch }).searchByNits(nits)).toEqual({ ok: false, reason: 'too_many_nits' });
    expect(calls).toBe(0);
  });

  it.each(['data_rejected', 'auth_rejected', 'rate_limited', 'server_error', 'unparseable', 'connection_dropped'] as const)(
    'the %s fault is the registry failing, for the whole batch',
    async (fault) => {
      const answer = await client().searchByNits([sample.individual.nit, FAULT_IDENTIFIERS[fault].nit]);
      expect(answer).toMatchObject({ ok: false, reason: 'failed' });
    },
  );

  it('wrong credentials and a registry slower than the ceiling are failures', async () => {
    expect(await client({ apiKey: 'wrong' }).searchByNits([sample.individual.nit])).toMatchObject({ ok: false, reason: 'failed' });
    const slow = await client({ timeoutMs: 250 }).searchByNits([FAULT_IDENTIFIERS.slow.nit]);
    expect(slow).toMatchObject({ ok: false, reason: 'failed' });
    expect(!slow.ok && slow.reason === 'failed' && slow.detail).toContain('250 ms');
  });

  it('the not_found and empty_success faults answer no records', async () => {
    for (const fault of ['not_found', 'empty_success'] as const) {
      expect(await client().searchByNits([sample.individual.nit, FAULT_IDENTIFIERS[fault].nit])).toEqual({ ok: true, records: [] });
    }
  });

  it('refuses answers outside the protocol', () => {
    expect(interpretRtuAnswer(200, '{"contribuyentes":[{"nombre":"sin nit"}]}')).toMatchObject({ ok: false, reason: 'failed' });
    expect(interpretRtuAnswer(200, '{"contribuyentes":{}}')).toMatchObject({ ok: false, reason: 'failed' });
    expect(interpretRtuAnswer(200, '[]')).toMatchObject({ ok: false, reason: 'failed' });
    expect(interpretRtuAnswer(201, '{"contribuyentes":[]}')).toMatchObject({ ok: false, reason: 'failed' });
  });
});
