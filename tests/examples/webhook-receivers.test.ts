// The receivers /docs and docs/integrators.md give integrators (issue 32, point 3), run as an
// integrator would run them, exactly as documented: the Node.js and Python ones get a real notice
// from the notifier (the secret the console shows when the webhook is saved, the outbox, the
// delivery loop) and answer 204; a wrong secret, a body changed after signing and a notice older
// than five minutes get 401, and a repeated id is handled once. The curl sample signs a notice
// the way the service does, and the Node.js receiver accepts it. (The C# one needs .NET, which
// the test machines do not have.)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { signAlert } from '@/lib/reactions/alerts/signature';
import { awaitFirstAttempts } from '@/lib/reactions/alerts/test-outcome';
import { parseEnv } from '@/lib/root/settings';
import { IntegratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { sendTestNotification } from '@/lib/reactions/integrator-notifications/test-notice';
import { documentedWebhookSamples, webhookDocsSettingsFrom, webhookEvents, webhookSamples, WEBHOOK_USER_AGENT } from '@/lib/reactions/integrator-notifications/webhook-docs';
import { freePort } from '../../scripts/free-port';
import { createTestIntegration, TEST_ACTOR } from '../conformance/harness';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

const events = webhookEvents(webhookDocsSettingsFrom(parseEnv({})));
const samples = documentedWebhookSamples(events);
const documentedTest = events.find((event) => event.tipo === 'prueba')!.example;
const hasPython = spawnSync('python3', ['--version']).status === 0;
const hasOpenssl = spawnSync('openssl', ['version']).status === 0 && spawnSync('curl', ['--version']).status === 0;

let testDb: TestDatabase;
let directory: string;
let alerts: AlertDispatcher;
let notifier: IntegratorNotifier;
const running: ChildProcess[] = [];

beforeAll(async () => {
  testDb = await useTestDatabase();
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'receptores-'));
  alerts = new AlertDispatcher({ lowBalanceDefaultCentavos: 10_000, repeatIntervalSeconds: 3_600, maxAttempts: 3, retryBaseMs: 60_000, serviceName: 'Pasarela de pruebas', appEnv: 'development' });
  notifier = new IntegratorNotifier({
    webhookTimeoutMs: 5_000,
    repeatIntervalSeconds: 3_600,
    sourceOutageSeconds: 600,
    targets: { allowLocalTargets: true },
    serviceName: 'Pasarela de pruebas',
    appEnv: 'development',
    lowBalanceDefaultCentavos: 10_000,
    alerts: { maxAttempts: 3, retryBaseMs: 60_000 },
  });
  notifier.attachTo(alerts);
});

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

afterAll(async () => {
  await notifier?.close();
  fs.rmSync(directory, { recursive: true, force: true });
  await testDb?.cleanup();
});

interface Receiver {
  url: string;
  output: () => string;
}

