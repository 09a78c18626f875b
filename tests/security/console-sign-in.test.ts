// The console's sign-in and sign-out over HTTP, as an attacker or a careless user meets them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { GENERIC_SIGN_IN_ERROR, signInErrorMessage, signInRefusalMessage } from '@/lib/flows/auth/sign-in-errors';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { startSmtpReceiver, type SmtpReceiver } from '../support/smtp-receiver';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const SIGN_INS_PER_MINUTE = 5;

let testDatabase: TestDatabase;
let app: RunningApp;
let admin: { email: string; password: string };
let smtp: SmtpReceiver;
let guessed: { email: string; password: string };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'sesiones@example.com', name: 'Sesiones', role: 'admin', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  admin = { email: created.value.user.email, password: created.value.password };
  const owner = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'adivinada@example.com', name: 'Adivinada', role: 'support', mustChangePassword: false });
  if (!owner.ok) throw new Error(owner.error.message);
  guessed = { email: owner.value.user.email, password: owner.value.password };
  smtp = await startSmtpReceiver();
  // The test acts as the one trusted proxy: X-Forwarded-For picks each client's address.
  app = await startApp({
    env: {
      TRUSTED_PROXY_HOPS: '1',
      RATE_LIMIT_SIGN_IN_PER_MINUTE: String(SIGN_INS_PER_MINUTE),
      ALERT_SMTP_HOST: '127.0.0.1',
      ALERT_SMTP_PORT: String(smtp.port),
      ALERT_EMAIL_FROM: 'avisos@pasarela.example',
    },
  });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await smtp?.close();
  await testDatabase?.cleanup();
});

describe('signing out', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('ends the session on the server: a copied session cookie stops working at once', async () => {
    const user = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '198.51.100.1' });
    expect(await user.signIn(admin.email, admin.password)).toBeNull();
    const [cookieName, cookieValue] = user.sessionCookie()!;
    const copied = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '203.0.113.50' });
    copied.cookies.set(cookieName, cookieValue);
    expect((await copied.request('/admin')).status).toBe(200);

    await user.signOut();
    expect(user.sessionCookie()).toBeUndefined();
    const afterSignOut = await copied.request('/admin');
    expect(afterSignOut.status).toBe(307);
    expect(afterSignOut.headers.get('location')).toMatch(/\/admin\/login\?motivo=sesion$/);
  });
});

describe('the sign-in endpoint', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers a flood from one address before any password is checked', async () => {
    const flooder = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '192.0.2.77' });
    const codes: Array<string | null> = [];
    for (let attempt = 0; attempt < SIGN_INS_PER_MINUTE + 2; attempt++) codes.push(await flooder.signIn(admin.email, `no-es-${attempt}`));
    expect(codes.slice(0, SIGN_INS_PER_MINUTE)).toEqual(Array(SIGN_INS_PER_MINUTE).fill('invalid_credentials'));
    expect(codes.slice(SIGN_INS_PER_MINUTE)).toEqual(['rate_limited', 'rate_limited']);
    // Even the right password waits for the minute to pass; other addresses are not affected.
    expect(await flooder.signIn(admin.email, admin.password)).toBe('rate_limited');
    expect(await new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '192.0.2.78' }).signIn(admin.email, admin.password)).toBeNull();
  });

  it('turns an e-mail of 100,000 characters away as wrong credentials', async () => {
    const client = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '192.0.2.90' });
    expect(await client.signIn(`${'x'.repeat(100_000)}@example.com`, 'whatever')).toBe('invalid_credentials');
  });
});

