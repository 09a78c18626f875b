// Issue 14, point 7: administrators are alerted when an integration's balance falls below its
// threshold, when it is exhausted, and when a source's circuit breaker opens; by a signed webhook
// and by e-mail, against real receivers this file starts (an HTTP server, an SMTP server), with
// retries recorded and at most one alert per condition per interval, across instances.
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { alertConditions, alertDeliveries, alertDeliveryAttempts, type AlertDelivery } from '@/db/schema';
import { AlertDispatcher, setAlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { balanceAlert } from '@/lib/reactions/alerts/conditions';
import type { AlertSettings } from '@/lib/reactions/alerts/settings';
import { verifyAlertSignature } from '@/lib/reactions/alerts/signature';
import { adjustBalance, topUp } from '@/lib/core/billing/ledger';
import { placeHold, settleHold } from '@/lib/core/billing/holds';
import { allSettings as env } from '@/lib/root/settings';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { setLowBalanceAlert, setTariff } from '@/lib/flows/integration-management/service';
import { buildSourceClients } from '@/lib/sources';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startSimulator, type RunningSimulator } from '@/simulator';
import { createTestIntegration, eventually, TEST_ACTOR } from '../conformance/harness';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { decodeHeader, decodeQuotedPrintable } from '../support/smtp-receiver';
import { header, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { freePort } from '../../scripts/free-port';
import { subscribeReactions } from '@/lib/root/reactions';
import { certifierCredentialsRefused } from '@/lib/flows/invoicing/events';

const SECRET = 'webhook-secret-for-the-alert-tests-0123456789';
const SMTP_USER = 'alertas';
const SMTP_PASS = 'smtp-password-for-tests';
const DEFAULT_THRESHOLD = 10_000;

interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

let testDb: TestDatabase;
let webhook: WebhookReceiver;
let smtp: SMTPServer;
let smtpPort: number;
const mails: ReceivedMail[] = [];
let dispatcher: AlertDispatcher;
let adminEmail: string;

beforeAll(async () => {
  // The domain emits; what these tests check is what the reactions subscribed at start do.
  subscribeReactions();
  testDb = await useTestDatabase();
  const admin = await createConsoleUser(TEST_ACTOR, { email: 'ana.alertas@example.com', name: 'Ana', role: 'admin' });
  const support = await createConsoleUser(TEST_ACTOR, { email: 'soporte.alertas@example.com', name: 'Soporte', role: 'support' });
  if (!admin.ok || !support.ok) throw new Error('could not create the console users');
  adminEmail = admin.value.user.email;

  webhook = await startWebhookReceiver(SECRET);

  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          subject: decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? ''),
          text: decodeQuotedPrintable(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  setAlertDispatcher(undefined);
  await webhook?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await testDb?.cleanup();
});

beforeEach(() => {
  dispatcher = new AlertDispatcher(settings());
  setAlertDispatcher(dispatcher);
  webhook.answers = [];
});

afterEach(async () => {
  await dispatcher.stop();
});

function settings(overrides: Partial<AlertSettings> = {}): AlertSettings {
  return {
    webhook: { url: webhook.url, secret: SECRET, timeoutMs: 2_000 },
    email: { host: '127.0.0.1', port: smtpPort, secure: false, requireTls: false, auth: { user: SMTP_USER, pass: SMTP_PASS }, from: 'alertas@pasarela.example' },
    lowBalanceDefaultCentavos: DEFAULT_THRESHOLD,
    repeatIntervalSeconds: 3_600,
    maxAttempts: 3,
    retryBaseMs: 20,
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    ...overrides,
  };
}

async function deliveriesFor(condition: string): Promise<AlertDelivery[]> {
  const rows = await (await database()).db.select().from(alertDeliveries).orderBy(alertDeliveries.id);
  return rows.filter((row) => JSON.parse(row.payload).condicion === condition);
}

/** Runs the delivery loop's passes until every delivery of the condition is settled (sent or failed). */
async function deliverAll(condition: string): Promise<AlertDelivery[]> {
  return eventually(
    async () => {
      await dispatcher.deliverDue();
      return deliveriesFor(condition);
    },
    (rows) => rows.length > 0 && rows.every((row) => row.status !== 'pending'),
    15_000,
    `deliveries of ${condition}`,
  );
}

describe('a low balance', () => {
  it('reaches the webhook signed, as JSON, and the administrators by e-mail', async () => {
    const acme = await createTestIntegration('acme-alertas', { tariffCentavos: 500, balanceCentavos: 12_000 });
    const lowered = await adjustBalance(TEST_ACTOR, acme.id, -7_500, 'Corrección de prueba');
    expect(lowered.ok).toBe(true);

    const deliveries = await deliverAll(`balance_low:${acme.id}`);
    expect(deliveries.map((row) => [row.channel, row.status, row.attempts])).toEqual([
      ['webhook', 'sent', 1],
      ['email', 'sent', 1],
    ]);
    expect(deliveries[1]!.target).toBe(adminEmail);

    const [received] = webhook.about(`balance_low:${acme.id}`);
    expect(received!.answered).toBe(204);
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers['x-alerta-id']).toBe(received!.body.id);
    expect(received!.rawBody).toBe(deliveries[0]!.payload);
    expect(received!.body).toMatchObject({
      tipo: 'saldo_bajo',
      condicion: `balance_low:${acme.id}`,
      servicio: 'Pasarela de pruebas',
      titulo: 'Saldo bajo: acme-alertas (Q 45.00)',
      integracion: { id: acme.id, nombre: 'acme-alertas', saldo_centavos: 4_500, umbral_centavos: DEFAULT_THRESHOLD, tarifa_centavos: 500 },
      fuente: null,
    });
    expect(received!.body.mensaje).toBe('El saldo de la integración «acme-alertas» bajó a Q 45.00, por debajo del umbral de alerta de Q 100.00.');
    // A body changed in transit, or replayed later, fails the receiver's check.
    const signature = header(received!.headers['x-alerta-firma']);
    const timestamp = header(received!.headers['x-alerta-fecha']);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyAlertSignature(SECRET, { signature, timestamp }, received!.rawBody.replace('4500', '9999'))).toBe(false);
    expect(verifyAlertSignature(SECRET, { signature, timestamp }, received!.rawBody, { nowSeconds: Number(timestamp) + 3_600 })).toBe(false);

    const mail = mails.find((candidate) => candidate.subject.includes('acme-alertas'));
    expect(mail).toMatchObject({ from: 'alertas@pasarela.example', to: [adminEmail], subject: '[Pasarela de pruebas] Saldo bajo: acme-alertas (Q 45.00)' });
    expect(mail!.text).toContain('El saldo de la integración «acme-alertas» bajó a Q 45.00, por debajo del umbral de alerta de Q 100.00.');
    expect(mail!.text).toContain(`Alerta: ${received!.body.id}`);
    // When, as an administrator reads it: dd/mm/aaaa in Guatemala's time, not the payload's ISO instant.
    expect(mail!.text).toContain(`Fecha: ${formatDateTime(received!.body.fecha)} (hora de Guatemala)`);
    expect(mail!.text).toMatch(/Fecha: \d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d \(hora de Guatemala\)/);
    expect(mail!.text).not.toContain(received!.body.fecha);
  });

  it('is noticed where lookups are charged: the settlement returns the balance it left', async () => {
    const busy = await createTestIntegration('busy-alertas', { tariffCentavos: 4_000, balanceCentavos: 13_000 });
    const charge = async (capture: boolean) => {
      const hold = await placeHold(busy.id, `req_${Math.random()}`);
      return settleHold(hold!, capture, { integrationId: busy.id, lookup: 'omisos', httpStatus: capture ? 200 : 502, responseTimeMs: 5, nit: '1234567', cui: null, errorMessage: null, requestId: `req_${Math.random()}` });
    };
    expect(await charge(false)).toBeNull();
    expect(await charge(true)).toEqual({ balanceCentavos: 9_000, tariffCentavos: 4_000, lowBalanceAlertCentavos: null });
    const after = await charge(true);
    expect(after).toEqual({ balanceCentavos: 5_000, tariffCentavos: 4_000, lowBalanceAlertCentavos: null });
    // What lib/flows/lookups/catalog.ts does with it: returns at once; the alert is written and sent later.
    dispatcher.noteBalance({ integrationId: busy.id, nombre: busy.nombre, ...after! });
    const [delivery] = await eventually(() => deliveriesFor(`balance_low:${busy.id}`), (rows) => rows.length === 2, 10_000, 'the alert');
    expect(JSON.parse(delivery!.payload)).toMatchObject({ integracion: { saldo_centavos: 5_000 } });
  });
});

