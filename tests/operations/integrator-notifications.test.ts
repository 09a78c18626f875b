// Issue 25, point 1: integrators are told about their own integration by e-mail to its contacts
// and by a signed webhook to its own URL, through the administrators' outbox; against real
// receivers this file starts (an SMTP server, an HTTP server), once per condition per interval
// across instances, and never to a refused target.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertDeliveries, alertDeliveryAttempts, integrations, portalUsers, sourceBreakerTransitions, type AlertDelivery } from '@/db/schema';
import { AlertDispatcher, setAlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { listAlertDeliveries } from '@/lib/reactions/alerts/list';
import type { AlertSettings } from '@/lib/reactions/alerts/settings';
import { adjustBalance } from '@/lib/core/billing/ledger';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';
import { balanceNotification } from '@/lib/reactions/integrator-notifications/kinds/balance';
import { IntegratorNotifier, setIntegratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { notifyExpiringTokens } from '@/lib/reactions/integrator-notifications/tokens';
import { notifySourceIncidents } from '@/lib/reactions/integrator-notifications/sources';
import { createToken, revokeToken, rotateToken } from '@/lib/flows/integration-management/tokens';
import { setAllowedNetworks, setFlags, setTariff } from '@/lib/flows/integration-management/service';
import { recentNotifications, setNotificationOptOuts, setNotificationWebhook, kindsFor } from '@/lib/reactions/integrator-notifications/preferences';
import type { NotificationSettings } from '@/lib/reactions/integrator-notifications/settings';
import { checkedLookup } from '@/lib/reactions/integrator-notifications/targets';
import { seal } from '@/lib/core/sealing/envelope';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { issueStatement } from '@/lib/flows/statements/statements';
import { approveTopUpRequest, rejectTopUpRequest, reportTopUp } from '@/lib/flows/top-ups/requests';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { pdfTextLines } from '../support/pdf-text';
import { createTestIntegration, eventually, TEST_ACTOR } from '../conformance/harness';
import { depositDaysAgo } from '../support/deposit-dates';
import { addPortalMember } from '../support/people';
import { mimePart, startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { subscribeReactions } from '@/lib/root/reactions';

const LOCAL = { allowLocalTargets: true };
const STRICT = { allowLocalTargets: false };

let testDb: TestDatabase;
let smtp: SmtpReceiver;
const receivers: WebhookReceiver[] = [];
let alerts: AlertDispatcher;
let notifier: IntegratorNotifier;

beforeAll(async () => {
  // The domain emits; what these tests check is what the reactions subscribed at start do.
  subscribeReactions();
  testDb = await useTestDatabase();
  smtp = await startSmtpReceiver();
});

afterAll(async () => {
  setAlertDispatcher(undefined);
  setIntegratorNotifier(undefined);
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await smtp?.close();
  await testDb?.cleanup();
});

beforeEach(() => {
  ({ alerts, notifier } = instance());
  setAlertDispatcher(alerts);
  setIntegratorNotifier(notifier);
});

afterEach(async () => {
  await alerts.stop();
  await notifier.close();
});

function notificationSettings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    email: { host: '127.0.0.1', port: smtp.port, secure: false, requireTls: false, from: 'avisos@pasarela.example' },
    webhookTimeoutMs: 2_000,
    repeatIntervalSeconds: 3_600,
    sourceOutageSeconds: 600,
    targets: LOCAL,
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    lowBalanceDefaultCentavos: 10_000,
    alerts: { maxAttempts: 3, retryBaseMs: 20 },
    ...overrides,
  };
}

/** One instance's alerts (administrators' channels off) with its integrator notifier attached. */
function instance(overrides: Partial<NotificationSettings> = {}, resolve?: Parameters<typeof checkedLookup>[1]) {
  const settings: AlertSettings = {
    lowBalanceDefaultCentavos: 10_000,
    repeatIntervalSeconds: 3_600,
    maxAttempts: 3,
    retryBaseMs: 20,
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
  };
  const dispatcher = new AlertDispatcher(settings);
  const integratorNotifier = new IntegratorNotifier(notificationSettings(overrides), resolve);
  integratorNotifier.attachTo(dispatcher);
  return { alerts: dispatcher, notifier: integratorNotifier };
}

async function integratorDeliveries(integrationId: number): Promise<AlertDelivery[]> {
  return (await database()).db.select().from(alertDeliveries).where(eq(alertDeliveries.integrationId, integrationId)).orderBy(alertDeliveries.id);
}

async function deliverAll(integrationId: number, dispatcher = alerts): Promise<AlertDelivery[]> {
  return eventually(
    async () => {
      await dispatcher.deliverDue();
      return integratorDeliveries(integrationId);
    },
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
    15_000,
    `notifications of integration ${integrationId}`,
  );
}

/** An integration with both contacts, Q 200.00 and a Q 10.00 tariff, and its webhook at a new receiver. */
async function integrationWithContacts(nombre: string, options: { webhook?: boolean } = {}) {
  const created = await createTestIntegration(nombre, { balanceCentavos: 20_000, tariffCentavos: 1_000 });
  const details = await setIntegrationDetails(TEST_ACTOR, created.id, {
    technicalContactName: 'Tania Técnica',
    technicalContactEmail: `tecnica@${nombre}.gt`,
    billingContactName: 'Fabio Facturas',
    billingContactEmail: `pagos@${nombre}.gt`,
  });
  if (!details.ok) throw new Error(details.error.message);
  if (!options.webhook) return { ...created, webhook: undefined, secret: undefined };
  const set = await setNotificationWebhook(TEST_ACTOR, created.id, 'http://127.0.0.1:8080/pendiente', LOCAL);
  if (!set.ok) throw new Error(set.error.message);
  const webhook = await startWebhookReceiver(set.value.secret);
  receivers.push(webhook);
  await (await database()).db.update(integrations).set({ notificationWebhookUrl: `${webhook.url}?token=abc123456789` }).where(eq(integrations.id, created.id));
  return { ...created, webhook, secret: set.value.secret };
}

describe('a low balance', () => {
  it('reaches the billing contact by e-mail, in Spanish, and the integration’s webhook signed with its own secret', async () => {
    const acme = await integrationWithContacts('acme', { webhook: true });
    await adjustBalance(TEST_ACTOR, acme.id, -15_000, 'Baja a Q 50.00');

    const rows = await deliverAll(acme.id);
    expect(rows.map((row) => [row.audience, row.condition, row.channel, row.recipient, row.status])).toEqual([
      ['integrator', 'balance_low', 'email', 'billing', 'sent'],
      ['integrator', 'balance_low', 'webhook', 'webhook', 'sent'],
    ]);
    // The webhook's token is never stored: the row holds the URL's description.
    expect(rows[1]!.target).not.toContain('abc123456789');

    const [mail] = smtp.to('pagos@acme.gt');
    expect(mail!.subject).toBe('[Pasarela de pruebas] Su saldo está bajo');
    const text = mimePart(mail!.raw, 'text/plain')!.body.toString('utf8');
    expect(text).toContain('Hola, Fabio Facturas:');
    expect(text).toContain('bajó a Q 50.00, por debajo de su umbral de aviso de Q 100.00');
    expect(mimePart(mail!.raw, 'text/html')!.body.toString('utf8')).toContain('<p>Hola, Fabio Facturas:</p>');
    expect(smtp.to('tecnica@acme.gt')).toHaveLength(0);

    expect(acme.webhook!.received).toHaveLength(1);
    const [request] = acme.webhook!.received;
    expect(request!.signed).toBe(true);
    expect(request!.body).toMatchObject({ tipo: 'saldo_bajo', condicion: `saldo_bajo:${acme.id}`, integracion: { id: acme.id, nombre: 'acme' }, datos: { saldo_centavos: 5_000, umbral_centavos: 10_000 } });
    expect(request!.headers['x-alerta-id']).toBe(request!.body.id);

    // On the integration's page, not on the administrators' Alertas page.
    expect((await recentNotifications(acme.id)).map((row) => [row.title, row.target, row.status, row.attempts])).toEqual([
      ['Su saldo está bajo', expect.stringContaining('http://127.0.0.1:'), 'sent', 1],
      ['Su saldo está bajo', 'pagos@acme.gt', 'sent', 1],
    ]);
    expect((await listAlertDeliveries()).rows.filter((row) => row.integrationId === acme.id)).toEqual([]);
  });

  it('exhausted tells the billing contact that lookups answer 402, and not again within the interval', async () => {
    const beta = await integrationWithContacts('beta');
    await adjustBalance(TEST_ACTOR, beta.id, -19_500, 'Baja a Q 5.00');
    await adjustBalance(TEST_ACTOR, beta.id, -100, 'Baja a Q 4.00');
    const rows = await deliverAll(beta.id);
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([['balance_exhausted', 'billing', 'sent']]);
    const [mail] = smtp.to('pagos@beta.gt');
    expect(mail!.subject).toBe('[Pasarela de pruebas] Su saldo se agotó');
    expect(mimePart(mail!.raw, 'text/plain')!.body.toString('utf8')).toContain('Las consultas responden 402 hasta que se recargue el saldo.');
  });

  it('is not sent to a recipient who turned that kind off', async () => {
    const gamma = await integrationWithContacts('gamma', { webhook: true });
    const everythingButBillingLow = new Set(['billing', 'technical', 'webhook'].flatMap((recipient) => kindsFor(recipient as 'billing').map((kind) => `${recipient}:${kind}`)));
    everythingButBillingLow.delete('billing:balance_low');
    expect(await setNotificationOptOuts(TEST_ACTOR, gamma.id, everythingButBillingLow)).toEqual({ ok: true, value: { changed: true } });
    await adjustBalance(TEST_ACTOR, gamma.id, -15_000, 'Baja a Q 50.00');
    const rows = await deliverAll(gamma.id);
    expect(rows.map((row) => [row.recipient, row.status])).toEqual([['webhook', 'sent']]);
    expect(smtp.to('pagos@gamma.gt')).toHaveLength(0);
  });
});

describe('one notification per condition per interval', () => {
  it('across instances: of two instances noticing the same balance at once, one queues it and one of them delivers it once', async () => {
    const delta = await integrationWithContacts('delta', { webhook: true });
    const other = instance();
    try {
      const snapshot = { integrationId: delta.id, nombre: 'delta', balanceCentavos: 5_000, tariffCentavos: 1_000, lowBalanceAlertCentavos: null };
      const written = await Promise.all([notifier, other.notifier, notifier, other.notifier].map((each) => each.record(balanceNotification(snapshot, each.settings)!)));
      expect(written.map((rows) => rows.length).sort()).toEqual([0, 0, 0, 2]);
      await Promise.all([alerts.deliverDue(), other.alerts.deliverDue()]);
      const rows = await deliverAll(delta.id);
      expect(rows.map((row) => row.status)).toEqual(['sent', 'sent']);
      expect(delta.webhook!.received).toHaveLength(1);
      expect(smtp.to('pagos@delta.gt')).toHaveLength(1);
    } finally {
      await other.notifier.close();
    }
  });

  it('again once the interval has passed', async () => {
    const eps = await integrationWithContacts('eps');
    await adjustBalance(TEST_ACTOR, eps.id, -15_000, 'Baja a Q 50.00');
    await deliverAll(eps.id);
    await (await database()).db.execute(sql`update alert_conditions set last_sent_at = now() - interval '2 hours' where key = ${`integrator:saldo_bajo:${eps.id}`}`);
    const fresh = instance();
    try {
      await fresh.notifier.noteBalance({ integrationId: eps.id, nombre: 'eps', balanceCentavos: 4_000, tariffCentavos: 1_000, lowBalanceAlertCentavos: null });
      expect(await deliverAll(eps.id, fresh.alerts)).toHaveLength(2);
      expect(smtp.to('pagos@eps.gt')).toHaveLength(2);
    } finally {
      await fresh.notifier.close();
    }
  });
});

describe('refused webhook targets', () => {
  it('http:// and private, loopback or link-local addresses cannot be saved where local targets are not allowed', async () => {
    const zeta = await integrationWithContacts('zeta');
    for (const url of ['http://hooks.example.com/avisos', 'https://127.0.0.1/avisos', 'https://[::ffff:10.0.0.1]/avisos', 'https://169.254.169.254/latest', 'https://localhost/avisos', 'https://user:pw@hooks.example.com/a']) {
      const result = await setNotificationWebhook(TEST_ACTOR, zeta.id, url, STRICT);
      expect(result.ok, url).toBe(false);
    }
    expect(await setNotificationWebhook(TEST_ACTOR, zeta.id, 'https://hooks.example.com/avisos', STRICT)).toMatchObject({ ok: true, value: { secret: expect.stringMatching(/^whsec_/) } });
  });

  it('a stored private address is refused at delivery, failed at once, and the receiver never contacted', async () => {
    const eta = await integrationWithContacts('eta', { webhook: true });
    const strict = instance({ targets: STRICT });
    try {
      await strict.notifier.noteBalance({ integrationId: eta.id, nombre: 'eta', balanceCentavos: 5_000, tariffCentavos: 1_000, lowBalanceAlertCentavos: null });
      const rows = await deliverAll(eta.id, strict.alerts);
      const webhookRow = rows.find((row) => row.channel === 'webhook')!;
      expect(webhookRow).toMatchObject({ status: 'failed', attempts: 1 });
      expect(webhookRow.lastError).toMatch(/^destino rechazado: debe empezar con https:\/\//);
      expect(eta.webhook!.received).toHaveLength(0);
    } finally {
      await strict.notifier.close();
    }
  });

  it('a name that resolves to a private address is refused after resolution, before any connection', async () => {
    const theta = await integrationWithContacts('theta', { webhook: true });
    const port = new URL(theta.webhook!.url).port;
    // The receiver listens on 127.0.0.1; the name is public-looking and resolves there.
    await (await database()).db
      .update(integrations)
      .set({ notificationWebhookUrl: `https://hooks.theta.example:${port}/avisos`, notificationWebhookSecretSealed: seal(theta.secret!, 'webhook_secret') })
      .where(eq(integrations.id, theta.id));
    const resolved: string[] = [];
    const strict = instance({ targets: STRICT }, async (hostname) => {
      resolved.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    });
    try {
      await strict.notifier.noteBalance({ integrationId: theta.id, nombre: 'theta', balanceCentavos: 5_000, tariffCentavos: 1_000, lowBalanceAlertCentavos: null });
      const rows = await deliverAll(theta.id, strict.alerts);
      const webhookRow = rows.find((row) => row.channel === 'webhook')!;
      expect(resolved).toContain('hooks.theta.example');
      expect(webhookRow).toMatchObject({ status: 'failed', attempts: 1 });
      expect(webhookRow.lastError).toContain('destino rechazado: la dirección 127.0.0.1 es privada, local o reservada');
      expect(theta.webhook!.received).toHaveLength(0);
      const attempts = await (await database()).db.select().from(alertDeliveryAttempts).where(eq(alertDeliveryAttempts.deliveryId, webhookRow.id));
      expect(attempts).toHaveLength(1);
    } finally {
      await strict.notifier.close();
    }
  });

  it('a name with one public and one private address is refused: the connection would not be pinned to the public one', async () => {
    const lookup = checkedLookup(STRICT, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: 'fd00::1', family: 6 },
    ]);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('mixed.example', {}, (failure) => resolve(failure)));
    expect(error?.code).toBe('EWEBHOOKTARGET');
    const allowed = checkedLookup(STRICT, async () => [{ address: '93.184.216.34', family: 4 }]);
    const answer = await new Promise<unknown[]>((resolve) => allowed('public.example', { all: true }, (_failure, addresses) => resolve(addresses as unknown[])));
    expect(answer).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});

describe('tokens', () => {
  it('about to expire: the technical contact is warned 7 days before and 1 day before, each once', async () => {
    const iota = await integrationWithContacts('iota', { webhook: true });
    const expiresAt = new Date(Date.now() + 5 * 24 * 3_600_000);
    const created = await createToken(TEST_ACTOR, iota.id, { label: 'Producción', expiresAt });
    if (!created.ok) throw new Error(created.error.message);

    // Passes of the hourly job, on two instances: one warning.
    expect(await notifyExpiringTokens(notifier)).toBe(1);
    const other = instance();
    expect(await notifyExpiringTokens(other.notifier)).toBe(0);
    await other.notifier.close();
    let rows = await deliverAll(iota.id);
    // Its creation was told first (issue 34), then the warning.
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([
      ['token_created', 'technical', 'sent'],
      ['token_created', 'webhook', 'sent'],
      ['token_expiring', 'technical', 'sent'],
      ['token_expiring', 'webhook', 'sent'],
    ]);
    // Delivered side by side, in either order: each found by its subject.
    const week = smtp.to('tecnica@iota.gt').find((mail) => mail.subject === '[Pasarela de pruebas] Un token vence en 7 días');
    expect(week!.subject).toBe('[Pasarela de pruebas] Un token vence en 7 días');
    expect(mimePart(week!.raw, 'text/plain')!.body.toString('utf8')).toContain(`El token «Producción» (${created.value.view.tokenPrefix}…) de «iota» deja de funcionar el`);
    expect(smtp.to('pagos@iota.gt')).toHaveLength(0);

    // A day before: the second warning, once.
    const dayBefore = new Date(expiresAt.getTime() - 12 * 3_600_000);
    expect(await notifyExpiringTokens(notifier, dayBefore)).toBe(1);
    expect(await notifyExpiringTokens(notifier, new Date(dayBefore.getTime() + 3_600_000))).toBe(0);
    rows = await deliverAll(iota.id);
    expect(rows).toHaveLength(6);
    const subjects = smtp.to('tecnica@iota.gt').map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject === '[Pasarela de pruebas] Se creó un token')).toHaveLength(1);
    expect(subjects.filter((subject) => subject !== '[Pasarela de pruebas] Se creó un token')).toEqual(['[Pasarela de pruebas] Un token vence en 7 días', '[Pasarela de pruebas] Un token vence mañana']);
    const received = iota.webhook!.received.map((request) => [request.body.tipo, (request.body as unknown as { datos: { aviso?: string } }).datos.aviso]);
    expect(received.filter(([tipo]) => tipo === 'token_creado')).toHaveLength(1);
    expect(received.filter(([tipo]) => tipo !== 'token_creado')).toEqual([
      ['token_por_vencer', '7d'],
      ['token_por_vencer', '1d'],
    ]);
  });

  it('revoked: the technical contact is told once, and a revoked token is not warned about its expiry', async () => {
    const kappa = await integrationWithContacts('kappa');
    const created = await createToken(TEST_ACTOR, kappa.id, { label: 'Pruebas', expiresAt: new Date(Date.now() + 3 * 24 * 3_600_000) });
    if (!created.ok) throw new Error(created.error.message);
    expect((await revokeToken(TEST_ACTOR, kappa.id, created.value.view.id)).ok).toBe(true);
    expect((await revokeToken(TEST_ACTOR, kappa.id, created.value.view.id)).ok).toBe(false);
    expect(await notifyExpiringTokens(notifier)).toBe(0);
    const rows = await deliverAll(kappa.id);
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([
      ['token_created', 'technical', 'sent'],
      ['token_revoked', 'technical', 'sent'],
    ]);
    const mail = smtp.to('tecnica@kappa.gt').find((each) => each.subject !== '[Pasarela de pruebas] Se creó un token');
    expect(mail!.subject).toBe('[Pasarela de pruebas] Un token fue revocado');
    expect(mimePart(mail!.raw, 'text/plain')!.body.toString('utf8')).toContain('fue revocado y ya no funciona');
  });
});

