// Small console and invitation details over HTTP against the built app: an administrator cancels a
// pending invitation from the integration's Portal section (the link's page then says it was
// cancelled; a second cancel changes nothing; support cannot); the console's invite form chooses no
// role beforehand and a missing role is refused beside the field; a resend says "Invitación
// reenviada"; the invitation page says a refused password once; and a job's page, in the portal and
// in the console, names the uploaded file and who created it (a portal user, or the API's token).
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, bulkJobs } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { JOB_CREATOR_LABELS } from '@/lib/flows/bulk/origin';
import { INVITATION_MESSAGES } from '@/lib/flows/portal-identity/invitations';
import { createTestIntegration, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, consoleSignedIn, type ConsoleAccount, invitePortalMember, newConsoleUser, portalSignedIn, signedOutPortalClient } from '../support/people';
import { formFields, says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;
let admin: ConsoleAccount;
let support: ConsoleAccount;
let adminClient: PortalClient;

const DEVELOPER = 'dev-lotes-detalle@example.com';
const DEVELOPER_NAME = 'Rocío Chávez';

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('portal-detalles', { balanceCentavos: 50_000, tariffCentavos: 150 });
  await addPortalMember(integration, DEVELOPER, 'desarrollador', DEVELOPER_NAME);
  admin = await newConsoleUser('admin-detalles@example.com', 'admin', { name: 'Marta Solís' });
  support = await newConsoleUser('soporte-detalles@example.com', 'support', { name: 'Soporte' });
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '200' } });
  adminClient = await consoleSignedIn(gateway.app.baseUrl, admin);
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

const section = () => `/admin/integraciones/${integration.id}/portal`;

/**
 * The page's markup without its scripts (React repeats an action's answer in its flight data
 * there), and without React's text separators and the e-mails' <wbr>s, as a reader sees the text.
 */
