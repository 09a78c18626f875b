// Who enters the console through the identity provider (issue 67, points 1-3), on the database
// `npm test` runs (PGlite, and PostgreSQL in CI): the settings' rules, the tenant and domain
// guards, the role from the claim, just-in-time creation, a local account never taken by e-mail
// alone, a role changed or gone, and a password that no longer opens a provider's account.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, consoleSessions } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { PRODUCTION, rejectedVariables } from '@/tests/support/production-env';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { parseEnv } from '@/lib/root/settings';
import { authenticateConsoleUser, SignInRefused } from './credentials';
import { startConsoleSession } from './sessions';
import { admitThroughProvider, guardRefusal, roleOfClaims } from './sso';
import { allowIdentityProviderLink, createConsoleUser, findConsoleUser, resetConsoleUserPassword } from './users';

const CLI: Actor = { kind: 'cli' };
const ROLES = { CONSOLE_OIDC_ROLE_CLAIM: 'groups', CONSOLE_OIDC_ADMIN_VALUES: ['g-admins'], CONSOLE_OIDC_SUPPORT_VALUES: ['g-soporte'] };
const SSO_ENV = {
  CONSOLE_OIDC_ISSUER: 'https://login.microsoftonline.com/6f1c0b8e-2a44-4d1e-9c57-3b0b5c6f7a10/v2.0',
  CONSOLE_OIDC_CLIENT_ID: 'consola',
  CONSOLE_OIDC_CLIENT_SECRET: 'secreto',
  CONSOLE_OIDC_ADMIN_VALUES: 'g-admins',
  CONSOLE_OIDC_SUPPORT_VALUES: 'g-soporte',
  CONSOLE_OIDC_ENTRA_TENANT_ID: '6f1c0b8e-2a44-4d1e-9c57-3b0b5c6f7a10',
};
const TENANT = SSO_ENV.CONSOLE_OIDC_ENTRA_TENANT_ID;
const saved = { ...process.env };
let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  Object.assign(process.env, SSO_ENV, { CONSOLE_LOCAL_SIGN_IN: 'break_glass', CONSOLE_BREAK_GLASS_EMAILS: 'emergencia@operador.example' });
  resetEnvCache();
});
afterEach(() => resetEnvCache());
afterAll(async () => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  resetEnvCache();
  await testDatabase.cleanup();
});

const claims = (sub: string, email: string, groups: string[], extra: Record<string, unknown> = {}) => ({ sub, email, name: email.split('@')[0], groups, tid: TENANT, ...extra });

async function refusalsOf(targetId: number | ''): Promise<unknown[]> {
  const rows = await (await db()).select().from(auditLog).where(eq(auditLog.action, 'user.identity_provider_refused'));
  return rows.filter((row) => row.targetId === String(targetId)).map((row) => (row.after as { identityProviderRefusal: string }).identityProviderRefusal);
}

