import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { PASSWORD_RULE_MESSAGES } from '@/lib/flows/passwords/policy';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import {
  changeOwnPassword,
  createConsoleUser,
  findConsoleUser,
  findConsoleUserByEmail,
  resetConsoleUserPassword,
  setConsoleUserActive,
  setConsoleUserRole,
} from './users';

const CLI: Actor = { kind: 'cli' };
const IP = '192.0.2.10';
let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

async function newUser(email: string, role: 'admin' | 'support') {
  const created = await createConsoleUser(CLI, { email, name: email.split('@')[0]!, role });
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

describe('console users: the last admin', () => {
  it('cannot be demoted or deactivated, until another admin exists', async () => {
    const { user: only } = await newUser('unica@example.com', 'admin');
    const demoted = await setConsoleUserRole(CLI, only.id, 'support');
    expect(demoted).toMatchObject({ ok: false, error: { code: 'last_admin' } });
    expect(await setConsoleUserActive(CLI, only.id, false)).toMatchObject({ ok: false, error: { code: 'last_admin' } });

    await newUser('segunda@example.com', 'admin');
    expect(await setConsoleUserRole(CLI, only.id, 'support')).toMatchObject({ ok: true, value: { role: 'support' } });
    expect((await findConsoleUser(only.id))!.role).toBe('support');
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const { user: first } = await newUser('a1@example.com', 'admin');
    const { user: second } = await newUser('a2@example.com', 'admin');
    // Leave exactly these two as the active admins.
    const segunda = (await findConsoleUserByEmail('segunda@example.com'))!;
    expect(await setConsoleUserActive(CLI, segunda.id, false)).toMatchObject({ ok: true });
    const results = await Promise.all([setConsoleUserRole(CLI, first.id, 'support'), setConsoleUserRole(CLI, second.id, 'support')]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)[0]).toMatchObject({ error: { code: 'last_admin' } });
  });

  it('an admin cannot deactivate their own account', async () => {
    const { user } = await newUser('yo@example.com', 'admin');
    const self: Actor = { kind: 'user', id: user.id, email: user.email };
    expect(await setConsoleUserActive(self, user.id, false)).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });
});

describe('console users: passwords', () => {
  it('a reset returns a new password once, ends sessions and audits no secret', async () => {
    const { user } = await newUser('reset@example.com', 'support');
    const before = (await findConsoleUser(user.id))!;
    const reset = await resetConsoleUserPassword(CLI, user.id);
    expect(reset.ok).toBe(true);
    const after = (await findConsoleUser(user.id))!;
    expect(after.passwordHash).not.toBe(before.passwordHash);
    expect(after.passwordChangedAt.getTime()).toBeGreaterThan(before.passwordChangedAt.getTime());
    // Someone else knows the new password: the user must choose their own at the next sign-in.
    expect(after.mustChangePassword).toBe(true);
    const [audit] = await testDatabase.use(async ({ db }) =>
      db.select().from(auditLog).where(eq(auditLog.action, 'user.reset_password')),
    );
    expect(JSON.stringify(audit)).not.toContain(after.passwordHash);
    expect(JSON.stringify(audit)).not.toContain(reset.ok ? reset.value.password : '');
  });

  it('a change needs the current password and a different, long enough new one', async () => {
    const { user, password } = await newUser('cambio@example.com', 'support');
    const self = { kind: 'user' as const, id: user.id, email: user.email };
    expect(await changeOwnPassword(self, 'no-es-la-actual', 'una frase nueva y larga', IP)).toMatchObject({ ok: false, error: { message: 'La contraseña actual no es correcta.' } });
    expect(await changeOwnPassword(self, password, 'corta', IP)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await changeOwnPassword(self, password, password, IP)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await changeOwnPassword(self, password, 'Qwertyuiop123!', IP)).toMatchObject({ ok: false, error: { code: 'invalid', message: PASSWORD_RULE_MESSAGES.common } });
    expect((await findConsoleUser(user.id))!.mustChangePassword).toBe(true);
    expect(await changeOwnPassword(self, password, 'una frase nueva y larga', IP)).toMatchObject({ ok: true });
    expect((await findConsoleUser(user.id))!.mustChangePassword).toBe(false);

    // The wrong current password and the change are in the audit log, with who, and no password.
    const rows = await testDatabase.use(async ({ db }) => db.select().from(auditLog).where(eq(auditLog.targetId, String(user.id))));
    expect(rows.map((row) => [row.action, row.actor])).toEqual(
      expect.arrayContaining([
        ['user.change_password_failed', `user:${user.id} cambio@example.com`],
        ['user.change_password', `user:${user.id} cambio@example.com`],
      ]),
    );
    expect(rows.filter((row) => row.action === 'user.change_password_failed')).toHaveLength(1);
    for (const secret of [password, 'no-es-la-actual', 'una frase nueva y larga']) expect(JSON.stringify(rows)).not.toContain(secret);
  });
});

describe('console users: initial passwords', () => {
  it('must be changed at first sign-in unless the seed made the account for the developer who reads it', async () => {
    const { user } = await newUser('inicial@example.com', 'support');
    expect(user.mustChangePassword).toBe(true);
    const seeded = await createConsoleUser(CLI, { email: 'semilla@example.com', name: 'Semilla', role: 'admin', mustChangePassword: false });
    expect(seeded).toMatchObject({ ok: true, value: { user: { mustChangePassword: false } } });
  });

  it('cannot be a common password when chosen by whoever creates the account', async () => {
    const created = await createConsoleUser(CLI, { email: 'comun@example.com', name: 'Común', role: 'support', password: 'password1234' });
    expect(created).toMatchObject({ ok: false, error: { code: 'invalid', message: PASSWORD_RULE_MESSAGES.common } });
  });
});