function markup(html: string): string {
  return html.replace(/<script\b[\s\S]*?<\/script>/g, '').replaceAll('<!-- -->', '').replaceAll('<wbr/>', '');
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function htmlOf(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A server action's return value, from its flight answer (the line `1:…`). */
function answerOf(flight: { status: number; text: string }): { ok: boolean; message?: string; data?: Record<string, unknown>; fieldErrors?: Record<string, string> } {
  expect(flight.status, flight.text.slice(0, 300)).toBe(200);
  const line = flight.text.split('\n').find((candidate) => candidate.startsWith('1:'));
  if (!line) throw new Error(`no action answer in ${flight.text.slice(0, 300)}`);
  return JSON.parse(line.slice(2)) as never;
}

describe('the console’s Portal section', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('invites with no role chosen beforehand, and refuses a missing one beside the field', async () => {
    const page = await adminClient.request(section());
    expect(page.status).toBe(200);
    const select = /<select[^>]*name="rol"[^>]*>([\s\S]*?)<\/select>/.exec(page.text)?.[1] ?? '';
    expect(select).toContain('Elija un rol…');
    // Nothing selected but the empty choice: the browser shows "Elija un rol…".
    expect(select).not.toMatch(/<option[^>]*selected[^>]*value="(propietario|desarrollador|facturacion)"|<option[^>]*value="(propietario|desarrollador|facturacion)"[^>]*selected/);

    for (const input of [{ rol: '' }, {}]) {
      const refused = answerOf(await adminClient.serverAction(section(), 'invitePortalUserAction', { integrationId: integration.id, email: 'sin-rol@example.com', ...input }));
      expect(refused).toMatchObject({ ok: false, message: INVITATION_MESSAGES.checkField, fieldErrors: { rol: INVITATION_MESSAGES.role } });
    }
    const pending = await gateway.withDatabase(async () => (await db()).select().from(auditLog).where(eq(auditLog.action, 'portal.invite')));
    expect(pending.filter((row) => JSON.stringify(row.after).includes('sin-rol@example.com'))).toEqual([]);
  });

  it('an administrator cancels a pending invitation: its page says cancelled at once, a second cancel changes nothing, audited once', async () => {
    const { id, code } = await invitePortalMember(integration, 'a-cancelar@example.com', 'facturacion');
    const browser = signedOutPortalClient(gateway.app.baseUrl);
    expect((await browser.request(`/portal/invitacion?codigo=${code}`)).text).toContain('Crear mi cuenta');
    expect((await adminClient.request(section())).text).toContain('Cancelar invitación');

    const cancelled = answerOf(await adminClient.serverAction(section(), 'cancelPortalUserInvitationAction', { integrationId: integration.id, invitacion: id }));
    expect(cancelled).toMatchObject({ ok: true, message: 'Invitación a a-cancelar@example.com cancelada: su enlace ya no sirve.' });
    const page = await browser.request(`/portal/invitacion?codigo=${code}`);
    expect(markup(page.text)).toContain(htmlOf(INVITATION_MESSAGES.linkCancelled));
    expect(page.text).not.toContain('Crear mi cuenta');
    expect((await adminClient.request(section())).text).not.toContain('a-cancelar@example.com');

    const again = answerOf(await adminClient.serverAction(section(), 'cancelPortalUserInvitationAction', { integrationId: integration.id, invitacion: id }));
    expect(again).toMatchObject({ ok: true, message: 'La invitación a a-cancelar@example.com ya estaba cancelada: su enlace no sirve.' });
    const audited = await gateway.withDatabase(async () =>
      (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal.cancel_invitation'), eq(auditLog.targetId, String(integration.id)))),
    );
    expect(audited).toEqual([expect.objectContaining({ actor: `user:${admin.id} ${admin.email}`, before: { email: 'a-cancelar@example.com', role: 'facturacion' } })]);
  });

  it('support can neither see the button nor cancel', async () => {
    const { id, code } = await invitePortalMember(integration, 'no-la-cancela-soporte@example.com', 'facturacion');
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    expect((await staff.request(section())).text).not.toContain('Cancelar invitación');
    const refused = await staff.serverAction(section(), 'cancelPortalUserInvitationAction', { integrationId: integration.id, invitacion: id });
    expect(says(refused, ACTION_MESSAGES.forbidden)).toBe(true);
    expect((await signedOutPortalClient(gateway.app.baseUrl).request(`/portal/invitacion?codigo=${code}`)).text).toContain('Crear mi cuenta');
  });

  it('a resend says "Invitación reenviada", not what a first invitation says', async () => {
    const { id } = await invitePortalMember(integration, 'reenviar@example.com', 'desarrollador');
    const resent = answerOf(await adminClient.serverAction(section(), 'resendPortalUserInvitationAction', { integrationId: integration.id, invitacion: id }));
    expect(resent.ok, resent.message).toBe(true);
    expect(resent.message).toMatch(/^Invitación reenviada para reenviar@example\.com/);
    expect(resent.message).toContain('El enlace anterior ya no sirve.');
  });
});

describe('the invitation page', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('says a refused password once, beside the field, with no copy above the form', async () => {
    const { code } = await invitePortalMember(integration, 'clave-debil@example.com', 'facturacion');
    const browser = signedOutPortalClient(gateway.app.baseUrl);
    const fields = formFields((await browser.request(`/portal/invitacion?codigo=${code}`)).text, 'codigo');
    // Long enough for the form, refused by the policy: it contains the person's address.
    const weak = 'clave-debil@example.com';
    // Posted to the link's own address, so the page rendered with the answer still shows the form.
    const answer = await browser.post(`/portal/invitacion?codigo=${code}`, fields, { nombre: 'Clave Débil', clave: weak, repetida: weak });
    expect(answer.status).toBe(200);
    // What the reader sees: the page's text, without the hidden inputs that carry the form's state.
    const page = markup(answer.text).replace(/<input[^>]*>/g, '');
    const problem = /<p class="error" id="clave-error"[^>]*>([^<]+)<\/p>/.exec(page)?.[1];
    expect(problem, page.slice(0, 2000)).toBeTruthy();
    expect(occurrences(page, problem!)).toBe(1);
    expect(page).not.toContain('class="notice error"');
  });
});

describe('a job’s page', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('names the uploaded file and who created it, in the portal and the console; a job through the API says so', async () => {
    const developer = await portalSignedIn(gateway.app.baseUrl, DEVELOPER);
    const file = new File(['nit\r\n1234567\r\n'], 'C:\\fakepath\\Proveedores de noviembre\u202E.csv', { type: 'text/csv' });
    const estimate = answerOf(await developer.serverActionWithFiles('/portal/lotes/nuevo', 'estimatePortalBulkJobAction', { catalogo: 'rtu' }, { archivo: file }));
    expect(estimate.ok, estimate.message).toBe(true);
    const created = answerOf(
      await developer.serverActionWithFiles('/portal/lotes/nuevo', 'createPortalBulkJobAction', { catalogo: 'rtu', confirmacion: estimate.data!.confirmation }, { archivo: file }),
    );
    expect(created.ok, created.message).toBe(true);
    const path = created.data!.path as string;

    const portalPage = markup((await developer.request(path)).text);
    expect(portalPage).toContain('Archivo');
    expect(portalPage).toContain('Proveedores de noviembre.csv');
    expect(portalPage).not.toContain('fakepath');
    expect(portalPage).toContain(`${htmlOf(DEVELOPER_NAME)} (<span class="email-address">${DEVELOPER}</span>), desde el portal`);

    const publicId = path.split('/').at(-1)!;
    const consolePage = markup((await adminClient.request(`/admin/lotes/${publicId}`)).text).replace(/<\/?span[^>]*>/g, '');
    expect(consolePage).toContain(`Creado por ${htmlOf(DEVELOPER_NAME)} (${DEVELOPER}), desde el portal, con el archivo «Proveedores de noviembre.csv»`);

    const viaApi = await gateway.call('/api/lotes', { as: integration, json: { catalogo: 'rtu', identificadores: ['1234567'] }, headers: { 'idempotency-key': randomUUID() } });
    expect(viaApi.status).toBe(202);
    const apiId = (viaApi.body as { id: string }).id;
    const [stored] = await gateway.withDatabase(async () => (await db()).select({ fileName: bulkJobs.fileName, by: bulkJobs.createdByPortalUserId }).from(bulkJobs).where(eq(bulkJobs.publicId, apiId)));
    expect(stored).toEqual({ fileName: null, by: null });
    const apiPage = markup((await developer.request(`/portal/lotes/${apiId}`)).text);
    expect(apiPage).toContain(htmlOf(JOB_CREATOR_LABELS.api));
    expect(apiPage).not.toContain('>Archivo<');
    const apiConsole = markup((await adminClient.request(`/admin/lotes/${apiId}`)).text).replace(/<\/?span[^>]*>/g, '');
    expect(apiConsole).toContain(`Creado por ${htmlOf(JOB_CREATOR_LABELS.api)}`);
  });
});