describe('credential changes (issue 34): created, rotated, allow-list changed', () => {
  const PORTAL_PERSON = (integration: { id: number; nombre: string }) =>
    ({ kind: 'integrator', id: 77, email: 'dev@credenciales.gt', integrationId: integration.id, integrationName: integration.nombre }) as const;

  it('from the portal or the console, the technical contact and the webhook are told of each, once, with who made it', async () => {
    const credenciales = await integrationWithContacts('credenciales', { webhook: true });
    const created = await createToken(PORTAL_PERSON(credenciales), credenciales.id, { label: 'Servidor nuevo' });
    if (!created.ok) throw new Error(created.error.message);
    const rotated = await rotateToken(TEST_ACTOR, credenciales.id, { tokenId: created.value.view.id, overlap: '24h' });
    if (!rotated.ok) throw new Error(rotated.error.message);
    expect((await setAllowedNetworks(PORTAL_PERSON(credenciales), credenciales.id, ['203.0.113.7', '198.51.100.0/24'])).ok).toBe(true);

    const rows = await deliverAll(credenciales.id);
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([
      ['token_created', 'technical', 'sent'],
      ['token_created', 'webhook', 'sent'],
      ['token_rotated', 'technical', 'sent'],
      ['token_rotated', 'webhook', 'sent'],
      ['allow_list_changed', 'technical', 'sent'],
      ['allow_list_changed', 'webhook', 'sent'],
    ]);
    // Delivered side by side, in any order: each found by its subject, once.
    const mails = smtp.to('tecnica@credenciales.gt');
    const subjects = ['Se creó un token', 'Se rotó un token', 'Cambió la lista de direcciones IP permitidas'].map((title) => `[Pasarela de pruebas] ${title}`);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([...subjects].sort());
    const [createdText, rotatedText, listText] = subjects.map((subject) => mimePart(mails.find((mail) => mail.subject === subject)!.raw, 'text/plain')!.body.toString('utf8'));
    expect(createdText).toContain(`Se creó el token «Servidor nuevo» (${created.value.view.tokenPrefix}…) de «credenciales» (lo creó dev@credenciales.gt, en el portal).`);
    expect(rotatedText).toContain(`(lo rotó la administración del servicio): el nuevo es «Servidor nuevo» (${rotated.value.view.tokenPrefix}…) y el anterior sigue funcionando hasta el`);
    expect(listText).toContain('la API ahora solo acepta sus consultas desde 203.0.113.7, 198.51.100.0/24.');
    // The secret itself is never in what is sent.
    for (const text of [createdText, rotatedText, listText]) expect(text).not.toContain(created.value.token);
    expect(smtp.to('pagos@credenciales.gt')).toHaveLength(0);
    expect(credenciales.webhook!.received.map((request) => request.body.tipo).sort()).toEqual(['lista_ip_cambiada', 'token_creado', 'token_rotado']);
    expect(credenciales.webhook!.received.every((request) => request.signed)).toBe(true);
  });

  it('is not sent to a recipient who turned that kind off', async () => {
    const sinListas = await integrationWithContacts('sin-listas');
    const everythingButListChanges = new Set(['billing', 'technical', 'webhook'].flatMap((recipient) => kindsFor(recipient as 'billing').map((kind) => `${recipient}:${kind}`)));
    everythingButListChanges.delete('technical:allow_list_changed');
    expect(await setNotificationOptOuts(TEST_ACTOR, sinListas.id, everythingButListChanges)).toEqual({ ok: true, value: { changed: true } });
    expect((await setAllowedNetworks(TEST_ACTOR, sinListas.id, ['203.0.113.7'])).ok).toBe(true);
    expect((await createToken(TEST_ACTOR, sinListas.id, { label: 'Otro' })).ok).toBe(true);
    const rows = await deliverAll(sinListas.id);
    expect(rows.map((row) => [row.condition, row.recipient])).toEqual([['token_created', 'technical']]);
    expect(smtp.to('tecnica@sin-listas.gt').map((mail) => mail.subject)).toEqual(['[Pasarela de pruebas] Se creó un token']);
  });
});