/** Runs a documented receiver, saved to a file as an integrator would, until it accepts connections. */
async function startReceiver(command: string, file: string, code: string, env: Record<string, string>): Promise<Receiver> {
  const filePath = path.join(directory, file);
  fs.writeFileSync(filePath, code);
  const child = spawn(command, [filePath], { env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (!(await accepts(Number(env.PORT)))) {
    if (child.exitCode !== null) throw new Error(`${file} exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`${file} did not listen on ${env.PORT}: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${env.PORT}/avisos`, output: () => output };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });
}

/** A request signed by hand: `timestamp` and `secret` of the test's choosing, `sent` the bytes actually sent. */
async function post(url: string, options: { secret: string; body: string; sent?: string; timestamp?: number }): Promise<number> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'x-alerta-id': 'ntf_manual',
      'x-alerta-fecha': String(timestamp),
      'x-alerta-firma': signAlert(options.secret, timestamp, options.body),
    },
    body: options.sent ?? options.body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The integration's webhook saved in the console's way at a free port: the secret it shows once, and the port. */
async function integrationWebhook(nombre: string): Promise<{ integrationId: number; port: number; secret: string }> {
  const port = await freePort();
  const integration = await createTestIntegration(nombre);
  const saved = await setNotificationWebhook(TEST_ACTOR, integration.id, `http://127.0.0.1:${port}/avisos?token=propio-del-integrador`, { allowLocalTargets: true });
  if (!saved.ok) throw new Error(saved.error.message);
  return { integrationId: integration.id, port, secret: saved.value.secret };
}

/** "Enviar aviso de prueba", delivered by the outbox's loop: the first attempt as recorded. */
async function deliverTestNotice(integrationId: number) {
  const sent = await sendTestNotification(TEST_ACTOR, integrationId, notifier);
  if (!sent.ok) throw new Error(sent.error.message);
  await alerts.deliverDue();
  const [row] = await awaitFirstAttempts(sent.value.deliveryIds, 10_000);
  return row!;
}

/** What every documented receiver must do with real and forged notices. */
async function checkReceiver(receiver: Receiver, integrationId: number, secret: string): Promise<void> {
  const delivered = await deliverTestNotice(integrationId);
  expect(delivered, receiver.output()).toMatchObject({ status: 'sent', attempts: 1, lastResponseStatus: 204 });
  // What was sent has the documented shape.
  const body = JSON.parse(delivered.payload) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(Object.keys(documentedTest));
  expect(body).toMatchObject({ tipo: documentedTest.tipo, titulo: documentedTest.titulo, datos: documentedTest.datos, integracion: { id: integrationId } });

  const documented = JSON.stringify(documentedTest);
  expect(await post(receiver.url, { secret, body: documented })).toBe(204);
  expect(await post(receiver.url, { secret, body: documented }), 'the same id again').toBe(204);
  expect(await post(receiver.url, { secret: 'whsec_otro-secreto', body: documented }), 'another secret').toBe(401);
  expect(await post(receiver.url, { secret, body: documented, sent: documented.replace('Aviso de prueba', 'Aviso de pago') }), 'a body changed after signing').toBe(401);
  expect(await post(receiver.url, { secret, body: documented, timestamp: Math.floor(Date.now() / 1000) - 600 }), 'ten minutes old').toBe(401);
  // Each id handled once: the delivered notice and the documented one.
  await expect.poll(() => receiver.output().match(/^prueba Aviso de prueba$/gm)?.length ?? 0).toBe(2);
}

describe('the documented webhook receivers', () => {
  it('JavaScript (Node.js): accepts real notices, refuses forged and old ones', async () => {
    const { integrationId, port, secret } = await integrationWebhook('receptor-node');
    const receiver = await startReceiver(process.execPath, 'receptor.mjs', samples.javascript, { PORT: String(port), SECRETO_WEBHOOK: secret });
    await checkReceiver(receiver, integrationId, secret);
  });

  it.skipIf(!hasPython)('Python: accepts real notices, refuses forged and old ones', async () => {
    const { integrationId, port, secret } = await integrationWebhook('receptor-python');
    const receiver = await startReceiver('python3', 'receptor.py', samples.python, { PORT: String(port), SECRETO_WEBHOOK: secret });
    await checkReceiver(receiver, integrationId, secret);
  });

  it.skipIf(!hasOpenssl)('curl and openssl: a notice signed as the sample says is accepted by the receiver', async () => {
    const port = await freePort();
    const secret = 'whsec_secreto-de-prueba-para-curl';
    const receiver = await startReceiver(process.execPath, 'receptor.mjs', samples.javascript, { PORT: String(port), SECRETO_WEBHOOK: secret });
    const script = webhookSamples({ url: receiver.url, secret, body: documentedTest }).curl;
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^X-Alerta-Firma: sha256=[0-9a-f]{64}\nSu receptor respondió 204\n$/);
    await expect.poll(() => receiver.output()).toContain('prueba Aviso de prueba');
    // The same script with another secret is refused: the signature really is checked.
    const forged = spawnSync('bash', ['-c', webhookSamples({ url: receiver.url, secret: 'whsec_otro', body: documentedTest }).curl], { encoding: 'utf8' });
    expect(forged.stdout).toContain('Su receptor respondió 401');
  });
});