// Issue 30, point 3: guesses at one account from many addresses had no bound (7,070 an hour).
describe('guessing one account\'s password from many addresses', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('checks one guess at a time, keeps the owner\'s own browser in, and tells the owner by e-mail', async () => {
    const owner = guessed;
    // Her browser signs in once, and becomes a known device of her account.
    const ownBrowser = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '198.51.100.20' });
    expect(await ownBrowser.signIn(owner.email, owner.password)).toBeNull();
    expect(ownBrowser.cookies.get('consola-dispositivo')).toMatch(/^v1\./);
    await ownBrowser.signOut();

    // 40 addresses, 4 guesses each (within each address's own limits), all at once.
    const started = Date.now();
    const codes = (
      await Promise.all(
        Array.from({ length: 40 }, async (_, address) => {
          const attacker = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': `100.64.30.${address + 1}` });
          const answers: Array<string | null> = [];
          for (let guess = 0; guess < 4; guess++) answers.push(await attacker.signIn(owner.email, `adivinanza-${address}-${guess}`));
          return answers;
        }),
      )
    ).flat();
    const seconds = (Date.now() - started) / 1000;
    const checked = codes.filter((code) => code === 'invalid_credentials' || code?.startsWith('attempts_left_')).length;
    console.log(`[sign-in] ${checked} of 160 guesses from 40 addresses had their password checked in ${seconds.toFixed(1)} s; the rest were refused at once`);
    expect(codes.filter((code) => code?.startsWith('paced_')).length).toBe(160 - checked);
    // Five free guesses, then one per turn, each turn twice as far as the last (1 s, 2 s, 4 s…).
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(checked).toBeLessThanOrEqual(5 + Math.ceil(Math.log2(seconds + 1)) + 1);

    // As if the guessing had gone on for a while: 25 failures, the next turn due now.
    await app.withDatabase(async () => {
      await (await database()).rows(sql`update sign_in_throttles set failures = 25, next_attempt_at = null where scope = 'account' and subject = ${owner.email}`);
    });
    const attacker = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '100.64.31.1' });
    expect(await attacker.signIn(owner.email, 'otra-adivinanza')).toBe('invalid_credentials');
    // A browser she never used waits its turn like the stranger's, even with the right password…
    const newBrowser = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '198.51.100.21' });
    const paced = await newBrowser.signIn(owner.email, owner.password);
    // The turn after the 26th failure is a minute away (less the seconds this test took since).
    expect(paced).toMatch(/^paced_\d+$/);
    expect(Number(paced!.slice('paced_'.length))).toBeGreaterThan(30);
    expect((await newBrowser.request(`/admin/login?error=${paced}`)).text).toContain(signInErrorMessage(paced)!);
    // …while her own browser signs in at once.
    expect(await ownBrowser.signIn(owner.email, owner.password)).toBeNull();

    const deadline = Date.now() + 15_000;
    while (smtp.to(owner.email).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const [mail, ...more] = smtp.to(owner.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('[Pasarela de consultas de contribuyentes] Intentos fallidos de inicio de sesión en su cuenta');
    expect(mail?.raw.replace(/=\r\n/g, '')).toContain('hubo 26 intentos fallidos de iniciar sesi');
  });
});

describe('the sign-in page', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows only the texts of known error codes, never what ?error= carries', async () => {
    const visitor = new ConsoleClient(app.baseUrl);
    const injected = 'Failed query: select * from console_users <b>params: admin@example.com</b>';
    for (const error of [injected, 'CredentialsSignin', 'locked_99', 'attempts_left_0']) {
      const page = await visitor.request(`/admin/login?error=${encodeURIComponent(error)}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(GENERIC_SIGN_IN_ERROR);
      expect(page.text).not.toContain('params:');
      expect(page.text).not.toContain(error.includes('<') ? 'admin@example.com' : `(${error})`);
    }
    const locked = await visitor.request('/admin/login?error=locked_7');
    expect(locked.text).toContain(signInRefusalMessage({ kind: 'locked', minutes: 7 }));
  });

  it('ignores reasons it does not know, including names every object has', async () => {
    const visitor = new ConsoleClient(app.baseUrl);
    for (const reason of ['constructor', '__proto__', 'toString', 'inexistente']) {
      const page = await visitor.request(`/admin/login?motivo=${reason}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('notice undefined');
    }
  });
});
