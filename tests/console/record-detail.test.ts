// A query's page as support reads it (issue 24, defects 6 and 15), over HTTP against the built app
// with real lookups through the simulator: whether a 200 carried data (a catalog's all-null answer
// said, and that it was charged anyway), the catalogs' `actualizado` and whether `date_of_birth`
// was sent (never the date), the charge in one line with the balance movements behind it adding
// up to it, and a failure explained in Spanish from what kind of failure it was, the source's
// English detail folded under "Detalle técnico". Records written before those facts were kept say
// "No registrado" and are still explained from their detail. No full identifier on any of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUnbilledQuery } from '@/lib/records/write';
import { createConsoleUser } from '@/lib/users/service';
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
  gateway = await startGateway(testDatabase);
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
    expect(page).toContain('Datos recientes actualizado Sí (true): la fuente consultó a la autoridad en ese momento');
    expect(page).toContain('Fecha de nacimiento date_of_birth Enviada a la fuente (la fecha no se guarda)');
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
    expect(withData).toContain('Datos recientes actualizado No (false): respuesta de la copia que guarda la fuente');
    expect(withData).toContain('Fecha de nacimiento date_of_birth No enviada');
    expect(withData).toContain('Cobrado: Q 1.50');

    const unused = (await recordPage(await lookup(ROUTES.omisos, { nit: gateway.sample.omiso.nit, date_of_birth: DATE_OF_BIRTH }, 200))).page;
    expect(unused).toContain('Fecha de nacimiento date_of_birth Enviada, pero esta consulta no la usa (solo la lee el catálogo RTU)');
  });

  it('explains a source failure in Spanish from its kind, keeps the English detail folded, and says why nothing was charged', async () => {
    const failed = await recordPage(await lookup(ROUTES.omisos, { nit: FAULT_IDENTIFIERS.server_error.nit }, 502));
    expect(failed.page).toContain(
      'Qué pasó La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502. Detalle técnico catalog source answered HTTP 503',
    );
    expect(failed.html).toMatch(/<details class="raw-detail"><summary>Detalle técnico<\/summary><pre[^>]*>catalog source answered HTTP 503/);
    expect(failed.page).toContain('Sin cobro : Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
    expect(failed.page).toMatch(/Reserva del saldo al iniciar la consulta -Q 1\.50 .* Reserva liberada: el saldo se devuelve \+Q 1\.50 .* Total en el saldo Q 0\.00/);
    expect(failed.page).not.toContain('Respuesta Con datos');

    const timedOut = (await recordPage(await lookup(ROUTES.cuiNit, { cui: FAULT_IDENTIFIERS.slow.cui }, 502))).page;
    expect(timedOut).toContain('Qué pasó La fuente de catálogos no respondió dentro de 1.5 s. La integración recibió 502.');

    const unreadable = (await recordPage(await lookup(ROUTES.cuiNit, { nit: FAULT_IDENTIFIERS.unparseable.nit }, 502))).page;
    expect(unreadable).toContain('La fuente de catálogos respondió HTTP 200, pero con una respuesta que no se pudo leer (no tiene el formato de la fuente).');
  });

  it('says when a registry 200 found nothing, and that registry lookups are not charged', async () => {
    const renap = (await recordPage(await lookup(ROUTES.renap, { cui: FAULT_IDENTIFIERS.not_found.cui }, 200))).page;
    expect(renap).toContain('Respuesta Vacía: el registro respondió 200 sin datos de la persona');
    expect(renap).toContain('Sin cobro : RENAP por CUI no se cobra: solo los catálogos tienen tarifa.');
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
    expect(failed).toContain('Datos recientes actualizado No registrado (consulta anterior a que se guardara este dato)');
    expect(failed).toContain('Fecha de nacimiento date_of_birth No registrado');

    const succeeded = (await recordPage(LEGACY_SUCCESS)).page;
    expect(succeeded).toContain('Respuesta No registrado (consulta anterior a que se guardara este dato)');
    expect(succeeded).toContain('Qué pasó Respondida sin error');
  });
});
