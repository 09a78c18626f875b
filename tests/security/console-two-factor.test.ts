// Two-factor console sign-in over HTTP against the built app: an administrator without the second
// factor reaches no console page, export or server action; a right code opens the session, a
// recovery code works once and the browser continues in a new session, wrong codes are throttled
// and audited; support needs it too; an administrator resets someone's second factor. On PostgreSQL
// the app runs with APP_ENV=production (where it is required of every console user by default); the embedded database
// cannot run in production, so there the app runs in development with the requirement switched on
// by CONSOLE_TWO_FACTOR_REQUIRED=true, the same code path.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { TWO_FACTOR_MESSAGES, secondFactorRefusalMessage } from '@/lib/flows/two-factor/messages';
import { TOTP_PERIOD_SECONDS, totpCodeAt } from '@/lib/flows/two-factor/totp';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { consoleSignedIn, newConsoleUser, type ConsoleAccount } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { TEST_PRODUCTION_SETTINGS } from '../support/production-settings';

const PRODUCTION_SETTINGS = TEST_PRODUCTION_SETTINGS;

let testDatabase: TestDatabase;
let app: RunningApp;
let admin: ConsoleAccount;
let boss: ConsoleAccount;
let support: ConsoleAccount;
let supportSecret: string;
let supportRecoveryCodes: string[];
let adminSecret: string;
let adminRecoveryCodes: string[];

/** A console session from `ip` (the app trusts one proxy hop). */
function signedIn(ip: string, user: { email: string; password: string }): Promise<ConsoleClient> {
  return consoleSignedIn(app.baseUrl, user, { 'x-forwarded-for': ip });
}

/** Whether an action's answer carries a text (as the RSC payload writes it: JSON-escaped). */
function says(answer: { text: string }, text: string): boolean {
  return answer.text.includes(JSON.stringify(text).slice(1, -1));
}

async function redirectsTo(client: ConsoleClient, path: string): Promise<string | null> {
  const answer = await client.request(path);
  return answer.status === 307 ? answer.headers.get('location') : `HTTP ${answer.status}`;
}

/** The code the app shows `steps` periods from now (1: the next one, still inside the accepted window). */
function codeIn(secret: string, steps: number): string {
  return totpCodeAt(secret, Date.now() + steps * TOTP_PERIOD_SECONDS * 1000);
}

/** Six digits that are none of the codes the app would accept now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => codeIn(secret, steps)));
  for (let candidate = 100_000; ; candidate++) if (!near.has(String(candidate))) return String(candidate);
}

function verify(client: ConsoleClient, codigo: string) {
  return client.serverAction('/admin/verificacion', 'verifySecondFactorAction', { codigo });
}

/** Enrols over HTTP as the page does: a secret (and its QR code), then a code; returns the secret and the recovery codes. */
async function enrol(client: ConsoleClient, page: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await client.serverAction(page, 'startTwoFactorEnrolmentAction', {});
  const secret = /"secret":"([A-Z2-7]{32})"/.exec(started.text)?.[1];
  expect(secret).toBeDefined();
  expect(started.text).toContain('<svg');
  const confirmed = await client.serverAction(page, 'confirmTwoFactorEnrolmentAction', { codigo: codeIn(secret!, 0) });
  const codes = /"recoveryCodes":\[([^\]]*)\]/.exec(confirmed.text)?.[1];
  expect(codes).toBeDefined();
  return { secret: secret!, recoveryCodes: JSON.parse(`[${codes}]`) as string[] };
}

