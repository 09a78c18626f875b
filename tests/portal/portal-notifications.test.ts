// The portal's notifications self-service over HTTP against the built app (issue 34, point 2): an
// owner sets the integration's contacts (validated as the console validates them) and its webhook
// (the console's SSRF rules; the signing secret shown once), sends a test notice that arrives
// signed at a real receiver and shows in the delivery log, and turns a recipient's kind off; every
// change is audited with the owner as actor. A developer and a billing user are sent to "Sin
// permiso" and refused every action on the server. Another integration's ids: the isolation suite.
import { and, eq } from 'drizzle-orm';
import { EMAIL_NOT_CONFIGURED_FOR_PORTAL } from '@/lib/reactions/alerts/email-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { alertDeliveries, auditLog, integrationNotificationOptOuts, integrations } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { RESEND_MESSAGES } from '@/lib/reactions/integrator-notifications/resend';
import { NOTIFICATION_MANAGERS } from '@/lib/flows/portal-identity/roles';
import { createTestIntegration, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { addPortalMember, portalSignedIn } from '../support/people';
import { expectPortalRefusal, PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const PAGE = '/portal/notificaciones';
const people = { ownerA: 'duena-avisos@example.com', developerA: 'dev-avisos@example.com', billingA: 'conta-avisos@example.com' } as const;

let testDatabase: TestDatabase;
let gateway: Gateway;
let integrationA: TestIntegration;
// Another integration: its id sent by A's owner (as the console's forms send one) changes nothing of it.
let integrationB: TestIntegration;
let receiver: WebhookReceiver;
// The secret the portal shows once: the receiver checks signatures with it once it is known.
let shownSecret = 'todavía-ninguno';

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await createTestIntegration('portal-avisos-a', { balanceCentavos: 10_000 });
  integrationB = await createTestIntegration('portal-avisos-b', { balanceCentavos: 10_000 });
  await addPortalMember(integrationA, people.ownerA, 'propietario');
  await addPortalMember(integrationA, people.developerA, 'desarrollador');
  await addPortalMember(integrationA, people.billingA, 'facturacion');
  receiver = await startWebhookReceiver(() => shownSecret);
  gateway = await startGateway(testDatabase, {
    // The receiver listens on 127.0.0.1 (development only; production refuses this setting).
    env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '200', INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true', ALERT_RETRY_BASE_MS: '50' },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await receiver?.close();
  await testDatabase?.cleanup();
});

interface Answer {
  ok: boolean;
  message?: string;
  fieldErrors?: Record<string, string>;
  data?: { secret?: string; saved?: string; tone?: string; text?: string };
}

/** A server action's answer: its return value, the flight's line `1:…`. */
function answerOf(flight: { text: string }): Answer {
  const line = flight.text.split('\n').find((candidate) => candidate.startsWith('1:'));
  if (!line) throw new Error(`no action answer in ${flight.text.slice(0, 300)}`);
  return JSON.parse(line.slice(2)) as Answer;
}

async function integrationRow(integration: TestIntegration) {
  return gateway.withDatabase(async () => (await (await db()).select().from(integrations).where(eq(integrations.id, integration.id)))[0]!);
}
const integrationRowOfA = () => integrationRow(integrationA);

async function auditOf(action: string) {
  return gateway.withDatabase(async () =>
    (await db()).select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(integrationA.id)))).orderBy(auditLog.id),
  );
}

/** The audit's actor for A's owner: the portal user, never an administrator. */
const ownerActor = () => new RegExp(`^integrator:\\d+ ${integrationA.id} ${people.ownerA} \\(portal-avisos-a\\)$`);