describe('an administrator’s changes (issue 34, point 4): the tariff, the lookups enabled', () => {
  it('tells the billing contact the old and new tariff and from when, and the technical contact which lookups changed, each once', async () => {
    const tarifas = await integrationWithContacts('tarifas', { webhook: true });
    const tariff = await setTariff(TEST_ACTOR, tarifas.id, 1_500);
    if (!tariff.ok) throw new Error(tariff.error.message);
    const flags = await setFlags(TEST_ACTOR, tarifas.id, { isRenapEnabled: false, isOmisosEnabled: false, isCuiNitEnabled: true });
    if (!flags.ok) throw new Error(flags.error.message);
    // The same values again (a form sent twice): nothing changed, nothing told.
    expect((await setTariff(TEST_ACTOR, tarifas.id, 1_500)).ok).toBe(true);
    expect((await setFlags(TEST_ACTOR, tarifas.id, { isRenapEnabled: false })).ok).toBe(true);

    const rows = await deliverAll(tarifas.id);
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([
      ['tariff_changed', 'billing', 'sent'],
      ['tariff_changed', 'webhook', 'sent'],
      ['lookups_changed', 'technical', 'sent'],
      ['lookups_changed', 'webhook', 'sent'],
    ]);
    const [tariffMail] = smtp.to('pagos@tarifas.gt');
    expect(smtp.to('pagos@tarifas.gt')).toHaveLength(1);
    expect(tariffMail!.subject).toBe('[Pasarela de pruebas] Cambió la tarifa por consulta');
    const tariffText = mimePart(tariffMail!.raw, 'text/plain')!.body.toString('utf8');
    expect(tariffText).toContain('Hola, Fabio Facturas:');
    expect(tariffText).toContain('La tarifa por consulta de catálogo de «tarifas» cambió de Q 10.00 a Q 15.00 desde el ');
    expect(tariffText).toContain('la cambió la administración del servicio');
    expect(tariffText.replace(/\r\n/g, '\n')).toContain('Tarifa anterior: Q 10.00\nTarifa por consulta: Q 15.00\nDesde: ');

    const [lookupsMail] = smtp.to('tecnica@tarifas.gt');
    expect(smtp.to('tecnica@tarifas.gt')).toHaveLength(1);
    expect(lookupsMail!.subject).toBe('[Pasarela de pruebas] Cambiaron sus consultas habilitadas');
    const lookupsText = mimePart(lookupsMail!.raw, 'text/plain')!.body.toString('utf8');
    // CUI/NIT was on already: only what changed is named.
    expect(lookupsText).toContain('La administración del servicio deshabilitó RENAP por CUI, Catálogo omisos para «tarifas», desde el ');
    expect(lookupsText).toContain('responden 403 (consulta no habilitada)');
    expect(lookupsText).toContain('Consultas deshabilitadas: RENAP por CUI, Catálogo omisos');
    expect(lookupsText).not.toContain('Consultas habilitadas:');

    const bodies = tarifas.webhook!.received.map((request) => request.body);
    expect(tarifas.webhook!.received.every((request) => request.signed)).toBe(true);
    expect(bodies).toHaveLength(2);
    const byType = Object.fromEntries(bodies.map((body) => [body.tipo, body]));
    expect(byType.tarifa_cambiada).toMatchObject({
      integracion: { id: tarifas.id, nombre: 'tarifas' },
      datos: { tarifa_anterior_centavos: 1_000, tarifa_centavos: 1_500, aplica_desde: tariff.value.updatedAt.toISOString() },
    });
    expect(byType.consultas_cambiadas).toMatchObject({ datos: { habilitadas: '', deshabilitadas: 'RENAP por CUI, Catálogo omisos', aplica_desde: flags.value.updatedAt.toISOString() } });
  });

  it('is not sent to a recipient who turned that kind off in the console', async () => {
    const sinTarifa = await integrationWithContacts('sin-tarifa');
    const everythingButLookups = new Set(['billing', 'technical', 'webhook'].flatMap((recipient) => kindsFor(recipient as 'billing').map((kind) => `${recipient}:${kind}`)));
    everythingButLookups.delete('technical:lookups_changed');
    expect(await setNotificationOptOuts(TEST_ACTOR, sinTarifa.id, everythingButLookups)).toEqual({ ok: true, value: { changed: true } });
    expect((await setTariff(TEST_ACTOR, sinTarifa.id, 2_000)).ok).toBe(true);
    expect((await setFlags(TEST_ACTOR, sinTarifa.id, { isRtuEnabled: false })).ok).toBe(true);
    const rows = await deliverAll(sinTarifa.id);
    expect(rows.map((row) => [row.condition, row.recipient])).toEqual([['tariff_changed', 'billing']]);
    expect(smtp.to('tecnica@sin-tarifa.gt')).toHaveLength(0);
  });
});