describe('the identity provider’s settings', () => {
  it('are off by default, need the client with the issuer, a role value, and break-glass only in production', () => {
    expect(parseEnv({}).CONSOLE_OIDC_ISSUER).toBeUndefined();
    expect(parseEnv({}).CONSOLE_LOCAL_SIGN_IN).toBe('all');
    expect(rejectedVariables({ CONSOLE_OIDC_ISSUER: 'https://idp.example' })).toEqual(expect.arrayContaining(['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_CLIENT_SECRET', 'CONSOLE_OIDC_ADMIN_VALUES']));
    expect(rejectedVariables({ CONSOLE_OIDC_CLIENT_ID: 'consola' })).toContain('CONSOLE_OIDC_CLIENT_ID');
    expect(rejectedVariables({ ...SSO_ENV, CONSOLE_OIDC_SCOPES: 'email profile' })).toContain('CONSOLE_OIDC_SCOPES');
    expect(parseEnv({ ...PRODUCTION, ...SSO_ENV }).CONSOLE_LOCAL_SIGN_IN).toBe('break_glass');
    expect(rejectedVariables({ ...PRODUCTION, ...SSO_ENV, CONSOLE_LOCAL_SIGN_IN: 'all' })).toEqual(['CONSOLE_LOCAL_SIGN_IN']);
    expect(rejectedVariables({ ...PRODUCTION, ...SSO_ENV, CONSOLE_OIDC_ISSUER: 'http://idp.example' })).toEqual(['CONSOLE_OIDC_ISSUER']);
    // Under `npm run dev`, the simulator's provider and its development client.
    expect(parseEnv({ NODE_ENV: 'development' })).toMatchObject({ CONSOLE_OIDC_ISSUER: 'http://127.0.0.1:4010/oidc', CONSOLE_OIDC_CLIENT_ID: 'pasarela-consola', CONSOLE_LOCAL_SIGN_IN: 'all' });
  });

  it('map the claim to a role, administrator first, and guard the tenant and the domain', () => {
    expect(roleOfClaims(claims('s', 'a@x.example', ['otro', 'g-soporte', 'g-admins']), ROLES)).toBe('admin');
    expect(roleOfClaims(claims('s', 'a@x.example', ['g-soporte']), ROLES)).toBe('support');
    expect(roleOfClaims({ sub: 's', groups: 'g-soporte' }, ROLES)).toBe('support');
    expect(roleOfClaims(claims('s', 'a@x.example', ['contabilidad']), ROLES)).toBeUndefined();
    expect(roleOfClaims({ sub: 's' }, ROLES)).toBeUndefined();
    const guards = { CONSOLE_OIDC_ENTRA_TENANT_ID: TENANT, CONSOLE_OIDC_GOOGLE_DOMAIN: undefined };
    expect(guardRefusal(claims('s', 'a@x.example', [], { tid: '11111111-2222-4333-8444-555555555555' }), guards)).toBe('sso_wrong_tenant');
    expect(guardRefusal(claims('s', 'a@x.example', [], { tid: undefined }), guards)).toBe('sso_wrong_tenant');
    expect(guardRefusal(claims('s', 'a@x.example', []), guards)).toBeUndefined();
    const google = { CONSOLE_OIDC_ENTRA_TENANT_ID: undefined, CONSOLE_OIDC_GOOGLE_DOMAIN: 'empresa.com.gt' };
    expect(guardRefusal({ sub: 's', email: 'a@gmail.com' }, google)).toBe('sso_wrong_domain');
    expect(guardRefusal({ sub: 's', email: 'a@empresa.com.gt', hd: 'empresa.com.gt' }, google)).toBeUndefined();
    expect(guardRefusal({ sub: 's', hd: 'empresa.com.gt' }, google)).toBe('sso_no_email');
  });
});

