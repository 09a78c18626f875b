// The catalog client against the simulator over real HTTP: every classified outcome, produced on
// purpose, plus the behaviours of the source the gateway relies on (actualizado, date_of_birth).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cuiNitResultadoSchema, omisosResultadoSchema, rtuResultadoSchema } from '../contract/catalog';
import { SIMULATOR_DEV_CREDENTIALS } from '@/lib/sources/settings';
import { FAULT_IDENTIFIERS } from '../../simulator/faults';
import { createPopulation, samplePopulation } from '../../simulator/population';
import { DEFAULT_SIMULATOR_SEED, startSimulator, type RunningSimulator } from '../../simulator/server';
import { catalogRequestBody, createCatalogClient, interpretCatalogAnswer, type CatalogClientOptions } from './catalog-client';
import type { SourceFailure } from './outcomes';

const ONLINE_LATENCY_MS = 150;
const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, onlineLatencyMs: ONLINE_LATENCY_MS, slowFaultDelayMs: 10_000 });
});
afterAll(async () => {
  await simulator.close();
});

function client(overrides: Partial<CatalogClientOptions> = {}) {
  return createCatalogClient({
    baseUrl: `${simulator.url}/catalog`,
    clientId: SIMULATOR_DEV_CREDENTIALS.catalogClientId,
    clientSecret: SIMULATOR_DEV_CREDENTIALS.catalogClientSecret,
    timeoutMs: 5_000,
    ...overrides,
  });
}