describe('a monthly statement', () => {
  it('reaches the billing contact with its PDF attached when it is issued, once, and the webhook with its figures', async () => {
    const lambda = await integrationWithContacts('lambda', { webhook: true });
    const month = guatemalanMonthOf(new Date());
    const monthClosed = new Date(Date.now() + 40 * 24 * 3_600_000);
    const issued = await issueStatement(TEST_ACTOR, lambda.id, month, monthClosed);
    if (!issued.ok) throw new Error(issued.error.message);
    // Issued again (the console, another instance's job): the stored one, not notified again.
    expect((await issueStatement(TEST_ACTOR, lambda.id, month, monthClosed)).ok).toBe(true);

    const rows = await deliverAll(lambda.id);
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([
      ['statement_issued', 'billing', 'sent'],
      ['statement_issued', 'webhook', 'sent'],
    ]);
    const [mail] = smtp.to('pagos@lambda.gt');
    expect(mail!.subject).toMatch(/^\[Pasarela de pruebas\] Estado de cuenta de \w+ de \d{4}$/);
    expect(mimePart(mail!.raw, 'text/plain')!.body.toString('utf8')).toContain(`Se emitió el estado de cuenta No. ${issued.value.number} de «lambda»`);
    const pdf = mimePart(mail!.raw, 'application/pdf')!;
    expect(pdf.headers).toContain(`estado-de-cuenta-lambda-${month}.pdf`);
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfTextLines(pdf.body).join('\n')).toContain('lambda');
    expect(lambda.webhook!.received.map((request) => request.body.tipo)).toEqual(['estado_de_cuenta_emitido']);
    expect(smtp.to('tecnica@lambda.gt')).toHaveLength(0);
  });
});

