// What the integrators' portal reads, over HTTP against the built app (issue 33, points 4 and 5):
// Movimientos, Credenciales and Estados de cuenta with their downloads. A person of integration A
// sees A's and nothing of B's, whatever ids they put in the URL: B's statement ids are answered
// exactly as ids that do not exist. Each page opens for its roles only and the navigation links
// only those; staff are never named to an integrator, nor a token shown beyond its prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/core/audit/audit';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { setAllowedNetworks } from '@/lib/flows/integration-management/service';
import { PORTAL_DOWNLOAD_MESSAGES } from '@/lib/surfaces/portal/downloads';
import { BILLING_READERS, CREDENTIAL_READERS } from '@/lib/flows/portal-identity/roles';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { PREVIEW_MARK } from '@/lib/flows/statements/texts';
import { issueStatement } from '@/lib/flows/statements/statements';
import { createTestIntegration, startGateway, TEST_ACTOR, type Gateway, type TestIntegration } from '../conformance/harness';
import { expectPortalDownloadMissing, expectPortalRefusal, portalNavLinks, type PortalClient } from '../support/portal-client';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn, signedOutPortalClient } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const STAFF_EMAIL = 'cajera.interna@servicio.example';
const STAFF: Actor = { kind: 'user', id: 4242, email: STAFF_EMAIL };
const UNKNOWN_ID = '2000000000';

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
let integrationB: TestIntegration;
let statementA: number;
let statementB: number;
let admin: { email: string; password: string };
const people = { ownerA: 'duena-a@example.com', billingA: 'conta-a@example.com', developerA: 'dev-a@example.com', ownerB: 'duena-b@example.com' } as const;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-vistas-a', { balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('portal-vistas-b', { balanceCentavos: 5_000 });
  // Money moved by staff, whose e-mail an integrator never sees; B's with notes A must never read.
  expect((await topUp(STAFF, integrationA.id, 2_500, 'Depósito de A en noviembre')).ok).toBe(true);
  expect((await adjustBalance(STAFF, integrationA.id, -300, 'Corrección de A')).ok).toBe(true);
  expect((await topUp(STAFF, integrationB.id, 7_700, 'Depósito secreto de B')).ok).toBe(true);
  expect((await setAllowedNetworks(TEST_ACTOR, integrationA.id, ['192.0.2.0/24'])).ok).toBe(true);
  expect((await setAllowedNetworks(TEST_ACTOR, integrationB.id, ['198.51.100.77'])).ok).toBe(true);
  // The running month issued as if it had ended (a statement needs a closed month).
  const month = guatemalanMonthOf(new Date());
  const afterMonth = new Date(monthPeriod(month).until.getTime() + 86_400_000);
  const [issuedA, issuedB] = [await issueStatement(TEST_ACTOR, integrationA.id, month, afterMonth), await issueStatement(TEST_ACTOR, integrationB.id, month, afterMonth)];
  if (!issuedA.ok || !issuedB.ok) throw new Error('the statements were not issued');
  statementA = issuedA.value.id;
  statementB = issuedB.value.id;
  await addPortalMember(integrationA, people.ownerA, 'propietario');
  await addPortalMember(integrationA, people.billingA, 'facturacion');
  await addPortalMember(integrationA, people.developerA, 'desarrollador');
  await addPortalMember(integrationB, people.ownerB, 'propietario');
  admin = await newConsoleUser('admin-vistas@example.com', 'admin', { name: 'Administración' });
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