describe('catalog client: successes', () => {
  it('resolves an individual by NIT with the held copy and its date', async () => {
    const result = await client().lookupCuiNit({ nit: sample.individual.nit, actualizado: false });
    expect(result).toEqual({
      ok: true,
      value: {
        nit: sample.individual.nit,
        cui: sample.individual.cui,
        nombre: population.member(sample.individual.index).satName,
        tipoPersona: 'individual',
        fechaConsulta: population.member(sample.individual.index).copyTakenAt,
      },
    });
  });

  it('resolves the NIT of a person whose CUI is their NIT', async () => {
    const result = await client().lookupCuiNit({ cui: sample.cuiOnlyIndividual.cui ?? '', actualizado: false });
    expect(result.ok && result.value.nit).toBe(sample.cuiOnlyIndividual.cui);
  });

  it('resolves a legal entity: no CUI, juridica', async () => {
    const result = await client().lookupCuiNit({ nit: sample.legalEntity.nit, actualizado: false });
    expect(result.ok && result.value).toMatchObject({ nit: sample.legalEntity.nit, cui: null, tipoPersona: 'juridica' });
  });

  it('answers omisos of an omiso, with the CUI as published and the unfiled obligations', async () => {
    const omiso = await client().lookupOmisos({ nit: sample.omiso.nit, actualizado: false });
    expect(omiso.ok).toBe(true);
    if (!omiso.ok) return;
    expect(omisosResultadoSchema.parse(omiso.value)).toEqual(omiso.value);
    expect(omiso.value.tieneIncumplimientos).toBe(true);
    expect(omiso.value.incumplimientos.length).toBeGreaterThan(0);
    if (sample.omiso.cui !== null) expect(omiso.value.cui?.replace(/ /g, '')).toBe(sample.omiso.cui);

    const coercive = await client().lookupOmisos({ nit: sample.coerciveCollection.nit, actualizado: false });
    expect(coercive.ok && coercive.value.tieneProcesoCoactivo).toBe(true);

    const compliant = await client().lookupOmisos({ nit: sample.individual.nit, actualizado: false });
    expect(compliant.ok && compliant.value).toMatchObject({ tieneIncumplimientos: false, tieneProcesoCoactivo: false, incumplimientos: [] });
  });

  it('answers the RTU record: persona for an individual, empresa for a legal entity', async () => {
    const person = await client().lookupRtu({ nit: sample.individual.nit, actualizado: false });
    expect(person.ok).toBe(true);
    if (person.ok) {
      expect(rtuResultadoSchema.parse(person.value)).toEqual(person.value);
      expect(person.value.persona?.fechaNacimiento).toBe(population.member(sample.individual.index).person?.birthDate);
      expect(person.value.empresa).toBeNull();
    }
    const entity = await client().lookupRtu({ nit: sample.legalEntity.nit, actualizado: false });
    expect(entity.ok && entity.value.persona).toBeNull();
    expect(entity.ok && entity.value.empresa).not.toBeNull();
  });

  it('with actualizado answers later and with a newer fechaConsulta', async () => {
    const held = await client().lookupCuiNit({ nit: sample.individual.nit, actualizado: false });
    const started = performance.now();
    const fresh = await client().lookupCuiNit({ nit: sample.individual.nit, actualizado: true });
    const elapsed = performance.now() - started;
    expect(held.ok && fresh.ok).toBe(true);
    if (!held.ok || !fresh.ok) return;
    expect(Date.parse(fresh.value.fechaConsulta ?? '')).toBeGreaterThan(Date.parse(held.value.fechaConsulta ?? ''));
    expect(elapsed).toBeGreaterThanOrEqual(ONLINE_LATENCY_MS - 5);
  });

  it('asks for date_of_birth only on the RTU query of a record it holds no copy of', async () => {
    const member = sample.withoutHeldCopy;
    // The source's reason is kept as data, for the record's page to say it in words.
    expect(await client().lookupRtu({ nit: member.nit, actualizado: false })).toMatchObject({
      ok: false,
      failure: 'data_rejected',
      fault: { kind: 'status', status: 400, code: 'FECHA_NACIMIENTO_REQUERIDA' },
    });
    expect(await client().lookupRtu({ nit: member.nit, actualizado: false, dateOfBirth: '1900-01-01' })).toMatchObject({
      ok: false,
      failure: 'data_rejected',
      fault: { kind: 'status', status: 400, code: 'FECHA_NACIMIENTO_NO_COINCIDE' },
    });
    // Any other code of the source is not kept.
    expect(interpretCatalogAnswer('rtu', 400, JSON.stringify({ error: { codigo: 'DATOS_INVALIDOS', detalle: 'x' } }))).toMatchObject({ fault: { kind: 'status', status: 400 } });
    expect(interpretCatalogAnswer('rtu', 400, JSON.stringify({ error: { codigo: 'DATOS_INVALIDOS' } }))).not.toHaveProperty('fault.code');
    const answered = await client().lookupRtu({ nit: member.nit, actualizado: false, dateOfBirth: member.dateOfBirth });
    expect(answered.ok).toBe(true);
    if (answered.ok) expect(Date.parse(answered.value.fechaConsulta ?? '')).toBeGreaterThan(Date.parse('2026-01-01'));
    expect((await client().lookupCuiNit({ nit: member.nit, actualizado: false })).ok).toBe(true);
    expect((await client().lookupOmisos({ nit: member.nit, actualizado: false })).ok).toBe(true);
  });

  it('forwards date_of_birth as received, and only on the RTU query', () => {
    const query = { nit: '576937-K', actualizado: true, dateOfBirth: '12/08/1999' };
    expect(catalogRequestBody('rtu', query)).toEqual({ nit_consulta: '576937-K', modo: 'EN_LINEA', fecha_nacimiento: '12/08/1999' });
    expect(catalogRequestBody('cui-nit', query)).toEqual({ nit_consulta: '576937-K', modo: 'EN_LINEA' });
    expect(catalogRequestBody('omisos', { cui: '2415 75181 0101', actualizado: false })).toEqual({ cui_consulta: '2415 75181 0101', modo: 'COPIA' });
  });

  it('a success that carries nothing recognizable gives every field null', async () => {
    const result = await client().lookupCuiNit({ nit: FAULT_IDENTIFIERS.empty_success.nit, actualizado: false });
    expect(result).toEqual({ ok: true, value: { cui: null, nit: null, nombre: null, tipoPersona: null, fechaConsulta: null } });
    const rtu = await client().lookupRtu({ cui: FAULT_IDENTIFIERS.empty_success.cui, actualizado: false });
    expect(rtu.ok && rtuResultadoSchema.parse(rtu.value)).toMatchObject({ persona: null, empresa: null, representantes: [], afiliaciones: { isr: null, iva: null } });
  });

  it('every answer validates against its contract schema', async () => {
    const cuiNit = await client().lookupCuiNit({ nit: sample.withMissingFields.nit, actualizado: false });
    expect(cuiNit.ok && cuiNitResultadoSchema.safeParse(cuiNit.value).success).toBe(true);
    const rtu = await client().lookupRtu({ nit: sample.withMissingFields.nit, actualizado: false });
    expect(rtu.ok && rtuResultadoSchema.safeParse(rtu.value).success).toBe(true);
  });
});