describe('thresholds', () => {
  it('use the integration’s own threshold, else the default; 0 alerts only when the balance is exhausted', async () => {
    const own = await createTestIntegration('umbral-propio', { tariffCentavos: 100, balanceCentavos: 30_000 });
    const byDefault = await createTestIntegration('umbral-defecto', { tariffCentavos: 100, balanceCentavos: 30_000 });
    const none = await createTestIntegration('umbral-cero', { tariffCentavos: 5, balanceCentavos: 30_000 });
    expect((await setLowBalanceAlert(TEST_ACTOR, own.id, 25_000)).ok).toBe(true);
    expect((await setLowBalanceAlert(TEST_ACTOR, none.id, 0)).ok).toBe(true);
    for (const integration of [own, byDefault, none]) await adjustBalance(TEST_ACTOR, integration.id, -15_000, 'Baja a Q 150.00');

    // Q 150.00 is below its own Q 250.00, and above the default Q 100.00.
    expect(await deliveriesFor(`balance_low:${own.id}`)).toHaveLength(2);
    expect(JSON.parse((await deliveriesFor(`balance_low:${own.id}`))[0]!.payload).integracion.umbral_centavos).toBe(25_000);
    expect(await deliveriesFor(`balance_low:${byDefault.id}`)).toHaveLength(0);
    await adjustBalance(TEST_ACTOR, byDefault.id, -6_000, 'Baja a Q 90.00');
    expect(await deliveriesFor(`balance_low:${byDefault.id}`)).toHaveLength(2);

    await adjustBalance(TEST_ACTOR, none.id, -14_990, 'Baja a Q 0.10');
    expect(await deliveriesFor(`balance_low:${none.id}`)).toHaveLength(0);
    expect(await deliveriesFor(`balance_exhausted:${none.id}`)).toHaveLength(0);
    await adjustBalance(TEST_ACTOR, none.id, -10, 'Baja a cero');
    const exhausted = await deliverAll(`balance_exhausted:${none.id}`);
    expect(exhausted.map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(webhook.about(`balance_exhausted:${none.id}`)[0]!.body).toMatchObject({ tipo: 'saldo_agotado', titulo: 'Saldo agotado: umbral-cero', integracion: { saldo_centavos: 0 } });
  });
});

describe('a tariff raised above the balance', () => {
  it('alerts that the balance is exhausted, once, and not for a tariff the balance still pays', async () => {
    const repriced = await createTestIntegration('tarifa-alertas', { tariffCentavos: 100, balanceCentavos: 30_000 });
    expect((await setLowBalanceAlert(TEST_ACTOR, repriced.id, 0)).ok).toBe(true);
    expect((await setTariff(TEST_ACTOR, repriced.id, 30_000)).ok).toBe(true);
    expect(await deliveriesFor(`balance_exhausted:${repriced.id}`)).toHaveLength(0);

    expect((await setTariff(TEST_ACTOR, repriced.id, 30_001)).ok).toBe(true);
    const exhausted = await deliverAll(`balance_exhausted:${repriced.id}`);
    expect(exhausted.map((row) => [row.channel, row.status])).toEqual([
      ['webhook', 'sent'],
      ['email', 'sent'],
    ]);
    expect(webhook.about(`balance_exhausted:${repriced.id}`)[0]!.body).toMatchObject({
      tipo: 'saldo_agotado',
      mensaje: 'La integración «tarifa-alertas» tiene Q 300.00 de saldo, que no cubre la tarifa de Q 300.01: sus consultas de catálogo responden 402 hasta que se recargue.',
      integracion: { saldo_centavos: 30_000, tarifa_centavos: 30_001 },
    });

    // Raised again within the interval: the same condition, no second alert.
    expect((await setTariff(TEST_ACTOR, repriced.id, 40_000)).ok).toBe(true);
    expect(await deliveriesFor(`balance_exhausted:${repriced.id}`)).toHaveLength(2);
  });
});

describe('one alert per condition per interval', () => {
  it('sends one alert for two crossings within the interval, and another once the interval has passed', async () => {
    const flaky = await createTestIntegration('vaiven-alertas', { tariffCentavos: 100, balanceCentavos: 20_000 });
    const condition = `balance_low:${flaky.id}`;
    await adjustBalance(TEST_ACTOR, flaky.id, -15_000, 'Primera bajada');
    await topUp(TEST_ACTOR, flaky.id, 15_000, 'Recarga');
    await adjustBalance(TEST_ACTOR, flaky.id, -15_000, 'Segunda bajada');
    await deliverAll(condition);
    expect(await deliveriesFor(condition)).toHaveLength(2);
    expect(webhook.about(condition)).toHaveLength(1);

    // Once the interval has passed (moved back here rather than waited for), it alerts again.
    await (await database()).db.update(alertConditions).set({ lastSentAt: sql`now() - interval '61 minutes'` }).where(eq(alertConditions.key, condition));
    await adjustBalance(TEST_ACTOR, flaky.id, -100, 'Tercera bajada');
    await deliverAll(condition);
    expect(webhook.about(condition)).toHaveLength(2);
  });

  it('lets one of several instances raising the same condition at once write it', async () => {
    const shared = await createTestIntegration('compartida-alertas', { tariffCentavos: 100, balanceCentavos: 5_000 });
    const snapshot = { integrationId: shared.id, nombre: shared.nombre, balanceCentavos: 5_000, tariffCentavos: 100, lowBalanceAlertCentavos: null };
    const instances = [dispatcher, new AlertDispatcher(settings()), new AlertDispatcher(settings())];
    const written = await Promise.all(instances.map((instance) => instance.record(balanceAlert(snapshot, instance.settings))));
    expect(written.filter(Boolean)).toHaveLength(1);
    await deliverAll(`balance_low:${shared.id}`);
    expect(webhook.about(`balance_low:${shared.id}`)).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('retries a failing receiver with backoff and records every attempt', async () => {
    const retried = await createTestIntegration('reintento-alertas', { tariffCentavos: 100, balanceCentavos: 20_000 });
    webhook.answers = [503, 500];
    await adjustBalance(TEST_ACTOR, retried.id, -15_000, 'Bajada');
    const [delivery] = await deliverAll(`balance_low:${retried.id}`);
    expect(delivery).toMatchObject({ channel: 'webhook', status: 'sent', attempts: 3, lastResponseStatus: 204, lastError: 'HTTP 500' });
    const attempts = await (await database()).db.select().from(alertDeliveryAttempts).where(eq(alertDeliveryAttempts.deliveryId, delivery!.id)).orderBy(alertDeliveryAttempts.attempt);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.responseStatus, attempt.error])).toEqual([
      [1, 503, 'HTTP 503'],
      [2, 500, 'HTTP 500'],
      [3, 204, null],
    ]);
    // The same alert each time: a receiver deduplicates retries on X-Alerta-Id.
    const received = webhook.about(`balance_low:${retried.id}`);
    expect(received.map((request) => request.answered)).toEqual([503, 500, 204]);
    expect(new Set(received.map((request) => request.headers['x-alerta-id'])).size).toBe(1);
  });

  it('gives up after ALERT_MAX_ATTEMPTS, saying why, without affecting the balance change', async () => {
    const closedPort = await freePort();
    const unreachable = new AlertDispatcher(settings({ webhook: { url: `http://127.0.0.1:${closedPort}/nadie`, secret: SECRET, timeoutMs: 1_000 }, email: { ...settings().email!, auth: { user: SMTP_USER, pass: 'wrong' } } }));
    setAlertDispatcher(unreachable);
    dispatcher = unreachable;
    const lost = await createTestIntegration('perdida-alertas', { tariffCentavos: 100, balanceCentavos: 20_000 });
    const change = await adjustBalance(TEST_ACTOR, lost.id, -15_000, 'Bajada');
    expect(change.ok && change.value.balanceCentavos).toBe(5_000);
    const deliveries = await deliverAll(`balance_low:${lost.id}`);
    expect(deliveries.map((row) => [row.channel, row.status, row.attempts])).toEqual([
      ['webhook', 'failed', 3],
      ['email', 'failed', 3],
    ]);
    expect(deliveries[0]!.lastError).toMatch(/ECONNREFUSED/);
    expect(deliveries[1]!.lastError).toMatch(/Invalid username or password/);
    expect(deliveries[1]!.lastError).not.toContain('wrong');
  });
});