describe('an owner of A', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let owner: PortalClient;
  beforeAll(async () => {
    owner = await portalSignedIn(gateway.app.baseUrl, people.ownerA);
  }, PROCESS_TEST_TIMEOUT_MS);

  it('finds Notificaciones in the navigation and opens it', async () => {
    const home = await owner.request('/portal');
    expect(home.text).toContain('href="/portal/notificaciones"');
    const page = await owner.request(PAGE);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Guardar contactos');
    expect(page.text).toContain('Guardar webhook');
    // This service has no mail server: the owner reads what to do, not the operator's setting names.
    expect(page.text).toContain(EMAIL_NOT_CONFIGURED_FOR_PORTAL);
    expect(page.text).not.toContain('ALERT_SMTP_HOST');
  });

  it('sets the contacts’ addresses, refused as the console refuses a wrong one, audited as the owner', async () => {
    const wrong = answerOf(await owner.serverAction(PAGE, 'setPortalContactsAction', { technicalContactEmail: 'no-es-un-correo', billingContactEmail: '' }));
    expect(wrong).toMatchObject({ ok: false, message: ACTION_MESSAGES.invalid, fieldErrors: { technicalContactEmail: 'El correo del contacto técnico no es válido: escríbalo como nombre@empresa.com.' } });
    expect((await integrationRowOfA()).technicalContactEmail).toBeNull();

    const rowOfB = await integrationRow(integrationB);
    const saved = answerOf(await owner.serverAction(PAGE, 'setPortalContactsAction', { integrationId: integrationB.id, technicalContactEmail: 'tecnica@avisos.gt', billingContactEmail: 'cobros@avisos.gt' }));
    expect(saved).toMatchObject({ ok: true, message: 'Contactos guardados.' });
    const row = await integrationRowOfA();
    expect([row.technicalContactEmail, row.billingContactEmail]).toEqual(['tecnica@avisos.gt', 'cobros@avisos.gt']);
    expect((await owner.request(PAGE)).text).toContain('value="tecnica@avisos.gt"');
    expect(await integrationRow(integrationB)).toEqual(rowOfB);
    const [audited] = await auditOf('integration.set_details');
    expect(audited!.actor).toMatch(ownerActor());
  });

  it('sets the webhook under the console’s rules, with its signing secret shown once, audited as the owner', async () => {
    const refused = answerOf(await owner.serverAction(PAGE, 'setPortalWebhookAction', { url: 'https://usuario:clave@avisos.example.com/x' }));
    expect(refused).toEqual({ ok: false, message: 'La URL del webhook no debe llevar usuario ni contraseña: el receptor comprueba la firma.', fieldErrors: { url: 'La URL del webhook no debe llevar usuario ni contraseña: el receptor comprueba la firma.' } });
    expect((await integrationRowOfA()).notificationWebhookUrl).toBeNull();

    const saved = answerOf(await owner.serverAction(PAGE, 'setPortalWebhookAction', { integrationId: integrationB.id, url: receiver.url }));
    expect(saved.ok, saved.message).toBe(true);
    expect(saved.data!.secret).toMatch(/^whsec_/);
    shownSecret = saved.data!.secret!;
    expect((await integrationRowOfA()).notificationWebhookUrl).toBe(receiver.url);
    expect((await integrationRow(integrationB)).notificationWebhookUrl).toBeNull();
    const page = await owner.request(PAGE);
    expect(page.text).toContain(receiver.url);
    expect(page.text).not.toContain(shownSecret);
    expect(page.text).toContain('Enviar aviso de prueba');
    const [audited] = await auditOf('integration.set_notification_webhook');
    expect(audited!.actor).toMatch(ownerActor());
    expect(JSON.stringify(audited)).not.toContain(shownSecret);
  });

  it('sends a test notice that arrives signed at the receiver and shows as delivered in the log', async () => {
    const sent = answerOf(await owner.serverAction(PAGE, 'sendPortalTestNotificationAction', {}));
    expect(sent.ok, sent.message).toBe(true);
    expect(sent.data).toEqual({ tone: 'success', text: `Entregado a ${receiver.url}: respondió 204.` });
    expect(receiver.about(`prueba:${integrationA.id}`).map((request) => [request.body.tipo, request.signed])).toEqual([['prueba', true]]);

    const page = await owner.request(PAGE);
    const log = /<table[^>]*data-testid="integration-notification-list"[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? '';
    expect(log).toContain('data-status="sent"');
    expect(log).toContain(receiver.url);
    expect((await auditOf('integration.send_test_notification')).at(-1)!.actor).toMatch(ownerActor());
  });

  it('shows each notice’s JSON and resends one with the same id, signed again, audited as the owner; not twice within seconds', async () => {
    const page = await owner.request(PAGE);
    const log = /<table[^>]*data-testid="integration-notification-list"[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? '';
    expect(log).toContain('Ver el aviso (JSON)');
    expect(log).toContain('&quot;tipo&quot;: &quot;prueba&quot;');
    expect(log).toContain('>Reenviar<');
    const [delivery] = await gateway.withDatabase(async () => (await db()).select().from(alertDeliveries).where(and(eq(alertDeliveries.integrationId, integrationA.id), eq(alertDeliveries.condition, 'test'))));
    const first = receiver.about(`prueba:${integrationA.id}`);
    expect(first).toHaveLength(1);

    const resent = answerOf(await owner.serverAction(PAGE, 'resendPortalNotificationAction', { entrega: delivery!.id }));
    expect(resent.ok, resent.message).toBe(true);
    expect(resent.data).toEqual({ tone: 'success', text: `Entregado a ${receiver.url}: respondió 204.` });
    const both = receiver.about(`prueba:${integrationA.id}`);
    expect(both.map((request) => [request.headers['x-alerta-id'], request.signed])).toEqual([
      [delivery!.alertId, true],
      [delivery!.alertId, true],
    ]);
    expect(both[1]!.rawBody).toBe(both[0]!.rawBody);
    expect((await auditOf('integration.resend_notification')).at(-1)!.actor).toMatch(ownerActor());
    expect(answerOf(await owner.serverAction(PAGE, 'resendPortalNotificationAction', { entrega: delivery!.id }))).toEqual({ ok: false, message: RESEND_MESSAGES.tooSoon });
  });

  it('turns a recipient’s kind off, shown off on the page, audited as the owner', async () => {
    const off = answerOf(await owner.serverAction(PAGE, 'setPortalNotificationEnabledAction', { recipient: 'billing', kind: 'balance_low', enabled: 'false' }));
    expect(off).toMatchObject({ ok: true, message: 'Aviso desactivado.' });
    const optOuts = await gateway.withDatabase(async () => (await db()).select().from(integrationNotificationOptOuts).where(eq(integrationNotificationOptOuts.integrationId, integrationA.id)));
    expect(optOuts.map((row) => `${row.recipient}:${row.kind}`)).toEqual(['billing:balance_low']);
    expect((await owner.request(PAGE)).text).toMatch(/aria-checked="false"[^>]*data-testid="notification-switch-billing-balance_low"/);
    expect((await auditOf('integration.set_notification_opt_outs')).at(-1)!.actor).toMatch(ownerActor());
  });

  it('removes the webhook, audited as the owner', async () => {
    expect(answerOf(await owner.serverAction(PAGE, 'removePortalWebhookAction', {}))).toMatchObject({ ok: true, message: 'Webhook quitado.' });
    expect((await integrationRowOfA()).notificationWebhookUrl).toBeNull();
    expect((await auditOf('integration.remove_notification_webhook')).at(-1)!.actor).toMatch(ownerActor());
  });
});

describe('a developer and a billing user of A, and no session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('are sent to Sin permiso, not offered the link, and refused every notification action on the server', async () => {
    const before = await integrationRowOfA();
    const received = receiver.received.length;
    const tries: [string, Record<string, unknown>][] = [
      ['setPortalContactsAction', { technicalContactEmail: 'colado@otro.gt', billingContactEmail: 'colado@otro.gt' }],
      ['setPortalWebhookAction', { url: receiver.url }],
      ['removePortalWebhookAction', {}],
      ['setPortalNotificationEnabledAction', { recipient: 'technical', kind: 'token_created', enabled: 'false' }],
      ['sendPortalTestNotificationAction', {}],
      ['resendPortalNotificationAction', { entrega: 1 }],
    ];
    const nobody = new PortalClient(gateway.app.baseUrl, { 'x-forwarded-for': '203.0.113.251' });
    for (const email of [people.developerA, people.billingA]) {
      const person = await portalSignedIn(gateway.app.baseUrl, email);
      expectPortalRefusal(await person.request(PAGE), NOTIFICATION_MANAGERS, 'página', email);
      expect((await person.request('/portal')).text, email).not.toContain('href="/portal/notificaciones"');
      for (const [name, input] of tries) {
        expect(answerOf(await person.serverAction(PAGE, name, input)), `${email} ${name}`).toEqual({ ok: false, message: PORTAL_ACTION_MESSAGES.forbidden });
      }
    }
    for (const [name, input] of tries) expect(answerOf(await nobody.serverAction(PAGE, name, input)), name).toEqual({ ok: false, message: ACTION_MESSAGES.signedOut });
    expect(await integrationRowOfA()).toEqual(before);
    expect(receiver.received).toHaveLength(received);
  });
});
