// The simulator's own behaviour over raw HTTP: routes, credentials, wire shapes, latency and the
// three ways to select a fault (header, reserved identifier, whole run).

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_DEV_CREDENTIALS } from '../lib/sources/settings';
import { createFaultPlan, FAULT_HEADER, FAULT_IDENTIFIERS, FAULT_NAMES, faultForIdentifier, LATENCY_HEADER, parseFaultSpec } from './faults';
import { samplePopulation } from './population';
import { DEFAULT_SIMULATOR_SEED, startSimulator, type RunningSimulator } from './server';

const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
const catalogAuthorization = `Basic ${Buffer.from(`${SIMULATOR_DEV_CREDENTIALS.catalogClientId}:${SIMULATOR_DEV_CREDENTIALS.catalogClientSecret}`).toString('base64')}`;

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, slowFaultDelayMs: 60_000 });
});
afterAll(async () => {
  await simulator.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const catalog = (operation: string, body: unknown, headers: Record<string, string> = {}) =>
  post(`/catalog/v2/consultas/${operation}`, body, { authorization: catalogAuthorization, ...headers });

describe('simulator routes and credentials', () => {
  it('reports its health and the operations it serves', async () => {
    const response = await fetch(`${simulator.url}/health`);
    expect(response.status).toBe(200);
    const health = (await response.json()) as { status: string; population: number; protocols: Array<{ protocol: string; operations: string[] }> };
    expect(health.status).toBe('ok');
    expect(health.population).toBeGreaterThanOrEqual(10_000);
    expect(health.protocols.flatMap((protocol) => protocol.operations)).toEqual([
      'POST /renap/v1/personas/consulta-cui',
      'POST /rtu/v1/contribuyentes/consulta-nits',
      'POST /catalog/v2/consultas/identidad',
      'POST /catalog/v2/consultas/ficha',
      'POST /catalog/v2/consultas/cumplimiento',
    ]);
  });

  it('answers 404 to unknown paths, 405 to other methods and 413 to huge bodies', async () => {
    expect((await post('/catalog/v2/consultas/otra', {})).status).toBe(404);
    expect((await fetch(`${simulator.url}/catalog/v2/consultas/identidad`)).status).toBe(405);
    expect((await catalog('identidad', { nit_consulta: 'x'.repeat(70_000) })).status).toBe(413);
  });

  it('checks each protocol’s own credentials', async () => {
    expect((await post('/renap/v1/personas/consulta-cui', { cui: sample.individual.cui })).status).toBe(401);
    expect((await post('/renap/v1/personas/consulta-cui', { cui: sample.individual.cui }, { 'x-api-key': SIMULATOR_DEV_CREDENTIALS.renapApiKey })).status).toBe(200);
    expect((await post('/rtu/v1/contribuyentes/consulta-nits', { nits: [sample.individual.nit] }, { authorization: `Bearer ${SIMULATOR_DEV_CREDENTIALS.renapApiKey}` })).status).toBe(401);
    expect((await post('/rtu/v1/contribuyentes/consulta-nits', { nits: [sample.individual.nit] }, { authorization: `Bearer ${SIMULATOR_DEV_CREDENTIALS.rtuApiKey}` })).status).toBe(200);
    expect((await post('/catalog/v2/consultas/identidad', { nit_consulta: sample.individual.nit }, { authorization: 'Basic c2ltOndyb25n' })).status).toBe(401);
  });

  it('accepts the credentials it is given instead of the development ones', async () => {
    const custom = await startSimulator({ port: 0, credentials: { ...SIMULATOR_DEV_CREDENTIALS, renapApiKey: 'production-like-key' } });
    try {
      const call = (key: string) =>
        fetch(`${custom.url}/renap/v1/personas/consulta-cui`, { method: 'POST', headers: { 'x-api-key': key }, body: JSON.stringify({ cui: sample.individual.cui }) });
      expect((await call(SIMULATOR_DEV_CREDENTIALS.renapApiKey)).status).toBe(401);
      expect((await call('production-like-key')).status).toBe(200);
    } finally {
      await custom.close();
    }
  });
});

describe('simulator wire shapes', () => {
  it('publishes catalog results in the provider’s own shape', async () => {
    const response = await catalog('cumplimiento', { nit_consulta: sample.individual.nit, modo: 'COPIA' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { estado_consulta: string; origen: string; fecha_consulta: string; resultado: Record<string, unknown> };
    expect(body).toMatchObject({ estado_consulta: 'EXITOSA', origen: 'COPIA' });
    expect(body.fecha_consulta).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(body.resultado.cui).toMatch(/^\d{4} \d{5} \d{4}$/);
    expect(body.resultado.fec_afiliacion).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(Object.keys(body.resultado).every((key) => /^[a-z0-9_]+$/.test(key))).toBe(true);
  });

  it('rejects catalog queries without a usable identifier or with a wrong mode', async () => {
    expect((await catalog('identidad', {})).status).toBe(400);
    expect((await catalog('identidad', { nit_consulta: '', cui_consulta: '' })).status).toBe(400);
    expect((await catalog('identidad', { nit_consulta: 576937 })).status).toBe(400);
    expect((await catalog('identidad', { nit_consulta: sample.individual.nit, modo: 'AHORA' })).status).toBe(400);
    expect((await catalog('identidad', 'not json')).status).toBe(400);
  });

  it('answers the RTU batch with counts and records', async () => {
    const response = await post(
      '/rtu/v1/contribuyentes/consulta-nits',
      { nits: [sample.legalEntity.nit, sample.legalEntity.nit, sample.unknownNit] },
      { authorization: `Bearer ${SIMULATOR_DEV_CREDENTIALS.rtuApiKey}` },
    );
    expect(await response.json()).toMatchObject({ total_solicitados: 3, total_encontrados: 1, contribuyentes: [{ nit: sample.legalEntity.nit }] });
    const tooMany = await post('/rtu/v1/contribuyentes/consulta-nits', { nits: Array.from({ length: 51 }, () => '576937K') }, { authorization: `Bearer ${SIMULATOR_DEV_CREDENTIALS.rtuApiKey}` });
    expect(tooMany.status).toBe(400);
  });
});

describe('simulator latency and faults', () => {
  it('selects a fault by header, for one request', async () => {
    const response = await catalog('identidad', { nit_consulta: sample.individual.nit }, { [FAULT_HEADER]: 'balance_exhausted' });
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ error: { codigo: 'SALDO_INSUFICIENTE', detalle: expect.any(String) } });
    expect((await catalog('identidad', { nit_consulta: sample.individual.nit })).status).toBe(200);
  });

  it('refuses a header naming a fault the protocol cannot express', async () => {
    const response = await catalog('identidad', { nit_consulta: sample.individual.nit }, { [FAULT_HEADER]: 'error_code_in_success' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('not a fault of catalog');
  });

  it('waits what x-sim-latency-ms asks', async () => {
    const started = performance.now();
    expect((await catalog('identidad', { nit_consulta: sample.individual.nit }, { [LATENCY_HEADER]: '120' })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it('adds the latency setLatency gives to every answer from then on, until set back', async () => {
    const timed = async () => {
      const started = performance.now();
      expect((await catalog('identidad', { nit_consulta: sample.individual.nit })).status).toBe(200);
      return performance.now() - started;
    };
    simulator.setLatency({ latencyMs: 300 });
    try {
      expect(await timed()).toBeGreaterThanOrEqual(295);
    } finally {
      simulator.setLatency({ latencyMs: 0 });
    }
    expect(await timed()).toBeLessThan(295);
  });

  it('counts the lookups it has not answered yet', async () => {
    expect(simulator.lookupsInFlight()).toBe(0);
    const pending = Promise.all([1, 2].map(() => catalog('identidad', { nit_consulta: sample.individual.nit }, { [LATENCY_HEADER]: '2000' })));
    await expect.poll(() => simulator.lookupsInFlight(), { timeout: 1_500 }).toBe(2);
    expect((await pending).map((response) => response.status)).toEqual([200, 200]);
    await expect.poll(() => simulator.lookupsInFlight()).toBe(0);
  });

  it('drops the connection without an answer', async () => {
    await expect(catalog('identidad', { nit_consulta: FAULT_IDENTIFIERS.connection_dropped.nit })).rejects.toThrow();
  });

  it('closes promptly even while a slow answer is pending', async () => {
    const slow = await startSimulator({ port: 0, slowFaultDelayMs: 60_000 });
    const pending = fetch(`${slow.url}/catalog/v2/consultas/identidad`, {
      method: 'POST',
      headers: { authorization: catalogAuthorization },
      body: JSON.stringify({ nit_consulta: FAULT_IDENTIFIERS.slow.nit }),
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await slow.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('applies a run fault to the share of requests its rate says, the same way for the same seed', async () => {
    const decisions = (seed: number) => {
      const plan = createFaultPlan({ runFaults: parseFaultSpec('catalog:server_error@0.3'), seed });
      return Array.from({ length: 1_000 }, () => plan.choose({ protocol: 'catalog', headerFault: undefined, identifiers: [] }));
    };
    const first = decisions(7);
    const share = first.filter((choice) => choice.ok && choice.fault === 'server_error').length / first.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(decisions(7)).toEqual(first);
    const renapPlan = createFaultPlan({ runFaults: parseFaultSpec('catalog:server_error'), seed: 7 });
    expect(renapPlan.choose({ protocol: 'renap', headerFault: undefined, identifiers: [] })).toEqual({ ok: true, fault: null });
  });

  it('reads SIMULATOR_FAULT and refuses what it cannot read', () => {
    expect(parseFaultSpec('catalog:rate_limited@0.25, slow ,renap:error_code_in_success')).toEqual([
      { fault: 'rate_limited', protocols: ['catalog'], rate: 0.25 },
      { fault: 'slow', protocols: ['renap', 'rtu', 'catalog'], rate: 1 },
      { fault: 'error_code_in_success', protocols: ['renap'], rate: 1 },
    ]);
    expect(parseFaultSpec('balance_exhausted')).toEqual([{ fault: 'balance_exhausted', protocols: ['catalog'], rate: 1 }]);
    expect(parseFaultSpec('')).toEqual([]);
    expect(() => parseFaultSpec('explode')).toThrow(/unknown fault/);
    expect(() => parseFaultSpec('renap:balance_exhausted')).toThrow(/cannot express/);
    expect(() => parseFaultSpec('slow@2')).toThrow(/rate/);
    expect(() => parseFaultSpec('catalog slow')).toThrow(/cannot read/);
  });

  it('recognizes reserved identifiers in any spelling, and only those', () => {
    expect(faultForIdentifier('99990003-k')).toBe('balance_exhausted');
    expect(faultForIdentifier('9999 00102 0101')).toBe('data_rejected');
    expect(faultForIdentifier(sample.individual.nit)).toBeNull();
  });

  it('documents every reserved identifier in docs/sources.md', () => {
    const documentation = readFileSync(new URL('../docs/sources.md', import.meta.url), 'utf8');
    for (const fault of FAULT_NAMES) {
      expect(documentation, fault).toContain(`\`${fault}\``);
      expect(documentation, fault).toContain(FAULT_IDENTIFIERS[fault].nit);
      expect(documentation, fault).toContain(FAULT_IDENTIFIERS[fault].cui);
    }
  });
});