describe('a webhook URL that holds a token', () => {
  const PATH_TOKEN = 'Tk0PathSegmentSecret123';
  const QUERY_TOKEN = 'query-token-secret-456';
  const USER_TOKEN = 'userinfo-token-secret-789';
  const secretsIn = (text: string | null) => [PATH_TOKEN, QUERY_TOKEN, USER_TOKEN].filter((secret) => text?.includes(secret));

  async function attemptErrors(delivery: AlertDelivery): Promise<Array<string | null>> {
    const attempts = await (await database()).db.select().from(alertDeliveryAttempts).where(eq(alertDeliveryAttempts.deliveryId, delivery.id));
    return attempts.map((attempt) => attempt.error);
  }

  it('is delivered to the whole URL and recorded as its description: scheme, host, the path’s words, never the token', async () => {
    const url = `${webhook.url}/${PATH_TOKEN}?token=${QUERY_TOKEN}`;
    dispatcher = new AlertDispatcher(settings({ webhook: { url, secret: SECRET, timeoutMs: 2_000 }, email: undefined }));
    setAlertDispatcher(dispatcher);
    webhook.answers = [503];
    const tokened = await createTestIntegration('token-en-url-alertas', { tariffCentavos: 100, balanceCentavos: 20_000 });
    await adjustBalance(TEST_ACTOR, tokened.id, -15_000, 'Bajada');
    const [delivery] = await deliverAll(`balance_low:${tokened.id}`);
    expect(webhook.about(`balance_low:${tokened.id}`).map((request) => request.answered)).toEqual([503, 204]);
    expect(delivery).toMatchObject({ channel: 'webhook', status: 'sent', target: `${webhook.url}/…`, lastError: 'HTTP 503' });
  });

  it('with credentials (refused at start since; accepted before): the error recorded quotes the URL without them', async () => {
    // fetch refuses such a URL with a message that quotes it whole: what used to be stored and shown.
    const url = new URL(webhook.url);
    url.username = 'alertas';
    url.password = USER_TOKEN;
    url.pathname = `/alertas/${PATH_TOKEN}`;
    url.search = `?token=${QUERY_TOKEN}`;
    dispatcher = new AlertDispatcher(settings({ webhook: { url: url.href, secret: SECRET, timeoutMs: 2_000 }, email: undefined }));
    setAlertDispatcher(dispatcher);
    const refused = await createTestIntegration('credenciales-en-url-alertas', { tariffCentavos: 100, balanceCentavos: 20_000 });
    await adjustBalance(TEST_ACTOR, refused.id, -15_000, 'Bajada');
    const [delivery] = await deliverAll(`balance_low:${refused.id}`);
    expect(webhook.about(`balance_low:${refused.id}`)).toHaveLength(0);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, target: `${webhook.url}/…` });
    expect(delivery!.lastError).toBe(`Request cannot be constructed from a URL that includes credentials: ${webhook.url}/…`);
    const errors = await attemptErrors(delivery!);
    expect(errors).toHaveLength(3);
    for (const text of [delivery!.target, delivery!.lastError, ...errors]) expect(secretsIn(text)).toEqual([]);
  });
});