async function audited(action: string, userId: number) {
  return app.withDatabase(async () => (await db()).select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(userId)))));
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  admin = await newConsoleUser('tesorera@example.com', 'admin');
  boss = await newConsoleUser('jefe@example.com', 'admin');
  support = await newConsoleUser('soporte@example.com', 'support');
  const mode = testDatabase.kind === 'postgres' ? PRODUCTION_SETTINGS : { CONSOLE_TWO_FACTOR_REQUIRED: 'true' };
  app = await startApp({ env: { ...mode, TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

describe('an administrator without a second factor', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('reaches only the enrolment page, then the console once enrolled', async () => {
    const session = await signedIn('198.51.100.10', admin);
    for (const path of ['/admin', '/admin/integraciones', '/admin/usuarios', '/admin/cuenta', '/admin/verificacion']) {
      expect(await redirectsTo(session, path), path).toBe('/admin/activar-verificacion');
    }
    expect((await session.request('/admin/registros/exportar')).status).toBe(401);
    expect(says(await session.serverAction('/admin/usuarios', 'endUserSessionsAction', { userId: String(support.id) }), ACTION_MESSAGES.enrolmentRequired)).toBe(true);
    const page = await session.request('/admin/activar-verificacion');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Active la verificación en dos pasos');

    ({ secret: adminSecret, recoveryCodes: adminRecoveryCodes } = await enrol(session, '/admin/activar-verificacion'));
    expect(adminRecoveryCodes).toHaveLength(10);
    expect((await session.request('/admin')).status).toBe(200);
    expect(await redirectsTo(session, '/admin/activar-verificacion')).toBe('/admin/cuenta');
    const account = await session.request('/admin/cuenta');
    expect(account.text).toContain('Le quedan 10 códigos de recuperación.');
    expect(account.text).not.toContain(adminSecret);
    expect(await audited('user.enable_two_factor', admin.id)).toHaveLength(1);
  });
});

describe('signing in with a second factor', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('opens no console page, export or server action after the password alone', async () => {
    const session = await signedIn('198.51.100.20', admin);
    expect(await redirectsTo(session, '/admin')).toBe('/admin/verificacion');
    // The page asked for is remembered (issue 24, defect 7: a deep link opens its page after sign-in).
    for (const path of ['/admin/integraciones?orden=saldo', '/admin/cuenta', '/admin/activar-verificacion', '/admin/cambiar-contrasena']) {
      expect(await redirectsTo(session, path), path).toBe(`/admin/verificacion?volver=${encodeURIComponent(path)}`);
    }
    expect((await session.request('/admin/registros/exportar')).status).toBe(401);
    expect(says(await session.serverAction('/admin/usuarios', 'endUserSessionsAction', { userId: String(support.id) }), ACTION_MESSAGES.secondFactorRequired)).toBe(true);
    expect(says(await session.serverAction('/admin/cuenta', 'regenerateRecoveryCodesAction', { codigo: codeIn(adminSecret, 1) }), ACTION_MESSAGES.secondFactorRequired)).toBe(true);
    expect(says(await session.serverAction('/admin/activar-verificacion', 'startTwoFactorEnrolmentAction', {}), ACTION_MESSAGES.secondFactorRequired)).toBe(true);
    const page = await session.request('/admin/verificacion');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/autocomplete="one-time-code"/i);
    expect(page.text).toMatch(/inputmode="numeric"/i);
  });

  it('opens the session with a right code, which does not work a second time', async () => {
    const session = await signedIn('198.51.100.30', admin);
    expect(says(await verify(session, wrongCode(adminSecret)), TWO_FACTOR_MESSAGES.wrongCode)).toBe(true);
    expect(await redirectsTo(session, '/admin')).toBe('/admin/verificacion');
    const code = codeIn(adminSecret, 1);
    expect(says(await verify(session, code), 'Código correcto.')).toBe(true);
    expect((await session.request('/admin')).status).toBe(200);
    expect((await session.request('/admin/usuarios')).status).toBe(200);

    // The same code, seen over someone's shoulder and typed in another browser, is a replay.
    const replay = await signedIn('203.0.113.31', admin);
    expect(says(await verify(replay, code), TWO_FACTOR_MESSAGES.wrongCode)).toBe(true);
    expect(await redirectsTo(replay, '/admin')).toBe('/admin/verificacion');

    const failures = await audited('user.sign_in_failed', admin.id);
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.every((row) => JSON.stringify(row.after) === JSON.stringify({ step: 'second_factor' }))).toBe(true);
    expect((await audited('user.sign_in_second_factor', admin.id)).length).toBe(1);
  });

  it('takes a recovery code once: the second time it fails', async () => {
    const first = await signedIn('198.51.100.40', admin);
    const used = await verify(first, adminRecoveryCodes[0]!);
    expect(says(used, 'le quedan 9')).toBe(true);
    expect((await first.request('/admin')).status).toBe(200);

    const second = await signedIn('198.51.100.41', admin);
    expect(says(await verify(second, adminRecoveryCodes[0]!), TWO_FACTOR_MESSAGES.wrongCode)).toBe(true);
    expect(await redirectsTo(second, '/admin')).toBe('/admin/verificacion');
    expect(says(await verify(second, adminRecoveryCodes[1]!), 'le quedan 8')).toBe(true);
    expect((await second.request('/admin')).status).toBe(200);
  });
});