describe('a sign-in through the identity provider', () => {
  it('creates the user just in time with the claim’s role, and finds them again by subject when the e-mail changed', async () => {
    const first = await admitThroughProvider(claims('sub-eva', 'eva@operador.example', ['g-admins']));
    expect(first).toMatchObject({ ok: true, user: { email: 'eva@operador.example', role: 'admin', origin: 'identity_provider', identityProviderSubject: 'sub-eva', mustChangePassword: false } });
    const again = await admitThroughProvider(claims('sub-eva', 'eva.nueva@operador.example', ['g-admins']));
    expect(again.ok && again.user.id).toBe(first.ok && first.user.id);
    expect(await refusalsOf('')).toEqual([]);
  });

  it('refuses no role, another tenant, and a local account with the same e-mail until an administrator releases it', async () => {
    expect(await admitThroughProvider(claims('sub-nadie', 'nadie@operador.example', ['contabilidad']))).toEqual({ ok: false, refusal: 'sso_no_role' });
    expect(await admitThroughProvider(claims('sub-fuera', 'fuera@otra.example', ['g-admins'], { tid: '11111111-2222-4333-8444-555555555555' }))).toEqual({ ok: false, refusal: 'sso_wrong_tenant' });
    expect(await refusalsOf('')).toEqual(expect.arrayContaining(['sso_no_role', 'sso_wrong_tenant']));

    const local = await createConsoleUser(CLI, { email: 'Luis@operador.example', name: 'Luis', role: 'support' });
    if (!local.ok) throw new Error(local.error.message);
    const userId = local.value.user.id;
    expect(await admitThroughProvider(claims('sub-luis', 'luis@operador.example', ['g-soporte']))).toEqual({ ok: false, refusal: 'sso_not_linked' });
    expect(await refusalsOf(userId)).toEqual(['sso_not_linked']);

    // A break-glass account is never released; any other is, and then its password stops working.
    const emergency = await createConsoleUser(CLI, { email: 'emergencia@operador.example', name: 'Emergencia', role: 'admin' });
    if (!emergency.ok) throw new Error(emergency.error.message);
    expect(await allowIdentityProviderLink(CLI, emergency.value.user.id, ['emergencia@operador.example'])).toMatchObject({ ok: false });
    expect(await allowIdentityProviderLink(CLI, userId, ['emergencia@operador.example'])).toMatchObject({ ok: true, value: { origin: 'identity_provider' } });
    await expect(authenticateConsoleUser('luis@operador.example', local.value.password, {})).rejects.toBeInstanceOf(SignInRefused);
    expect(await resetConsoleUserPassword(CLI, userId)).toMatchObject({ ok: false });
    const linked = await admitThroughProvider(claims('sub-luis', 'luis@operador.example', ['g-soporte']));
    expect(linked).toMatchObject({ ok: true, user: { id: userId, identityProviderSubject: 'sub-luis' } });
  });

  it('takes the role the directory gives at each sign-in, ending the other sessions; a role gone refuses and ends them all', async () => {
    const admitted = await admitThroughProvider(claims('sub-rita', 'rita@operador.example', ['g-admins']));
    if (!admitted.ok) throw new Error(admitted.refusal);
    const version = admitted.user.passwordChangedAt.getTime();
    await startConsoleSession(admitted.user, { clientIp: '192.0.2.1', userAgent: 'prueba' }, { sid: 'sid-1', refreshToken: null });

    const demoted = await admitThroughProvider(claims('sub-rita', 'rita@operador.example', ['g-soporte']));
    expect(demoted).toMatchObject({ ok: true, user: { role: 'support' } });
    // The session's version no longer matches: the console refuses it at its next request.
    expect(demoted.ok && demoted.user.passwordChangedAt.getTime()).not.toBe(version);
    const unchanged = await admitThroughProvider(claims('sub-rita', 'rita@operador.example', ['g-soporte']));
    expect(unchanged.ok && unchanged.user.passwordChangedAt.getTime()).toBe(demoted.ok && demoted.user.passwordChangedAt.getTime());

    expect(await admitThroughProvider(claims('sub-rita', 'rita@operador.example', []))).toEqual({ ok: false, refusal: 'sso_no_role' });
    const left = await (await db()).select().from(consoleSessions).where(eq(consoleSessions.userId, admitted.user.id));
    expect(left).toEqual([]);
    expect((await findConsoleUser(admitted.user.id))?.lastSignInAt).toBeInstanceOf(Date);
  });

  it('refuses a deactivated user, and a password never opens a provider’s account', async () => {
    const admitted = await admitThroughProvider(claims('sub-tito', 'tito@operador.example', ['g-soporte']));
    if (!admitted.ok) throw new Error(admitted.refusal);
    const { setConsoleUserActive } = await import('./users');
    await setConsoleUserActive(CLI, admitted.user.id, false);
    expect(await admitThroughProvider(claims('sub-tito', 'tito@operador.example', ['g-soporte']))).toEqual({ ok: false, refusal: 'sso_deactivated' });
    await expect(authenticateConsoleUser('tito@operador.example', 'none$identity-provider', {})).rejects.toMatchObject({ refusal: { kind: 'invalid_credentials' } });
  });
});
