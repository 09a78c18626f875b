// Issue 25, point 3: the public status page. With the catalog source down (the simulator's
// server_error on every call) the breaker opens; GET /api/estado and /estado, with no credentials,
// show the catalogs "Sin servicio" and an incident in progress; once the source recovers and a probe
// closes the breaker, the incident has an end and a duration, and the hour's availability counts the
// failed calls. The JSON is public and cacheable, readable from any origin, and names no integration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import type { PublicStatus } from '@/lib/reactions/status-page/status';
import { NO_INCIDENTS_TEXT } from '@/lib/reactions/status-page/summary';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, eventually, expectErrorBody, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';

const FAILURES_TO_OPEN = 3;
const COOLDOWN_MS = 1_500;
const INTEGRATION_NAME = 'acme-estado-publico';

let testDb: TestDatabase;
let gateway: Gateway;
let acme: TestIntegration;

beforeAll(async () => {
  testDb = await useTestDatabase();
  acme = await createTestIntegration(INTEGRATION_NAME, { tariffCentavos: 100, balanceCentavos: 100_000 });
  gateway = await startGateway(testDb, {
    env: {
      SOURCE_BREAKER_FAILURES: String(FAILURES_TO_OPEN),
      SOURCE_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
      STATUS_PAGE_CACHE_SECONDS: '1',
      RATE_LIMIT_CATALOG_PER_MINUTE: '100000',
      // The test polls GET /api/estado every 100 ms while it waits.
      RATE_LIMIT_STATUS_API_PER_MINUTE: '100000',
    },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDb?.cleanup();
});

interface StatusAnswer {
  status: number;
  headers: Headers;
  body: PublicStatus;
  text: string;
}

async function readStatus(): Promise<StatusAnswer> {
  const response = await fetch(`${gateway.app.baseUrl}/api/estado`, { headers: { origin: 'https://integrador.example.com' } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as PublicStatus, text };
}

const catalogOf = (status: PublicStatus) => status.fuentes.find((source) => source.fuente === 'catalog')!;

describe('the public status page', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers without credentials: every source operating, public and cacheable, from any origin, no cookie', async () => {
    const answer = await readStatus();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=1');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.body.fuentes.map((source) => [source.fuente, source.estado])).toEqual([
      ['renap', 'operando'],
      ['rtu', 'operando'],
      ['catalog', 'operando'],
    ]);
    for (const source of answer.body.fuentes) {
      expect(source.dias).toHaveLength(90);
      expect(source.horas).toHaveLength(24);
    }
    expect(answer.body.incidentes).toEqual([]);
    expect(answer.body.resumen).toMatchObject({ estado: 'operando', sin_incidentes: true });
  });

  it('shows an outage provoked with the simulator’s faults while it lasts, and its recovery', async () => {
    const nit = gateway.sample.individual.nit;
    expect((await gateway.call(ROUTES.cuiNit, { as: acme, json: { nit } })).status).toBe(200);

    gateway.simulator.setFaults('catalog:server_error');
    for (let i = 0; i < FAILURES_TO_OPEN; i++) {
      expectErrorBody(await gateway.call(ROUTES.cuiNit, { as: acme, json: { nit } }), 502, 'message', CATALOG_MESSAGES.sourceUnavailable);
    }
    const during = await eventually(readStatus, (answer) => catalogOf(answer.body).estado === 'sin_servicio', 20_000, 'the catalogs without service');
    expect(during.body.incidentes).toEqual([
      { fuente: 'catalog', nombre: expect.stringContaining('catálogos'), inicio: expect.any(String), fin: null, en_curso: true, duracion_segundos: expect.any(Number) },
    ]);
    expect(during.body.fuentes.filter((source) => source.fuente !== 'catalog').map((source) => source.estado)).toEqual(['operando', 'operando']);
    // The summary says the same as the badges (issue 32, point 8).
    expect(during.body.resumen).toMatchObject({ estado: 'sin_servicio', sin_incidentes: false });
    expect(during.body.resumen.texto).toContain('Fuente de catálogos (CUI/NIT, RTU, omisos): sin servicio');
    const { status: pageStatus, html } = await eventually(
      async () => {
        const page = await fetch(`${gateway.app.baseUrl}/estado`);
        return { status: page.status, html: await page.text() };
      },
      (answer) => answer.html.includes('data-state="sin_servicio"'),
      5_000,
      'the outage on /estado',
    );
    expect(pageStatus).toBe(200);
    expect(html).toMatch(/data-source="catalog" data-state="sin_servicio".*?Sin servicio/s);
    expect(html).toContain('en curso');
    expect(html).not.toContain(NO_INCIDENTS_TEXT);

    // Recovery: past the cool-down a probe reaches the source and closes the breaker.
    gateway.simulator.setFaults([]);
    await eventually(() => gateway.call(ROUTES.cuiNit, { as: acme, json: { nit } }), (answer) => answer.status === 200, 20_000, 'a lookup after recovery');
    const after = await eventually(readStatus, (answer) => answer.body.incidentes[0]?.en_curso === false, 20_000, 'the incident ended');
    const [incident] = after.body.incidentes;
    expect(incident).toMatchObject({ fuente: 'catalog', en_curso: false });
    expect(Date.parse(incident!.fin!)).toBeGreaterThan(Date.parse(incident!.inicio));
    expect(incident!.duracion_segundos).toBe(Math.round((Date.parse(incident!.fin!) - Date.parse(incident!.inicio)) / 1000));
    expect(catalogOf(after.body).estado).not.toBe('sin_servicio');
    // Over: not "Sin incidentes" either, since today had one.
    expect(after.body.resumen.sin_incidentes).toBe(false);

    // The hours' availability counts the failed calls (once the rollup job has added them).
    const counted = await eventually(
      readStatus,
      (answer) => catalogOf(answer.body).horas.some((hour) => hour.disponibilidad !== null && hour.disponibilidad < 100),
      20_000,
      'the failures in the hourly availability',
    );
    const catalog = catalogOf(counted.body);
    expect(catalog.disponibilidad_90_dias).toBeLessThan(100);
    expect(catalog.disponibilidad_90_dias).toBeGreaterThan(0);
    expect(catalog.dias.at(-1)!.disponibilidad).toBeLessThan(100);
    // The registries had no call: no availability to speak of, not 100 %.
    expect(counted.body.fuentes[0]!.horas.every((hour) => hour.disponibilidad === null)).toBe(true);

    // The page is rendered at most once per STATUS_PAGE_CACHE_SECONDS (issue 30, point 1), from a
    // status read at most as long ago: it says what the JSON says within two intervals.
    const recoveredHtml = await eventually(
      async () => (await (await fetch(`${gateway.app.baseUrl}/estado`)).text()).replaceAll('<!-- -->', ''),
      (html) => /sin servicio desde [^<]*?hasta/.test(html),
      5_000,
      'the ended incident on /estado',
    );
    expect(recoveredHtml).toMatch(/sin servicio desde [^<]*?hasta/);
    expect(recoveredHtml).toContain('duración');
    expect(counted.text).not.toContain(INTEGRATION_NAME);
    expect(recoveredHtml).not.toContain(INTEGRATION_NAME);
  });
});