describe('catalog client: classified failures', () => {
  it.each<[keyof typeof FAULT_IDENTIFIERS, SourceFailure]>([
    ['data_rejected', 'data_rejected'],
    ['auth_rejected', 'auth_rejected'],
    ['balance_exhausted', 'balance_exhausted'],
    ['query_type_denied', 'query_type_denied'],
    ['not_found', 'not_found'],
    ['query_failed', 'not_found'],
    ['rate_limited', 'rate_limited'],
    ['server_error', 'unavailable'],
    ['unparseable', 'unavailable'],
    ['connection_dropped', 'unavailable'],
  ])('the %s fault identifier is classified %s on all three queries', async (fault, failure) => {
    const catalog = client();
    const identifiers = FAULT_IDENTIFIERS[fault];
    for (const result of [
      await catalog.lookupCuiNit({ nit: identifiers.nit, actualizado: false }),
      await catalog.lookupRtu({ cui: identifiers.cui, actualizado: true }),
      await catalog.lookupOmisos({ nit: identifiers.nit, actualizado: false }),
    ]) {
      expect(result).toMatchObject({ ok: false, failure });
    }
  });

  it('a source slower than the ceiling is unavailable (timeout)', async () => {
    const started = performance.now();
    const result = await client({ timeoutMs: 300 }).lookupOmisos({ nit: FAULT_IDENTIFIERS.slow.nit, actualizado: false });
    expect(result).toMatchObject({ ok: false, failure: 'unavailable' });
    expect(!result.ok && result.detail).toContain('300 ms');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('wrong service credentials are auth_rejected', async () => {
    expect(await client({ clientSecret: 'wrong' }).lookupCuiNit({ nit: sample.individual.nit, actualizado: false })).toMatchObject({
      ok: false,
      failure: 'auth_rejected',
    });
  });

  it('data the source rejects, an unknown taxpayer and mismatched identifiers', async () => {
    expect(await client().lookupCuiNit({ nit: '8977112-0', actualizado: false })).toMatchObject({ ok: false, failure: 'data_rejected' });
    expect(await client().lookupCuiNit({ nit: sample.unknownNit, actualizado: false })).toMatchObject({ ok: false, failure: 'not_found' });
    expect(await client().lookupCuiNit({ nit: sample.legalEntity.nit, cui: sample.individual.cui ?? '', actualizado: false })).toMatchObject({
      ok: false,
      failure: 'not_found',
    });
  });

  it('a source that does not listen is unavailable', async () => {
    const closed = await startSimulator({ port: 0 });
    await closed.close();
    const result = await client({ baseUrl: `${closed.url}/catalog` }).lookupCuiNit({ nit: sample.individual.nit, actualizado: false });
    expect(result).toMatchObject({ ok: false, failure: 'unavailable' });
  });

  it('a fault set for the whole run applies to ordinary identifiers', async () => {
    const limited = await startSimulator({ port: 0, faults: 'catalog:rate_limited' });
    try {
      const result = await client({ baseUrl: `${limited.url}/catalog` }).lookupRtu({ nit: sample.individual.nit, actualizado: false });
      expect(result).toMatchObject({ ok: false, failure: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});
