// The console's sign-in and sign-out over HTTP, as an attacker or a careless user meets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_SIGN_IN_ERROR, signInRefusalMessage } from '@/lib/auth/sign-in-errors';
import { createConsoleUser } from '@/lib/users/service';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const SIGN_INS_PER_MINUTE = 5;

let testDatabase: TestDatabase;
let app: RunningApp;
let admin: { email: string; password: string };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email: 'sesiones@example.com', name: 'Sesiones', role: 'admin', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  admin = { email: created.value.user.email, password: created.value.password };
  // The test acts as the one trusted proxy: X-Forwarded-For picks each client's address.
  app = await startApp({ env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: String(SIGN_INS_PER_MINUTE) } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
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
