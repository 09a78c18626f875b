// A query's page as support reads it (issue 24, defects 6 and 15), over HTTP against the built app
// with real lookups through the simulator: whether a 200 carried data (a catalog's all-null answer
// said, and that it was charged anyway), the catalogs' `actualizado` and whether `date_of_birth`
// was sent (never the date), the charge in one line with the balance movements behind it adding
// up to it, and a failure explained in Spanish from what kind of failure it was, the source's
// English detail folded under "Detalle técnico". Records written before those facts were kept say
// "No registrado" and are still explained from their detail. No full identifier on any of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { FAULT_IDENTIFIERS } from '@/simulator/faults';
import { createTestIntegration, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { ConsoleClient } from '../support/console-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const TARIFF_CENTAVOS = 150;
const LEGACY_FAILED = 'req_0000000000legacy502';
const LEGACY_SUCCESS = 'req_0000000000legacy200';
const DATE_OF_BIRTH = '1985-03-14';

let testDatabase: TestDatabase;
let gateway: Gateway;
let acme: TestIntegration;
let broke: TestIntegration;
let busy: TestIntegration;
let support: ConsoleClient;

/** The page's text as a reader sees it: no tags, one space between words. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** Opens a query's page as support does: its request id typed in the records search. */
async function recordPage(requestId: string): Promise<{ html: string; page: string }> {
  const found = await support.request(`/admin/registros?${new URLSearchParams({ identificador: requestId })}`);
  expect(found.status, `search for ${requestId}`).toBe(307);
  const detail = await support.request(found.headers.get('location')!);
  expect(detail.status).toBe(200);
  return { html: detail.text, page: text(detail.text) };
}

async function lookup(route: string, json: Record<string, unknown>, status: number): Promise<string> {
  const answer = await gateway.call(route, { as: acme, json });
  expect(answer.status, `${route} ${JSON.stringify(json)}: ${answer.text}`).toBe(status);
  return answer.requestId;
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  acme = await createTestIntegration('acme-detalle', { tariffCentavos: TARIFF_CENTAVOS, balanceCentavos: 100_00 });
  // Created before the app starts, which reads them then: one with no balance, one to reach its limit.
  broke = await createTestIntegration('coop-sin-saldo', { tariffCentavos: TARIFF_CENTAVOS, balanceCentavos: 0 });
  busy = await createTestIntegration('coop-apurada', { tariffCentavos: 0, balanceCentavos: 0 });
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'soporte-detalle@example.com', name: 'Soporte', role: 'support', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  // Written as the previous release did: the source's English detail, and none of the new facts.
  await recordUnbilledQuery({
    integrationId: acme.id,
    lookup: 'omisos',
    httpStatus: 502,
    responseTimeMs: 40,
    nit: '576937-K',
    cui: null,
    errorMessage: 'catalog source answered HTTP 503: <html><body><h1>503 Service Temporarily Unavailable</h1></body></html>',
    requestId: LEGACY_FAILED,
  });
  await recordUnbilledQuery({ integrationId: acme.id, lookup: 'cui_nit', httpStatus: 200, responseTimeMs: 12, nit: '576937-K', cui: null, errorMessage: null, requestId: LEGACY_SUCCESS });
  // Traces are written every interval: the searches below find them sooner than at the 2 s default.
  gateway = await startGateway(testDatabase, { env: { ROLLUP_INTERVAL_MS: '300' } });
  support = new ConsoleClient(gateway.app.baseUrl);
  expect(await support.signIn('soporte-detalle@example.com', created.value.password)).toBeNull();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

describe('a query record as support reads it', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says a catalog 200 was empty and charged anyway, with actualizado and date_of_birth sent (not the date)', async () => {
    const requestId = await lookup(ROUTES.catalogRtu, { nit: FAULT_IDENTIFIERS.empty_success.nit, actualizado: true, date_of_birth: DATE_OF_BIRTH }, 200);
    const { html, page } = await recordPage(requestId);
    expect(page).toContain('Respuesta Vacía: la fuente respondió 200 sin ningún dato (todos los campos en null). Se cobró igual (Q 1.50)');
    expect(page).toContain('Datos recientes Pedidos: la fuente debía consultar a la autoridad en ese momento');
    expect(page).toContain('Fecha de nacimiento Enviada a la fuente (la fecha no se guarda)');
    expect(html).not.toContain(DATE_OF_BIRTH);
    // Support sees the identifier masked, here and in the detail.
    expect(html).not.toContain(FAULT_IDENTIFIERS.empty_success.nit);

    // One line for the charge, and the movements behind it adding up to it: no "Cobro Q 0.00" beside "Cobrado Q 1.50".
    expect(page).toContain('Cobro Cobrado: Q 1.50');
    expect(page).not.toContain('Sin cobro');
    expect(page).toMatch(/Reserva del saldo al iniciar la consulta -Q 1\.50 \d\d\/\d\d\/\d{4}/);
    expect(page).toMatch(/Cobro confirmado: la reserva queda como cobro Q 0\.00 \d\d\/\d\d\/\d{4}/);
    expect(page).toContain('Total en el saldo -Q 1.50');
    expect(page).not.toContain('Reserva liberada');
  });

  it('says a catalog 200 had data, actualizado false by default and no date_of_birth; one the catalog does not read is said to be unused', async () => {
    const withData = (await recordPage(await lookup(ROUTES.cuiNit, { nit: gateway.sample.individual.nit }, 200))).page;
    expect(withData).toContain('Respuesta Con datos');
    expect(withData).toContain('Datos recientes No pedidos: bastaba la copia que guarda la fuente');
    expect(withData).toContain('Fecha de nacimiento No enviada');
    expect(withData).toContain('Cobrado: Q 1.50');

    const unused = (await recordPage(await lookup(ROUTES.omisos, { nit: gateway.sample.omiso.nit, date_of_birth: DATE_OF_BIRTH }, 200))).page;
    expect(unused).toContain('Fecha de nacimiento Enviada, pero esta consulta no la usa (solo la lee el catálogo RTU)');
  });

  it('explains a source failure in Spanish from its kind, keeps the English detail folded, and says why nothing was charged', async () => {
    const failed = await recordPage(await lookup(ROUTES.omisos, { nit: FAULT_IDENTIFIERS.server_error.nit }, 502));
    // Nothing came back: the page says what was asked, in words (issue 32, point 1: it read
    // "Datos recientes actualizado: No (false): respuesta de la copia que guarda la fuente").
    expect(failed.page).toContain('Datos recientes No pedidos: bastaba la copia que guarda la fuente');
    expect(failed.page).not.toMatch(/\b(?:date_of_birth|false|true)\b/);
    expect(failed.page).not.toContain('actualizado No');
    expect(failed.page).toContain(
      'Qué pasó La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502. Detalle técnico catalog source answered HTTP 503',
    );
    expect(failed.html).toMatch(/<details class="raw-detail"><summary>Detalle técnico<\/summary><pre[^>]*>catalog source answered HTTP 503/);
    expect(failed.page).toContain('Sin cobro. Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
    expect(failed.page).toMatch(/Reserva del saldo al iniciar la consulta -Q 1\.50 .* Reserva liberada: el saldo se devuelve \+Q 1\.50 .* Total en el saldo Q 0\.00/);
    expect(failed.page).not.toContain('Respuesta Con datos');

    const timedOut = (await recordPage(await lookup(ROUTES.cuiNit, { cui: FAULT_IDENTIFIERS.slow.cui }, 502))).page;
    expect(timedOut).toContain('Qué pasó La fuente de catálogos no respondió dentro de 1.5 s. La integración recibió 502.');

    const unreadable = (await recordPage(await lookup(ROUTES.cuiNit, { nit: FAULT_IDENTIFIERS.unparseable.nit }, 502))).page;
    expect(unreadable).toContain('La fuente de catálogos respondió HTTP 200, pero con una respuesta que no se pudo leer (no tiene el formato de la fuente).');
  });

  it('says why the catalog source refused a query, in words: an RTU that needs date_of_birth, or a date that does not match', async () => {
    const taxpayer = gateway.sample.withoutHeldCopy;
    const missing = (await recordPage(await lookup(ROUTES.catalogRtu, { nit: taxpayer.nit }, 400))).page;
    expect(missing).toContain(
      'Qué pasó La fuente de catálogos rechazó la consulta: este contribuyente requiere fecha de nacimiento: envíe date_of_birth (AAAA-MM-DD; la fecha de constitución si es una empresa). La integración recibió 400.',
    );
    expect(missing).toContain('Sin cobro.');

    const wrong = (await recordPage(await lookup(ROUTES.catalogRtu, { nit: taxpayer.nit, date_of_birth: '1900-01-01' }, 400))).page;
    expect(wrong).toContain('rechazó la consulta: la fecha enviada en date_of_birth no coincide con la del registro de este contribuyente. La integración recibió 400.');

    // Any other refusal keeps saying what its status means.
    const rejected = (await recordPage(await lookup(ROUTES.catalogRtu, { nit: FAULT_IDENTIFIERS.data_rejected.nit }, 400))).page;
    expect(rejected).toContain('respondió HTTP 400 (solicitud no válida): rechazó los datos de la consulta por no ser válidos. La integración recibió 400.');
  });

  it('says when a registry 200 found nothing, and that registry lookups are not charged', async () => {
    const renap = (await recordPage(await lookup(ROUTES.renap, { cui: FAULT_IDENTIFIERS.not_found.cui }, 200))).page;
    expect(renap).toContain('Respuesta Vacía: el registro respondió 200 sin datos de la persona');
    expect(renap).toContain('Sin cobro. RENAP por CUI no se cobra: solo los catálogos tienen tarifa.');
    expect(renap).not.toContain('date_of_birth');

    const batch = (await recordPage(await lookup(ROUTES.rtuNits, { nits: [FAULT_IDENTIFIERS.not_found.nit] }, 200))).page;
    expect(batch).toContain('Respuesta Vacía: el registro respondió 200 sin encontrar ninguno de los NIT.');

    const failed = (await recordPage(await lookup(ROUTES.renap, { cui: FAULT_IDENTIFIERS.server_error.cui }, 500))).page;
    expect(failed).toContain('Qué pasó El registro de personas (RENAP) respondió HTTP 500 (error interno): la fuente falló. La integración recibió 500.');
  });

  it('says "No registrado" for what older records lack, and still explains their failure in Spanish', async () => {
    const failed = (await recordPage(LEGACY_FAILED)).page;
    expect(failed).toContain('Qué pasó La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.');
    expect(failed).toContain('Detalle técnico catalog source answered HTTP 503');
    expect(failed).toContain('Datos recientes No registrado (consulta anterior a que se guardara este dato)');
    expect(failed).toContain('Fecha de nacimiento No registrado');

    const succeeded = (await recordPage(LEGACY_SUCCESS)).page;
    expect(succeeded).toContain('Respuesta No registrado (consulta anterior a que se guardara este dato)');
    expect(succeeded).toContain('Qué pasó Respondida sin error');
  });
});

