// Initial and reset passwords that must be changed, common passwords refused, and "Sesiones
// activas": a user ends one of their own sessions, an administrator ends all of someone's or
// deactivates the user, which ends them too, over HTTP against the built app.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { guessablePasswordMessage, PASSWORD_RULE_MESSAGES } from '@/lib/flows/passwords/policy';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { consoleSignedIn, newConsoleUser, type ConsoleAccount } from '../support/people';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let testDatabase: TestDatabase;
let app: RunningApp;
let admin: ConsoleAccount;
let newcomer: ConsoleAccount;
let traveller: ConsoleAccount;
let leaver: ConsoleAccount;

/** A console session "from" an address (the app trusts one proxy hop) with a browser's User-Agent. */
function signedIn(ip: string, user: { email: string; password: string }, userAgent = LAPTOP): Promise<ConsoleClient> {
  return consoleSignedIn(app.baseUrl, user, { 'x-forwarded-for': ip, 'user-agent': userAgent });
}

/** Whether an action's answer carries a text (as the RSC payload writes it: JSON-escaped). */
function says(answer: { text: string }, text: string): boolean {
  return answer.text.includes(JSON.stringify(text).slice(1, -1));
}

function changePassword(client: ConsoleClient, actual: string, nueva: string) {
  return client.serverAction('/admin/cuenta', 'changePasswordAction', { actual, nueva, confirmacion: nueva });
}

/** The rows of "Sesiones activas" on the client's Cuenta page: public id and the row's text. */
async function sessionRows(client: ConsoleClient): Promise<Array<{ id: string; text: string }>> {
  const page = await client.request('/admin/cuenta');
  expect(page.status).toBe(200);
  return [...page.text.matchAll(/<tr data-session="([0-9a-f-]{36})">(.*?)<\/tr>/g)].map((match) => ({ id: match[1]!, text: match[2]!.replace(/<[^>]+>/g, ' ') }));
}