describe('a source unavailable', () => {
  it('for longer than the set time, across the instances’ breakers, is told once to the technical contacts of the integrations that use it, and so is its recovery', async () => {
    const omega = await integrationWithContacts('omega', { webhook: true });
    const sigma = await integrationWithContacts('sigma');
    // sigma uses only RENAP: a catalog outage is none of its business.
    await (await database()).db
      .update(integrations)
      .set({ isRtuEnabled: false, isCuiNitEnabled: false, isRtuV2Enabled: false, isOmisosEnabled: false })
      .where(eq(integrations.id, sigma.id));
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const transitions = (await database()).db;
    // Two instances saw the catalog's breaker open, 15 and 12 minutes ago, and still do.
    await transitions.insert(sourceBreakerTransitions).values([
      { instance: 'instancia-a', source: 'catalog', transition: 'opened', at: minutesAgo(15), confirmedAt: new Date() },
      { instance: 'instancia-b', source: 'catalog', transition: 'opened', at: minutesAgo(12), confirmedAt: new Date() },
      // RENAP has been down only 2 minutes: under the 10 set.
      { instance: 'instancia-a', source: 'renap', transition: 'opened', at: minutesAgo(2), confirmedAt: new Date() },
    ]);
    const other = instance();
    try {
      await Promise.all([notifySourceIncidents(notifier), notifySourceIncidents(other.notifier)]);
      await notifySourceIncidents(notifier);
      let rows = await deliverAll(omega.id);
      expect(rows.map((row) => [row.condition, row.recipient, row.source, row.status])).toEqual([
        ['source_unavailable', 'technical', 'catalog', 'sent'],
        ['source_unavailable', 'webhook', 'catalog', 'sent'],
      ]);
      const [down] = smtp.to('tecnica@omega.gt');
      expect(down!.subject).toBe(`[Pasarela de pruebas] ${SOURCE_LABELS.catalog} no está disponible`);
      expect(mimePart(down!.raw, 'text/plain')!.body.toString('utf8')).toContain('responden 502, sin cobro');
      expect(smtp.to('tecnica@sigma.gt')).toHaveLength(0);
      expect(smtp.to('pagos@omega.gt')).toHaveLength(0);

      // One instance's breaker closes: the source is still unavailable (the other's is open).
      await transitions.insert(sourceBreakerTransitions).values({ instance: 'instancia-a', source: 'catalog', transition: 'closed', at: minutesAgo(1), confirmedAt: minutesAgo(1) });
      await Promise.all([notifySourceIncidents(notifier), notifySourceIncidents(other.notifier)]);
      expect(await integratorDeliveries(omega.id)).toHaveLength(2);

      // Both closed: recovered, told once, to those told of the outage.
      await transitions.insert(sourceBreakerTransitions).values({ instance: 'instancia-b', source: 'catalog', transition: 'closed', at: new Date(), confirmedAt: new Date() });
      await Promise.all([notifySourceIncidents(notifier), notifySourceIncidents(other.notifier)]);
      await notifySourceIncidents(notifier);
      rows = await deliverAll(omega.id);
      expect(rows.map((row) => [row.condition, row.recipient])).toEqual([
        ['source_unavailable', 'technical'],
        ['source_unavailable', 'webhook'],
        ['source_recovered', 'technical'],
        ['source_recovered', 'webhook'],
      ]);
      expect(smtp.to('tecnica@omega.gt').map((mail) => mail.subject.replace(/^\[Pasarela de pruebas\] /, ''))).toEqual([
        expect.stringMatching(/ no está disponible$/),
        expect.stringMatching(/ está disponible de nuevo$/),
      ]);
      expect(omega.webhook!.received.map((request) => [request.body.tipo, request.signed])).toEqual([
        ['fuente_no_disponible', true],
        ['fuente_disponible', true],
      ]);
      expect(await integratorDeliveries(sigma.id)).toHaveLength(0);
    } finally {
      await other.notifier.close();
    }
  });
});