// Every request id an integrator is given leads support somewhere true (issue 32, point 1): on the
// main before it, a replay's id and a refusal's id both read "Ninguna consulta tiene el id…".
describe('a request id that left no record, as support searches it', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  /** Where the search for a request id leads, once this instance has written its traces (every ROLLUP_INTERVAL_MS). */
  async function searched(requestId: string, expected: RegExp): Promise<{ location: string; page: string }> {
    let location = '';
    let page = '';
    await expect
      .poll(
        async () => {
          const found = await support.request(`/admin/registros?${new URLSearchParams({ identificador: requestId })}`);
          location = found.headers.get('location') ?? '';
          page = text((await support.request(location)).text);
          return page;
        },
        { timeout: 15_000, interval: 250 },
      )
      .toMatch(expected);
    return { location, page };
  }

  const time = String.raw`\d\d/\d\d/\d{4},? \d\d:\d\d:\d\d`;

  it("opens a replayed Idempotency-Key answer's id on the query it repeated, charged once", async () => {
    const headers = { 'idempotency-key': `soporte-${Date.now()}` };
    const first = await gateway.call(ROUTES.cuiNit, { as: acme, json: { nit: gateway.sample.individual.nit }, headers });
    const replay = await gateway.call(ROUTES.cuiNit, { as: acme, json: { nit: gateway.sample.individual.nit }, headers });
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.requestId).not.toBe(first.requestId);

    const { location, page } = await searched(replay.requestId, /es una repetición de/);
    expect(location).toMatch(new RegExp(`^/admin/registros/\\d+\\?repeticion=${replay.requestId}$`));
    expect(page).toContain(
      `${replay.requestId} es una repetición de ${first.requestId} con la misma Idempotency-Key (`,
    );
    expect(page).toContain('recibió la misma respuesta que esta consulta (200) y no se cobró; esta consulta se cobró una vez (Q 1.50).');
    expect(page).toContain(`Consulta ${location.match(/registros\/(\d+)/)![1]}`);
    // The original's own id opens the same page, without the replay's notice.
    const original = await searched(first.requestId, /Cobrado: Q 1\.50/);
    expect(original.location.split('?')[0]).toBe(location.split('?')[0]);
    expect(original.page).not.toContain('es una repetición de');
  });

  it("explains a 402's, a 429's and a wrong token's id in one sentence each: who, which lookup, why, when, not charged", async () => {
    const outOfBalance = await gateway.call(ROUTES.omisos, { as: broke, json: { nit: gateway.sample.omiso.nit } });
    expect(outOfBalance.status).toBe(402);
    const refused402 = await searched(outOfBalance.requestId, /sin cobro/);
    expect(refused402.page).toMatch(new RegExp(`${outOfBalance.requestId}: coop-sin-saldo, /api/catalogos/omisos, 402 sin saldo, ${time}, sin cobro`));
    expect(refused402.page).toContain('El servicio la rechazó antes de consultar ninguna fuente (Sin saldo (402))');

    // The catalogs' shared per-minute limit (30 by default): the 31st is refused.
    let limited: Awaited<ReturnType<Gateway['call']>> | undefined;
    for (let index = 0; index < 31 && limited?.status !== 429; index++) {
      limited = await gateway.call(ROUTES.cuiNit, { as: busy, json: { nit: gateway.sample.individual.nit } });
    }
    expect(limited!.status).toBe(429);
    const refused429 = await searched(limited!.requestId, /sin cobro/);
    expect(refused429.page).toMatch(
      new RegExp(`${limited!.requestId}: coop-apurada, /api/catalogos/cui-nit, 429 límite por minuto de la integración, ${time}, sin cobro`),
    );

    const wrongToken = await gateway.call(ROUTES.catalogRtu, { as: { ...acme, token: 'no-es-el-token' }, json: { nit: gateway.sample.individual.nit } });
    expect(wrongToken.status).toBe(401);
    const refused401 = await searched(wrongToken.requestId, /sin cobro/);
    expect(refused401.page).toMatch(
      new RegExp(`${wrongToken.requestId}: sin integración identificada, /api/catalogos/rtu, 401 credenciales no válidas, ${time}, sin cobro`),
    );
  });

  it('says what an id with neither a record nor a trace may be', async () => {
    const { page } = await searched('req_0000000000nadaquever', /Ninguna consulta ni rechazo/);
    expect(page).toContain('Ninguna consulta ni rechazo tiene el id de solicitud req_0000000000nadaquever');
    expect(page).toContain(
      'Cada rechazo y cada respuesta que el servicio no pudo atender (502 o 500 sin registro) queda con su id de solicitud durante 7 días; este no está entre ellos.',
    );
  });
});