async function redirectsTo(client: ConsoleClient, path: string): Promise<string | null> {
  const answer = await client.request(path);
  return answer.status === 307 ? answer.headers.get('location') : `HTTP ${answer.status}`;
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  admin = await newConsoleUser('jefa@example.com', 'admin');
  newcomer = await newConsoleUser('nueva@example.com', 'support', { mustChangePassword: true });
  traveller = await newConsoleUser('viajero@example.com', 'support');
  leaver = await newConsoleUser('saliente@example.com', 'support');
  app = await startApp({ env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

describe('an initial or reset password', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('opens only the page that changes it, which refuses a common or guessable password, until the user picks their own', async () => {
    const session = await signedIn('198.51.100.10', newcomer);
    for (const path of ['/admin', '/admin/cuenta', '/admin/registros', '/admin/integraciones']) {
      expect(await redirectsTo(session, path), path).toBe('/admin/cambiar-contrasena');
    }
    expect((await session.request('/admin/registros/exportar')).status).toBe(401);
    expect(says(await session.serverAction('/admin/cuenta', 'endOwnSessionAction', { sesion: '00000000-0000-4000-8000-000000000000' }), ACTION_MESSAGES.passwordChangeRequired)).toBe(true);
    const pending = await session.request('/admin/cambiar-contrasena');
    expect(pending.status).toBe(200);
    expect(pending.text).toContain('Cambie su contraseña');

    expect(says(await changePassword(session, newcomer.password, 'Password1234!'), PASSWORD_RULE_MESSAGES.common)).toBe(true);
    expect(says(await changePassword(session, newcomer.password, 'corta-9'), PASSWORD_RULE_MESSAGES.tooShort)).toBe(true);
    expect(says(await changePassword(session, newcomer.password, 'Pasarela2026!'), guessablePasswordMessage('serviceWords'))).toBe(true);
    expect(says(await changePassword(session, newcomer.password, 'Diciembre2026'), guessablePasswordMessage('dateWords'))).toBe(true);
    const chosen = 'mi frase propia del lago de Atitlán';
    expect(says(await changePassword(session, newcomer.password, chosen), 'Contraseña cambiada')).toBe(true);
    // The change ended the session; with the new password the console opens.
    expect(await redirectsTo(session, '/admin')).toBe('/admin/login?motivo=sesion');
    const again = await signedIn('198.51.100.10', { email: newcomer.email, password: chosen });
    expect((await again.request('/admin')).status).toBe(200);
    expect(await redirectsTo(again, '/admin/cambiar-contrasena')).toBe('/admin/cuenta');
    newcomer.password = chosen;
  });

  it('reset by an administrator must be changed at the next sign-in, and the old sessions end', async () => {
    const before = await signedIn('198.51.100.20', newcomer);
    const boss = await signedIn('198.51.100.21', admin);
    const reset = await boss.serverAction('/admin/usuarios', 'resetUserPasswordAction', { userId: String(newcomer.id) });
    const password = /"password":"([A-Za-z0-9]{18})"/.exec(reset.text)?.[1];
    expect(password).toBeDefined();
    expect(await redirectsTo(before, '/admin')).toBe('/admin/login?motivo=sesion');
    const after = await signedIn('198.51.100.20', { email: newcomer.email, password: password! });
    expect(await redirectsTo(after, '/admin')).toBe('/admin/cambiar-contrasena');
  });
});

describe('Sesiones activas', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('lists each session with its device and address, and ending one signs that browser out', async () => {
    const laptop = await signedIn('198.51.100.30', traveller, LAPTOP);
    const phone = await signedIn('203.0.113.31', traveller, PHONE);

    const rows = await sessionRows(laptop);
    expect(rows).toHaveLength(2);
    const laptopRow = rows.find((row) => row.text.includes('Esta sesión'))!;
    const phoneRow = rows.find((row) => row !== laptopRow)!;
    expect(laptopRow.text).toContain('Chrome en Windows');
    expect(laptopRow.text).toContain('198.51.100.30');
    expect(phoneRow.text).toContain('Safari en iOS');
    expect(phoneRow.text).toContain('203.0.113.31');

    // Someone else's session id ends nothing: only one's own sessions match.
    const boss = await signedIn('198.51.100.32', admin);
    const bossSession = (await sessionRows(boss)).find((row) => row.text.includes('Esta sesión'))!;
    expect(says(await laptop.serverAction('/admin/cuenta', 'endOwnSessionAction', { sesion: bossSession.id }), 'Esa sesión ya había terminado.')).toBe(true);
    expect((await boss.request('/admin')).status).toBe(200);

    expect((await laptop.serverAction('/admin/cuenta', 'endOwnSessionAction', { sesion: phoneRow.id })).status).toBe(200);
    expect(await redirectsTo(phone, '/admin')).toBe('/admin/login?motivo=sesion');
    expect((await laptop.request('/admin')).status).toBe(200);
    expect((await sessionRows(laptop)).map((row) => row.id)).toEqual([laptopRow.id]);
  });

  it('lets an administrator end all of another user\'s sessions, audited; support cannot', async () => {
    const first = await signedIn('198.51.100.40', traveller);
    const second = await signedIn('198.51.100.41', traveller, PHONE);
    expect(says(await first.serverAction('/admin/usuarios', 'endUserSessionsAction', { userId: String(admin.id) }), ACTION_MESSAGES.forbidden)).toBe(true);

    const boss = await signedIn('198.51.100.42', admin);
    const users = await boss.request('/admin/usuarios');
    expect(users.text).toContain('Cerrar sus sesiones');
    const answer = await boss.serverAction('/admin/usuarios', 'endUserSessionsAction', { userId: String(traveller.id) });
    expect(says(answer, 'Se cerraron')).toBe(true);
    expect(await redirectsTo(first, '/admin')).toBe('/admin/login?motivo=sesion');
    expect(await redirectsTo(second, '/admin')).toBe('/admin/login?motivo=sesion');
    expect((await boss.request('/admin')).status).toBe(200);

    const audited = await app.withDatabase(async () =>
      (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'user.end_all_sessions'), eq(auditLog.targetId, String(traveller.id)))),
    );
    expect(audited.map((row) => row.actor)).toEqual([`user:${admin.id} ${admin.email}`]);
  });

  it('deactivating a user signs their open session out at its next request, and the user cannot sign in again', async () => {
    const open = await signedIn('198.51.100.45', leaver);
    expect((await open.request('/admin')).status).toBe(200);
    const boss = await signedIn('198.51.100.46', admin);
    const answer = await boss.serverAction('/admin/usuarios', 'setUserActiveAction', { userId: String(leaver.id), active: 'false' });
    expect(says(answer, `${leaver.email} ya no puede entrar; sus sesiones abiertas terminaron.`)).toBe(true);
    expect(await redirectsTo(open, '/admin')).toBe('/admin/login?motivo=sesion');
    expect(says(await open.serverAction('/admin/cuenta', 'endOwnSessionAction', { sesion: crypto.randomUUID() }), ACTION_MESSAGES.signedOut)).toBe(true);
    expect(await new ConsoleClient(app.baseUrl, { 'x-forwarded-for': '198.51.100.47' }).signIn(leaver.email, leaver.password)).toBe('invalid_credentials');
  });
});