describe('an owner of A', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let ownerA: PortalClient;
  beforeAll(async () => {
    ownerA = await portalSignedIn(gateway.app.baseUrl, people.ownerA);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('sees A’s movements with the balance each left, staff as "Administración", and nothing of B whatever the URL says', async () => {
    const page = await ownerA.request('/portal/movimientos');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Depósito de A en noviembre');
    expect(page.text).toContain('Corrección de A');
    expect(page.text).toContain('Administración');
    expect(page.text).toMatch(/Q\s?122\.00/);
    expect(page.text).not.toContain(STAFF_EMAIL);
    expect(page.text).not.toContain('Depósito secreto de B');
    // An id of B in the query string names nothing: the integration is the session's.
    const withB = await ownerA.request(`/portal/movimientos?integracion=${integrationB.id}&id=${integrationB.id}&integrationId=${integrationB.id}`);
    expect(withB.status).toBe(200);
    expect(withB.text).toContain('Depósito de A en noviembre');
    expect(withB.text).not.toContain('Depósito secreto de B');
  });

  it('sees A’s token by its prefix, never the token, and A’s allow-list, nothing of B', async () => {
    const page = await ownerA.request(`/portal/credenciales?id=${integrationB.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('192.0.2.0/24');
    expect(page.text).not.toContain(integrationA.token);
    expect(page.text).not.toContain('198.51.100.77');
    expect(page.text).not.toContain(integrationB.token.slice(0, 10));
    // The prefix shown is the start of A's token, and only its start.
    const shown = /data-testid="portal-token-prefix"[^>]*>([^<]+)</.exec(page.text)?.[1]?.replace('…', '') ?? '';
    expect(shown.length).toBeGreaterThan(4);
    expect(shown.length).toBeLessThan(integrationA.token.length / 2);
    expect(integrationA.token.startsWith(shown)).toBe(true);
  });

  it('lists A’s statement and downloads its PDF and CSV; B’s statement ids are answered as ids that do not exist', async () => {
    const page = await ownerA.request('/portal/estados');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`/portal/estados/${statementA}/pdf`);
    expect(page.text).not.toContain(`/portal/estados/${statementB}/`);

    const pdf = await ownerA.request(`/portal/estados/${statementA}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF')).toBe(true);
    const csv = await ownerA.request(`/portal/estados/${statementA}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toContain('request_id');

    for (const kind of ['pdf', 'csv']) {
      const unknown = await ownerA.request(`/portal/estados/${UNKNOWN_ID}/${kind}`);
      expectPortalDownloadMissing(unknown, PORTAL_DOWNLOAD_MESSAGES.notFound, kind);
      for (const id of [String(statementB), 'abc', '0']) {
        const answer = await ownerA.request(`/portal/estados/${id}/${kind}`);
        expect({ id, status: answer.status, text: answer.text, type: answer.headers.get('content-type') }).toEqual({
          id,
          status: unknown.status,
          text: unknown.text,
          type: unknown.headers.get('content-type'),
        });
      }
    }
    // B's owner downloads B's statement by the same id: it exists, it is just not A's.
    const ownerB = await portalSignedIn(gateway.app.baseUrl, people.ownerB);
    expect((await ownerB.request(`/portal/estados/${statementB}/pdf`)).status).toBe(200);
    expect((await ownerB.request(`/portal/estados/${statementA}/pdf`)).status).toBe(404);
  });

  it('reads the running month’s preview of A, marked as one and unnumbered, and downloads it as PDF; nothing of B', async () => {
    const statements = await ownerA.request('/portal/estados');
    expect(statements.text).toContain('data-testid="portal-running-month"');
    expect(statements.text).toContain('href="/portal/estados/vista-previa"');
    expect(statements.text).toContain('href="/portal/estados/vista-previa/pdf"');

    const page = await ownerA.request('/portal/estados/vista-previa');
    expect(page.status).toBe(200);
    expect(page.text).toContain(PREVIEW_MARK);
    expect(page.text).toContain('data-testid="statement-preview"');
    expect(page.text).toContain('Depósito de A en noviembre');
    // The closing balance is the balance now: 100.00 + 25.00 - 3.00.
    expect(page.text).toMatch(/Saldo final[\s\S]{0,200}Q\s?122\.00/);
    expect(page.text).not.toContain('Depósito secreto de B');
    expect(page.text).not.toContain(integrationB.nombre);
    // A preview has no number: the issued statement's is nowhere on it.
    expect(page.text).toContain('Sin número: no es un estado de cuenta emitido');
    expect(page.text).not.toContain('Estado n.º');

    const pdf = await ownerA.request('/portal/estados/vista-previa/pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="vista-previa-estado-de-cuenta-portal-vistas-a-\d{4}-\d{2}-01-a-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(pdf.text.startsWith('%PDF')).toBe(true);
  });

  it('has every new page in its navigation', async () => {
    expect(portalNavLinks((await ownerA.request('/portal')).text)).toEqual(expect.arrayContaining(['/portal/movimientos', '/portal/estados', '/portal/credenciales']));
  });
});

describe('roles', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('billing reads movements and statements but not credentials, and is not linked to them', async () => {
    const billing = await portalSignedIn(gateway.app.baseUrl, people.billingA);
    expect((await billing.request('/portal/movimientos')).status).toBe(200);
    expect((await billing.request('/portal/estados')).status).toBe(200);
    expect((await billing.request(`/portal/estados/${statementA}/pdf`)).status).toBe(200);
    const preview = await billing.request('/portal/estados/vista-previa');
    expect(preview.status).toBe(200);
    expect(preview.text).toContain(PREVIEW_MARK);
    const previewPdf = await billing.request('/portal/estados/vista-previa/pdf');
    expect(previewPdf.status).toBe(200);
    expect(previewPdf.headers.get('content-type')).toBe('application/pdf');
    expectPortalRefusal(await billing.request('/portal/credenciales'), CREDENTIAL_READERS);
    const links = portalNavLinks((await billing.request('/portal')).text);
    expect(links).toEqual(expect.arrayContaining(['/portal/movimientos', '/portal/estados']));
    expect(links).not.toContain('/portal/credenciales');
  });

  it('a developer reads credentials but not movements nor statements (pages or downloads), and is not linked to them', async () => {
    const developer = await portalSignedIn(gateway.app.baseUrl, people.developerA);
    expect((await developer.request('/portal/credenciales')).status).toBe(200);
    for (const path of ['/portal/movimientos', '/portal/estados', '/portal/estados/vista-previa']) {
      expectPortalRefusal(await developer.request(path), BILLING_READERS, 'página', path);
    }
    expectPortalRefusal(await developer.request('/portal/estados/vista-previa/pdf'), BILLING_READERS, 'descarga', 'preview pdf');
    for (const kind of ['pdf', 'csv']) {
      expectPortalRefusal(await developer.request(`/portal/estados/${statementA}/${kind}`), BILLING_READERS, 'descarga', kind);
    }
    const links = portalNavLinks((await developer.request('/portal')).text);
    expect(links).toContain('/portal/credenciales');
    expect(links).not.toContain('/portal/movimientos');
    expect(links).not.toContain('/portal/estados');
  });

  it('no portal session, or a console administrator’s, downloads nothing', async () => {
    const anonymous = signedOutPortalClient(gateway.app.baseUrl);
    const consoleAdmin = await consoleSignedIn(gateway.app.baseUrl, admin);
    for (const client of [anonymous, consoleAdmin]) {
      const answer = await client.request(`/portal/estados/${statementA}/pdf`);
      expect(answer.status).toBe(401);
      expect(answer.text).toBe(PORTAL_DOWNLOAD_MESSAGES.signedOut);
      expect((await client.request('/portal/estados/vista-previa/pdf')).status).toBe(401);
      expect((await client.request('/portal/movimientos')).headers.get('location')).toMatch(/^\/portal\/ingresar/);
    }
  });
});
