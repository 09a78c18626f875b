// "Cambiar contraseña" against someone holding a stolen session cookie, and the audit log of
// sign-ins, failures, locks and password changes, over HTTP against the built app.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, type AuditEntry } from '@/db/schema';
import { WRONG_CURRENT_PASSWORD } from '@/lib/flows/auth/password-change-errors';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { startApp, type RunningApp } from '../support/app-server';
import { ConsoleClient } from '../support/console-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const NEW_PASSWORD = 'una frase nueva y bastante larga';
const LOCKED = 'Demasiados intentos con una contraseña actual incorrecta';
const UNKNOWN_EMAIL = 'nadie-con-este-correo@example.com';

let testDatabase: TestDatabase;
let app: RunningApp;
let admin: { id: number; email: string; password: string };
let owner: { id: number; email: string; password: string };
let target: { id: number; email: string; password: string };
let resender: { id: number; email: string; password: string };

async function newUser(email: string, role: 'admin' | 'support') {
  const created = await createConsoleUser({ kind: 'system', name: 'test' }, { email, name: email.split('@')[0]!, role, mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.user.id, email, password: created.value.password };
}

/** A client "from" an address (the app trusts one proxy hop), optionally holding a copied session cookie. */
function clientFrom(ip: string, cookie?: [string, string]): ConsoleClient {
  const client = new ConsoleClient(app.baseUrl, { 'x-forwarded-for': ip });
  if (cookie) client.cookies.set(...cookie);
  return client;
}

function changePassword(client: ConsoleClient, actual: string) {
  return client.serverAction('/admin/cuenta', 'changePasswordAction', { actual, nueva: NEW_PASSWORD, confirmacion: NEW_PASSWORD });
}

/** Whether an action's answer carries a text (as the RSC payload writes it: JSON-escaped). */
function says(answer: { text: string }, text: string): boolean {
  return answer.text.includes(JSON.stringify(text).slice(1, -1));
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  admin = await newUser('auditora@example.com', 'admin');
  owner = await newUser('duena@example.com', 'support');
  target = await newUser('objetivo@example.com', 'support');
  resender = await newUser('reenvio@example.com', 'support');
  // Room for the parallel sign-ins below: the per-minute limit in front is tested elsewhere.
  app = await startApp({ env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '100' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

describe('a stolen session cookie on Cambiar contraseña', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('gets 10 guesses at the current password, not 30, whatever addresses it uses; the owner still signs in', async () => {
    const session = clientFrom('198.51.100.1');
    expect(await session.signIn(owner.email, owner.password)).toBeNull();
    const stolen = session.sessionCookie()!;

    // 30 guesses at once, each from its own address: counted before any is checked.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => changePassword(clientFrom(`203.0.113.${index + 1}`, stolen), `adivinanza-${index}`)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => says(answer, WRONG_CURRENT_PASSWORD))).toHaveLength(9);
    expect(answers.filter((answer) => says(answer, LOCKED))).toHaveLength(21);

    // Locked for the account, from any address: even the right password is refused, with the wait.
    const right = await changePassword(clientFrom('192.0.2.200', stolen), owner.password);
    expect(says(right, `${LOCKED}. Por seguridad el cambio de contraseña está bloqueado; vuelva a intentarlo en 15 minutos.`)).toBe(true);

    // The password did not change, and the lock does not keep its owner from signing in.
    expect(await clientFrom('198.51.100.2').signIn(owner.email, owner.password)).toBeNull();
  });
});

describe('a corrected resend of the same form', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('runs: a refusal that wrote an audit entry does not keep its submission key (issue 30, point 2)', async () => {
    const user = resender;
    const client = clientFrom('198.51.100.30');
    expect(await client.signIn(user.email, user.password)).toBeNull();
    const envio = crypto.randomUUID();
    const send = (actual: string) => client.serverAction('/admin/cuenta', 'changePasswordAction', { actual, nueva: NEW_PASSWORD, confirmacion: NEW_PASSWORD, envio });
    expect(says(await send('no-es-la-actual'), WRONG_CURRENT_PASSWORD)).toBe(true);
    const corrected = await send(user.password);
    expect(says(corrected, 'Este envío ya se había procesado')).toBe(false);
    expect(await clientFrom('198.51.100.31').signIn(user.email, NEW_PASSWORD)).toBeNull();
  });
});

describe('the audit log', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let rows: AuditEntry[] = [];
  let auditor: ConsoleClient;

  beforeAll(async () => {
    auditor = clientFrom('198.51.100.50');
    expect(await auditor.signIn(admin.email, admin.password)).toBeNull();
    // A failed sign-in on an e-mail no account has, and a wrong password on a real one.
    expect(await clientFrom('198.51.100.60').signIn(UNKNOWN_EMAIL, 'contraseña-inventada-1')).toBe('invalid_credentials');
    // 10 wrong passwords at once on one account from one address: the 10th locks that pair. They
    // come from a browser that signed in to the account before (a known device): from any other,
    // the account's pace would take them one at a time (tests/security/console-sign-in.test.ts).
    const ownBrowser = clientFrom('198.51.100.70');
    expect(await ownBrowser.signIn(target.email, target.password)).toBeNull();
    const deviceCookie = ownBrowser.cookies.get('consola-dispositivo')!;
    const codes = await Promise.all(
      Array.from({ length: 10 }, (_, index) => {
        const sameBrowser = clientFrom('198.51.100.70');
        sameBrowser.cookies.set('consola-dispositivo', deviceCookie);
        return sameBrowser.signIn(target.email, `mal-${index}`);
      }),
    );
    expect(codes).toContain('locked_now');
    // A successful change, after a wrong current password.
    const session = clientFrom('198.51.100.80');
    expect(await session.signIn(target.email, target.password)).toBeNull();
    expect(says(await changePassword(session, 'no-es-la-actual'), WRONG_CURRENT_PASSWORD)).toBe(true);
    expect(says(await changePassword(session, target.password), 'Contraseña cambiada')).toBe(true);
    rows = await app.withDatabase(async () => (await db()).select().from(auditLog).where(eq(auditLog.targetType, 'console_user')));
  }, PROCESS_TEST_TIMEOUT_MS);

  const of = (action: string, targetId: number | string) => rows.filter((row) => row.action === action && row.targetId === String(targetId));

  it('records sign-ins, failures and locks with who and which account, and nothing typed', () => {
    expect(of('user.sign_in', admin.id).map((row) => row.actor)).toEqual([`user:${admin.id} ${admin.email}`]);
    expect(of('user.sign_in', owner.id)).toHaveLength(2);
    // An unknown e-mail: recorded without a user, and without the e-mail.
    expect(of('user.sign_in_failed', '').map((row) => row.actor)).toEqual(['anonymous']);
    expect(of('user.sign_in_failed', target.id)).toHaveLength(10);
    expect(of('user.sign_in_locked', target.id).map((row) => row.after)).toEqual([{ lockScope: 'account_ip', lockMinutes: 15 }]);
    const everything = JSON.stringify(rows);
    for (const typed of [UNKNOWN_EMAIL, 'contraseña-inventada-1', 'mal-0', 'adivinanza-0', 'no-es-la-actual', owner.password, NEW_PASSWORD]) {
      expect(everything).not.toContain(typed);
    }
  });

  it('records each wrong current password, the lock once, and the change, with the session\'s user', () => {
    const ownerActor = `user:${owner.id} ${owner.email}`;
    expect(of('user.change_password_failed', owner.id).map((row) => row.actor)).toEqual(Array(10).fill(ownerActor));
    expect(of('user.change_password_locked', owner.id).map((row) => [row.actor, row.after])).toEqual([[ownerActor, { lockScope: 'password_change_account', lockMinutes: 15 }]]);
    expect(of('user.change_password', owner.id)).toHaveLength(0);
    expect(of('user.change_password_failed', target.id)).toHaveLength(1);
    expect(of('user.change_password', target.id).map((row) => row.actor)).toEqual([`user:${target.id} ${target.email}`]);
  });

  it('shows them in Spanish on Auditoría, and its filters pick them out', async () => {
    const all = await auditor.request('/admin/auditoria');
    expect(all.status).toBe(200);
    // Cells end in </td>: the same labels are also options of the filters.
    const cells = ['Inició sesión', 'Inicio de sesión fallido', 'Sin sesión iniciada', 'Correo sin cuenta', 'Bloqueo del cambio de contraseña por intentos fallidos', 'Bloqueo del inicio de sesión por intentos fallidos'];
    for (const text of cells) expect(all.text).toContain(`${text}</td>`);
    expect(all.text).toContain('cambios de contraseña de esta cuenta');
    expect(all.text).not.toMatch(/>user\.[a-z_]+</);

    const locks = await auditor.request('/admin/auditoria?accion=user.sign_in_locked');
    expect(locks.text).toContain('esta cuenta desde una dirección');
    expect(locks.text).not.toContain('Inicio de sesión fallido</td>');
    const anonymous = await auditor.request('/admin/auditoria?quien=anonymous');
    expect(anonymous.text).toContain('Correo sin cuenta');
    expect(anonymous.text).not.toContain('Inició sesión</td>');
    const ownerRows = await auditor.request(`/admin/auditoria?quien=${owner.id}&accion=user.change_password_failed`);
    expect(ownerRows.text.match(/Intentó cambiar su contraseña con una actual incorrecta<\/td>/g)).toHaveLength(10);
  });
});
