// Consultas in the integrators' portal over HTTP against the built app (issue 33, points 4 and 5): a
// person of integration A reads A's query records, finds them by request id and by NIT or CUI (the
// form posted, the identifier never in an address), reveals one record's identifiers (in the access
// log administrators read) and downloads a range as CSV; with B's request ids, traces and NITs on
// every page, search, reveal and download A learns nothing: the answers are those for ids that do
// not exist. Billing is refused, and a console session or none gets nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { PORTAL_DOWNLOAD_MESSAGES } from '@/lib/surfaces/portal/downloads';
import { EXPIRED_SEARCH_MESSAGE } from '@/lib/presentation/personal-data-labels';
import { flushRequestTraces, traceRefusal } from '@/lib/core/request-traces/buffer';
import { RECORD_READERS } from '@/lib/flows/portal-identity/roles';
import { createTestIntegration, ROUTES, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn, signedOutPortalClient } from '../support/people';
import { expectPortalRefusal, portalNavLinks, says, type PortalClient } from '../support/portal-client';
import { settledCatalogQuery } from '../support/query-records';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const SHARED_NIT = '8812345-6';
const NIT_ONLY_B = '39525503';
const CUI_A = '1587 56444 0904';
const UNKNOWN_REQUEST_ID = 'req_00000000000000000000';
const people = { ownerA: 'duena-a@example.com', developerA: 'dev-a@example.com', billingA: 'conta-a@example.com', ownerB: 'duena-b@example.com' } as const;

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let admin: { email: string; password: string };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-consultas-a', { tariffCentavos: 150, balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('portal-consultas-b', { tariffCentavos: 150, balanceCentavos: 10_000 });
  await settledCatalogQuery(integrationA, 'req_aaaaaaaaaaaaaaaaaaaa', { status: 200, nit: SHARED_NIT });
  await settledCatalogQuery(integrationA, 'req_afafafafafafafafafaf', { status: 502, cui: CUI_A });
  await settledCatalogQuery(integrationB, 'req_bbbbbbbbbbbbbbbbbbbb', { status: 200, nit: SHARED_NIT });
  await settledCatalogQuery(integrationB, 'req_bcbcbcbcbcbcbcbcbcbc', { status: 200, nit: NIT_ONLY_B });
  traceRefusal({ requestId: 'req_a402a402a402a402a402', integrationId: integrationA.id, lookup: 'omisos', reason: 'balance_exhausted' });
  traceRefusal({ requestId: 'req_b402b402b402b402b402', integrationId: integrationB.id, lookup: 'omisos', reason: 'balance_exhausted' });
  await flushRequestTraces();
  await addPortalMember(integrationA, people.ownerA, 'propietario');
  await addPortalMember(integrationA, people.developerA, 'desarrollador');
  await addPortalMember(integrationA, people.billingA, 'facturacion');
  await addPortalMember(integrationB, people.ownerB, 'propietario');
  admin = await newConsoleUser('admin-consultas@example.com', 'admin', { name: 'Administración' });
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

/** Posts the search box as the page's form does. */
function search(client: PortalClient, identificador: string) {
  return client.post('/portal/consultas/buscar', {}, { identificador, consulta: '', estado: '', desde: '', hasta: '' });
}

