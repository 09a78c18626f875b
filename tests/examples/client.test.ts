// The TypeScript client in examples/ (docs/integrators.md), run against the app as an integrator
// would: every lookup, a branch on status, and a 502 retried with backoff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLatestRecords } from '@/lib/core/records/list';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { topUp } from '@/lib/core/billing/ledger';
import { FLAG_NAMES } from '@/lib/core/integrations/flags';
import { FAULT_IDENTIFIERS, samplePopulation, startSimulator, DEFAULT_SIMULATOR_SEED, type RunningSimulator } from '@/simulator/index';
import { sameCode, sameCui, TaxpayerLookupClient } from '../../examples/taxpayer-lookup-client';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
let testDatabase: TestDatabase;
let simulator: RunningSimulator;
let app: RunningApp;
let client: TaxpayerLookupClient;
let integrationId: number;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  const actor = { kind: 'system', name: 'example-client-test' } as const;
  const created = await createIntegration(actor, {
    nombre: 'cliente-ejemplo',
    tariffCentavos: 100,
    flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, true])),
  });
  if (!created.ok) throw new Error(created.error.message);
  integrationId = created.value.integration.id;
  await topUp(actor, integrationId, 10_000, 'Saldo de prueba');
  app = await startApp({
    env: {
      RENAP_BASE_URL: `${simulator.url}/renap`,
      RTU_BASE_URL: `${simulator.url}/rtu`,
      CATALOG_BASE_URL: `${simulator.url}/catalog`,
    },
  });
  client = new TaxpayerLookupClient({ baseUrl: `${app.baseUrl}/api`, login: 'Cliente-Ejemplo', token: created.value.token, backoffMs: 10 });
});

afterAll(async () => {
  await app?.stop();
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('the example client', () => {
  it('runs the five lookups', async () => {
    const person = await client.buscarCui(sample.individual.cui!);
    expect(person).toMatchObject({ ok: true, status: 200, body: { success: true, data: { cui: sample.individual.cui } } });

    const batch = await client.rtuPorNits([sample.individual.nit, sample.unknownNit]);
    expect(batch).toMatchObject({ ok: true, status: 200, body: { success: true, responseCode: 200 } });
    if (batch.ok) expect(batch.body.data?.map((record) => record.nit)).toEqual([sample.individual.nit]);

    const cuiNit = await client.cuiNit({ nit: sample.individual.nit });
    expect(cuiNit).toMatchObject({ ok: true, status: 200 });
    const omisos = await client.omisos({ nit: sample.individual.nit });
    expect(omisos).toMatchObject({ ok: true, status: 200 });
    if (cuiNit.ok && omisos.ok) expect(sameCui(cuiNit.body.data.cui as string, omisos.body.data.cui as string)).toBe(true);

    const rtu = await client.rtu({ nit: sample.withoutHeldCopy.nit, dateOfBirth: sample.withoutHeldCopy.dateOfBirth });
    expect(rtu).toMatchObject({ ok: true, status: 200, body: { data: { nit: expect.any(String) } } });
    expect(requestIdsOf([person, batch, cuiNit, omisos, rtu])).toHaveLength(5);
  });

  it('branches on status: a 404 is "not available now", not charged and not retried', async () => {
    const result = await client.omisos({ nit: FAULT_IDENTIFIERS.not_found.nit });
    expect(result).toMatchObject({ ok: false, status: 404, attempts: 1 });
  });

  it('retries a 502 with backoff, then gives up; none of the attempts is charged', async () => {
    const result = await client.cuiNit({ nit: FAULT_IDENTIFIERS.server_error.nit });
    expect(result).toMatchObject({ ok: false, status: 502, attempts: 4 });
    const records = await app.withDatabase(() => listLatestRecords({ integracion: integrationId }, 100));
    const attempts = records.filter((record) => record.nit === FAULT_IDENTIFIERS.server_error.nit);
    expect(attempts.map((record) => [record.httpStatus, record.chargedCentavos])).toEqual(Array(4).fill([502, 0]));
  });

  it('compares catalog codes as text, keeping leading zeros', () => {
    expect(sameCode(1, '1')).toBe(true);
    expect(sameCode('01', 1)).toBe(false);
    expect(sameCode(null, null)).toBe(false);
  });
});

function requestIdsOf(results: Array<{ requestId: string | null }>): string[] {
  return [...new Set(results.map((result) => result.requestId).filter((id): id is string => Boolean(id?.startsWith('req_'))))];
}