describe('a source breaker', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, onlineLatencyMs: 0 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  it('opening (the simulator down) sends an alert naming the source and its last error', async () => {
    const clients = buildSourceClients({ ...env(), CATALOG_BASE_URL: `${simulator.url}/catalog`, SOURCE_BREAKER_FAILURES: 2, SOURCE_BREAKER_COOLDOWN_MS: 60_000, SOURCE_TIMEOUT_MS: 2_000 });
    dispatcher.watchBreakers(clients.guards);
    simulator.setFaults('catalog:server_error');
    for (let i = 0; i < 3; i++) await clients.catalog.lookupCuiNit({ nit: '1234567', actualizado: false });
    expect(clients.guards.catalog.state).toBe('open');
    const deliveries = await eventually(
      async () => {
        await dispatcher.deliverDue();
        return deliveriesFor('breaker_open:catalog');
      },
      (rows) => rows.length === 2 && rows.every((row) => row.status === 'sent'),
      15_000,
      'the breaker alert',
    );
    expect(deliveries.map((row) => row.source)).toEqual(['catalog', 'catalog']);
    const [received] = webhook.about('breaker_open:catalog');
    expect(received!.body).toMatchObject({ tipo: 'circuito_abierto', titulo: 'Fuente caída: Fuente de catálogos (CUI/NIT, RTU, omisos)', fuente: { nombre: 'catalog' }, integracion: null });
    expect(received!.body.fuente!.ultimo_error).toMatch(/^HTTP 5\d\d$/);
    const mail = mails.find((candidate) => candidate.subject.includes('Fuente caída'));
    expect(mail!.text).toContain('fallan de inmediato, sin cobro');
  });
});

describe('the FEL certifier refusing the credentials', () => {
  it('tells the administrators that invoices wait, until when, and which settings to fix', async () => {
    const pausedUntil = new Date(Date.now() + 5 * 60_000);
    await certifierCredentialsRefused.emit({ certifier: 'infile', pausedUntil });
    const deliveries = await eventually(
      async () => {
        await dispatcher.deliverDue();
        return deliveriesFor('certifier_credentials_refused:infile');
      },
      (rows) => rows.length === 2 && rows.every((row) => row.status === 'sent'),
      15_000,
      'the certifier alert',
    );
    expect(deliveries.map((row) => row.channel).sort()).toEqual(['email', 'webhook']);
    const [received] = webhook.about('certifier_credentials_refused:infile');
    expect(received!.body).toMatchObject({ tipo: 'certificador_rechazo_credenciales', titulo: 'Facturas detenidas: el certificador rechazó las credenciales', integracion: null, fuente: null });
    const mail = mails.find((candidate) => candidate.subject.includes('Facturas detenidas'));
    expect(mail!.text).toContain('FEL_SIGNING_* y FEL_API_*');
    expect(mail!.text).toContain(formatDateTime(pausedUntil));
  });
});