/** A page's visible words, the request id it was asked about made generic: what a person reads. */
function shownText(html: string, requestId: string): string {
  return html
    .replace(/<head>[\s\S]*?<\/head>/, ' ')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll(requestId, 'ID')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A whole HTML answer byte for byte, but for the id it was asked about and the request's CSP nonce. */
function wholeAnswer(html: string, requestId: string): string {
  return html.replaceAll(requestId, 'ID').replace(/[A-Za-z0-9+/]{22}==/g, 'NONCE');
}

describe('an owner of A', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let ownerA: PortalClient;
  beforeAll(async () => {
    ownerA = await portalSignedIn(gateway.app.baseUrl, people.ownerA);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('lists A’s queries with masked identifiers, from the menu, and nothing of B whatever the address says', async () => {
    expect(portalNavLinks((await ownerA.request('/portal')).text)).toContain('/portal/consultas');
    for (const path of ['/portal/consultas', `/portal/consultas?integracion=${integrationB.id}`]) {
      const page = await ownerA.request(path);
      expect(page.status, path).toBe(200);
      expect(page.text).toContain('req_aaaaaaaaaaaaaaaaaaaa');
      expect(page.text).toContain('req_afafafafafafafafafaf');
      expect(page.text).toContain('8812•••-6');
      expect(page.text).toContain('1587 •••• 0904');
      expect(page.text).not.toContain('8812345');
      expect(page.text).not.toContain('56444');
      expect(page.text).not.toContain('req_b');
    }
  });

  it('opens a query by its request id and reads why it failed and that it was not charged', async () => {
    const found = await search(ownerA, ' REQ_AFAFAFAFAFAFAFAFAFAF ');
    expect(found.status).toBe(303);
    expect(found.location).toBe('/portal/consultas/req_afafafafafafafafafaf');
    const page = await ownerA.request(found.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('respondió HTTP 503');
    expect(page.text).toContain('La integración recibió 502.');
    expect(page.text).toContain('Sin cobro.');
    expect(page.text).toContain('1587 •••• 0904');
    expect(page.text).not.toContain('56444');
  });

  it('reads its own refusal as the console’s sentence; B’s request ids and refusals read exactly as an unknown id', async () => {
    const refusal = await search(ownerA, 'req_a402a402a402a402a402');
    expect(refusal.location).toBe('/portal/consultas?solicitud=req_a402a402a402a402a402');
    const traced = await ownerA.request(refusal.location!);
    expect(traced.text).toContain('req_a402a402a402a402a402: portal-consultas-a, /api/catalogos/omisos, 402 sin saldo');
    expect(traced.text).toContain('sin cobro');

    const unknown = await search(ownerA, UNKNOWN_REQUEST_ID);
    expect(unknown.location).toBe(`/portal/consultas?solicitud=${UNKNOWN_REQUEST_ID}`);
    const unknownPage = await ownerA.request(unknown.location!);
    expect(shownText(unknownPage.text, UNKNOWN_REQUEST_ID)).toContain('Ninguna consulta ni rechazo de su integración tiene el id de solicitud ID');
    // An id from an answer that leaves no trace (server.mjs's 408, a per-IP 429 off the lookups) is explained, not only denied.
    expect(shownText(unknownPage.text, UNKNOWN_REQUEST_ID)).toContain('408 si no terminó de llegar en 30 s');
    expect(shownText(unknownPage.text, UNKNOWN_REQUEST_ID)).toContain('Esas no consultaron ninguna fuente y no se cobraron.');
    for (const requestId of ['req_bbbbbbbbbbbbbbbbbbbb', 'req_b402b402b402b402b402']) {
      const answer = await search(ownerA, requestId);
      expect(answer.location).toBe(`/portal/consultas?solicitud=${requestId}`);
      const page = await ownerA.request(answer.location!);
      expect(page.status).toBe(unknownPage.status);
      expect(shownText(page.text, requestId)).toBe(shownText(unknownPage.text, UNKNOWN_REQUEST_ID));
    }
  });

  it('a record page of B is the same 404 as one of an unknown id', async () => {
    const unknown = await ownerA.request(`/portal/consultas/${UNKNOWN_REQUEST_ID}`);
    expect(unknown.status).toBe(404);
    // Next renders a page's notFound() from the page's payload (the document's body is empty without script).
    expect(unknown.text).toContain('No existe esa consulta en su integración');
    for (const requestId of ['req_bbbbbbbbbbbbbbbbbbbb', 'req_b402b402b402b402b402']) {
      const answer = await ownerA.request(`/portal/consultas/${requestId}`);
      expect(answer.status).toBe(404);
      expect(wholeAnswer(answer.text, requestId)).toBe(wholeAnswer(unknown.text, UNKNOWN_REQUEST_ID));
    }
    // B's owner opens it: it exists, it is just not A's.
    expect((await (await portalSignedIn(gateway.app.baseUrl, people.ownerB)).request('/portal/consultas/req_bbbbbbbbbbbbbbbbbbbb')).status).toBe(200);
  });

  it('searches a NIT by posting it: the address holds a reference, the list A’s queries of it; B’s NIT finds nothing', async () => {
    const searched = await search(ownerA, '88123456');
    expect(searched.status).toBe(303);
    expect(searched.location).toMatch(/^\/portal\/consultas\?busqueda=bq_[A-Za-z0-9_-]{22}$/);
    const list = await ownerA.request(searched.location!);
    expect(list.text).toContain('req_aaaaaaaaaaaaaaaaaaaa');
    expect(list.text).not.toContain('req_afafafafafafafafafaf');
    expect(list.text).not.toContain('req_b');

    const onlyB = await search(ownerA, NIT_ONLY_B);
    const empty = await ownerA.request(onlyB.location!);
    expect(empty.text).toContain('Ninguna consulta coincide con estos filtros.');
    expect(empty.text).not.toContain('req_b');

    // A's reference in B's owner's hands opens nothing, nor in a download.
    const ownerB = await portalSignedIn(gateway.app.baseUrl, people.ownerB);
    const stolen = await ownerB.request(searched.location!);
    expect(stolen.text).toContain(EXPIRED_SEARCH_MESSAGE);
    expect(stolen.text).not.toContain('req_aaaaaaaaaaaaaaaaaaaa');
    const reference = searched.location!.split('busqueda=')[1]!;
    const download = await ownerB.request(`/portal/consultas/exportar?desde=${guatemalanToday()}&hasta=${guatemalanToday()}&busqueda=${reference}`);
    expect(download.status).toBe(400);
    expect(download.text).toBe(EXPIRED_SEARCH_MESSAGE);
  });

  it('reveals a record’s identifiers with a reason, logged where administrators read the console’s reveals; B’s record reveals nothing', async () => {
    const revealed = await ownerA.serverAction('/portal/consultas/req_afafafafafafafafafaf', 'revealPortalRecordAction', { solicitud: 'req_afafafafafafafafafaf', motivo: 'Conciliar un cobro' });
    expect(says(revealed, CUI_A)).toBe(true);
    const unknown = await ownerA.serverAction('/portal/consultas/req_afafafafafafafafafaf', 'revealPortalRecordAction', { solicitud: UNKNOWN_REQUEST_ID, motivo: 'Curiosidad' });
    const ofB = await ownerA.serverAction('/portal/consultas/req_afafafafafafafafafaf', 'revealPortalRecordAction', { solicitud: 'req_bcbcbcbcbcbcbcbcbcbc', motivo: 'Curiosidad' });
    expect(ofB.status).toBe(unknown.status);
    expect(says(ofB, 'No existe esa consulta en su integración')).toBe(true);
    expect(says(unknown, 'No existe esa consulta en su integración')).toBe(true);
    expect(ofB.text).not.toContain(NIT_ONLY_B);

    const accesses = await (await consoleSignedIn(gateway.app.baseUrl, admin)).request('/admin/datos-personales');
    expect(accesses.status).toBe(200);
    expect(accesses.text).toContain(`Integrador: ${people.ownerA} (portal-consultas-a)`);
    expect(accesses.text).toContain('Conciliar un cobro');
    expect(accesses.text).not.toContain('Curiosidad');
  });

  it('downloads a range as CSV, streamed, with masked identifiers and only A’s queries', async () => {
    const today = guatemalanToday();
    const csv = await ownerA.request(`/portal/consultas/exportar?desde=${today}&hasta=${today}&integracion=${integrationB.id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain(`consultas-${today}-a-${today}.csv`);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toContain('request_id');
    expect(lines.slice(1).map((line) => /req_[a-z0-9]+/.exec(line)?.[0])).toEqual(['req_afafafafafafafafafaf', 'req_aaaaaaaaaaaaaaaaaaaa']);
    expect(csv.text).toContain('8812•••-6');
    expect(csv.text).not.toContain('8812345');
    expect(csv.text).not.toContain('56444');
    const noRange = await ownerA.request('/portal/consultas/exportar');
    expect(noRange.status).toBe(400);
  });
});

describe('who may read Consultas', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a developer reads them; billing is refused every page, search, reveal and download, and not linked to them', async () => {
    const developer = await portalSignedIn(gateway.app.baseUrl, people.developerA);
    expect((await developer.request('/portal/consultas')).status).toBe(200);
    expect(portalNavLinks((await developer.request('/portal')).text)).toContain('/portal/consultas');

    const billing = await portalSignedIn(gateway.app.baseUrl, people.billingA);
    for (const path of ['/portal/consultas', '/portal/consultas/req_afafafafafafafafafaf']) {
      expectPortalRefusal(await billing.request(path), RECORD_READERS, 'página', path);
    }
    const searched = await search(billing, 'req_afafafafafafafafafaf');
    expectPortalRefusal(searched, RECORD_READERS);
    expect(searched.text).not.toContain('req_afafafafafafafafafaf');
    const download = await billing.request(`/portal/consultas/exportar?desde=${guatemalanToday()}&hasta=${guatemalanToday()}`);
    expectPortalRefusal(download, RECORD_READERS, 'descarga');
    const revealed = await billing.serverAction('/portal/consultas/req_afafafafafafafafafaf', 'revealPortalRecordAction', { solicitud: 'req_afafafafafafafafafaf', motivo: 'Conciliar un cobro' });
    expect(says(revealed, PORTAL_ACTION_MESSAGES.forbidden)).toBe(true);
    expect(revealed.text).not.toContain('56444');
    expect(portalNavLinks((await billing.request('/portal')).text)).not.toContain('/portal/consultas');
  });

  it('no portal session, or a console administrator’s, gets nothing', async () => {
    const anonymous = signedOutPortalClient(gateway.app.baseUrl);
    for (const client of [anonymous, await consoleSignedIn(gateway.app.baseUrl, admin)]) {
      for (const path of ['/portal/consultas', '/portal/consultas/req_afafafafafafafafafaf']) {
        expect((await client.request(path)).headers.get('location'), path).toMatch(/^\/portal\/ingresar/);
      }
      const download = await client.request(`/portal/consultas/exportar?desde=${guatemalanToday()}&hasta=${guatemalanToday()}`);
      expect(download.status).toBe(401);
      expect(download.text).toBe(PORTAL_DOWNLOAD_MESSAGES.signedOut);
      expect((await search(client, 'req_afafafafafafafafafaf')).location).toBe('/portal/ingresar');
      const revealed = await client.serverAction('/portal/consultas/req_afafafafafafafafafaf', 'revealPortalRecordAction', { solicitud: 'req_afafafafafafafafafaf', motivo: 'Conciliar un cobro' });
      expect(says(revealed, ACTION_MESSAGES.signedOut)).toBe(true);
      expect(revealed.text).not.toContain('56444');
    }
  });
});

// Last, so that the query it makes is in no list or download above.
describe('a query the catalog source refused, as A reads it', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says why in words, as the console does: the RTU of this taxpayer needs date_of_birth', async () => {
    const ownerA = await portalSignedIn(gateway.app.baseUrl, people.ownerA);
    const answer = await gateway.call(ROUTES.catalogRtu, { as: integrationA, json: { nit: gateway.sample.withoutHeldCopy.nit } });
    expect(answer.status, answer.text).toBe(400);
    const page = await ownerA.request(`/portal/consultas/${answer.requestId}`);
    expect(page.status).toBe(200);
    expect(shownText(page.text, answer.requestId)).toContain(
      'Qué pasó La fuente de catálogos rechazó la consulta: este contribuyente requiere fecha de nacimiento: envíe date_of_birth (AAAA-MM-DD; la fecha de constitución si es una empresa). La integración recibió 400.',
    );
    expect(page.text).toContain('Sin cobro.');
  });
});