describe('support users', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('need a second factor too: without one they reach only the enrolment page, and cannot turn it off (issue 30, point 3)', async () => {
    const session = await signedIn('198.51.100.50', support);
    for (const path of ['/admin', '/admin/registros', '/admin/cuenta']) {
      expect(await redirectsTo(session, path), path).toBe('/admin/activar-verificacion');
    }
    expect((await session.request('/admin/registros/exportar')).status).toBe(401);
    ({ secret: supportSecret, recoveryCodes: supportRecoveryCodes } = await enrol(session, '/admin/activar-verificacion'));
    expect((await session.request('/admin')).status).toBe(200);
    expect(says(await session.serverAction('/admin/cuenta', 'disableTwoFactorAction', { codigo: supportRecoveryCodes[0]! }), TWO_FACTOR_MESSAGES.requiredCannotDisable)).toBe(true);

    const adminSession = await signedIn('198.51.100.53', admin);
    expect(says(await verify(adminSession, adminRecoveryCodes[2]!), 'le quedan 7')).toBe(true);
    expect(says(await adminSession.serverAction('/admin/cuenta', 'disableTwoFactorAction', { codigo: adminRecoveryCodes[3]! }), TWO_FACTOR_MESSAGES.requiredCannotDisable)).toBe(true);
  });

  it('continue in a new session once the code is right: a cookie copied after the password alone does not open the console (issue 30, point 3)', async () => {
    const session = await signedIn('198.51.100.51', support);
    const copied = session.sessionCookie()!;
    expect(await redirectsTo(session, '/admin')).toBe('/admin/verificacion');
    expect(says(await verify(session, codeIn(supportSecret, 1)), 'Código correcto.')).toBe(true);
    expect(session.sessionCookie()?.[1]).not.toBe(copied[1]);
    expect((await session.request('/admin')).status).toBe(200);

    const elsewhere = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '203.0.113.52' });
    elsewhere.cookies.set(...copied);
    expect(await redirectsTo(elsewhere, '/admin')).toBe('/admin/login?motivo=sesion');
    expect((await elsewhere.request('/admin/registros/exportar')).status).toBe(401);
  });
});

describe('an administrator\'s reset of someone\'s second factor', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is refused to support, ends the user\'s sessions, is audited, and sends an administrator back to enrolment', async () => {
    const bossSession = await signedIn('198.51.100.60', boss);
    expect(await redirectsTo(bossSession, '/admin')).toBe('/admin/activar-verificacion');
    await enrol(bossSession, '/admin/activar-verificacion');
    expect((await bossSession.request('/admin')).status).toBe(200);

    const supportSession = await signedIn('198.51.100.61', support);
    expect(says(await verify(supportSession, supportRecoveryCodes[1]!), 'le quedan 9')).toBe(true);
    expect(says(await supportSession.serverAction('/admin/usuarios', 'resetUserTwoFactorAction', { userId: String(boss.id) }), ACTION_MESSAGES.forbidden)).toBe(true);

    const adminSession = await signedIn('198.51.100.62', admin);
    expect(says(await verify(adminSession, adminRecoveryCodes[4]!), 'le quedan 6')).toBe(true);
    expect((await adminSession.request('/admin/usuarios')).text).toContain('Restablecer verificación en dos pasos');
    const reset = await adminSession.serverAction('/admin/usuarios', 'resetUserTwoFactorAction', { userId: String(boss.id) });
    expect(says(reset, 'Verificación en dos pasos restablecida')).toBe(true);
    expect(await redirectsTo(bossSession, '/admin')).toBe('/admin/login?motivo=sesion');
    expect((await audited('user.reset_two_factor', boss.id)).map((row) => row.actor)).toEqual([`user:${admin.id} ${admin.email}`]);
    const bossAgain = await signedIn('198.51.100.63', boss);
    expect(await redirectsTo(bossAgain, '/admin')).toBe('/admin/activar-verificacion');
  });
});

describe('wrong second-factor codes', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('are throttled like passwords: the tenth locks the account\'s codes, and then even a right one is refused', async () => {
    const session = await signedIn('198.51.100.70', admin);
    const answers: Array<{ text: string }> = [];
    for (let attempt = 1; attempt <= 10; attempt++) answers.push(await verify(session, String(100_000 + attempt)));
    expect(says(answers[6]!, secondFactorRefusalMessage({ kind: 'attempts_left', left: 3 }))).toBe(true);
    expect(says(answers[9]!, secondFactorRefusalMessage({ kind: 'locked_now' }))).toBe(true);
    const refused = await verify(session, adminRecoveryCodes[5]!);
    expect(refused.text).toMatch(/verificación está bloqueada; vuelva a intentarlo en 1[45] minutos/);
    expect(await redirectsTo(session, '/admin')).toBe('/admin/verificacion');
    expect((await audited('user.sign_in_locked', admin.id)).map((row) => row.after)).toEqual([{ lockScope: 'second_factor_account', lockMinutes: 15 }]);
  });
});