describe('reported deposits (issue 34, point 3)', () => {
  it('the billing contact and the webhook are told once of an approval, with the new balance, and of a rejection, with its reason', async () => {
    const recargas = await integrationWithContacts('recargas', { webhook: true });
    await addPortalMember(recargas, 'conta@recargas.gt', 'facturacion');
    const [person] = await (await database()).db.select().from(portalUsers).where(eq(portalUsers.email, 'conta@recargas.gt'));
    const reporter = { id: person!.id, role: 'facturacion', integrationId: recargas.id, actor: { kind: 'integrator', id: person!.id, email: person!.email, integrationId: recargas.id, integrationName: 'recargas' } } as const;
    const approved = await reportTopUp(reporter, { bank: 'GYT', reference: '5500 1234', depositDate: depositDaysAgo(4), amountCentavos: 50_000 });
    const rejected = await reportTopUp(reporter, { bank: 'BAC', reference: 'TR-99', depositDate: depositDaysAgo(4), amountCentavos: 7_000 });
    if (!approved.ok || !rejected.ok) throw new Error('not reported');
    expect((await approveTopUpRequest(TEST_ACTOR, approved.value.id)).ok).toBe(true);
    expect((await approveTopUpRequest(TEST_ACTOR, approved.value.id)).ok).toBe(false);
    expect((await rejectTopUpRequest(TEST_ACTOR, rejected.value.id, 'El depósito no aparece en el banco.')).ok).toBe(true);

    const rows = await deliverAll(recargas.id);
    expect(rows.map((row) => [row.condition, row.recipient, row.status])).toEqual([
      ['top_up_approved', 'billing', 'sent'],
      ['top_up_approved', 'webhook', 'sent'],
      ['top_up_rejected', 'billing', 'sent'],
      ['top_up_rejected', 'webhook', 'sent'],
    ]);
    const mails = smtp.to('pagos@recargas.gt');
    const approvedMail = mails.find((mail) => mail.subject === '[Pasarela de pruebas] Su recarga fue acreditada');
    expect(mimePart(approvedMail!.raw, 'text/plain')!.body.toString('utf8')).toContain(
      'Acreditamos Q 500.00 a «recargas» por el depósito en G&T Continental con referencia 5500 1234. Su saldo ahora es Q 700.00.',
    );
    const rejectedMail = mails.find((mail) => mail.subject === '[Pasarela de pruebas] Su recarga no fue acreditada');
    expect(mimePart(rejectedMail!.raw, 'text/plain')!.body.toString('utf8')).toContain('Motivo: El depósito no aparece en el banco.');
    // Delivered side by side, in either order.
    expect(recargas.webhook!.received.map((request) => request.body.tipo).sort()).toEqual(['recarga_acreditada', 'recarga_rechazada']);
  });
});
