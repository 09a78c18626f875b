// The portal's services on a real database (PGlite, or PostgreSQL when the run has DATABASE_URL):
// invitations (single use, expiry, one account per address), the team changes an owner makes, and
// that everything is scoped to the session's integration: another integration's ids are answered
// exactly as ids that do not exist, and change nothing.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, portalInvitations, portalPasswordResets, portalUsers } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { beginSignInAttempt, recordSignInFailure } from '@/lib/flows/auth/throttle';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { verifyPassword } from '@/lib/platform/security/passwords';
import { openSecret, sealSecret, twoFactorKey } from '@/lib/flows/two-factor/secret-box';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { findPortalAccountByEmail } from '@/lib/flows/portal-identity/accounts';
import { portalHome } from './home';
import { acceptInvitation, INVITATION_MESSAGES, invitationForCode, invitePortalUser, otherIntegrationMessage } from '@/lib/flows/portal-identity/invitations';
import { completePortalPasswordReset, PASSWORD_MESSAGES, passwordResetForCode, requestPortalPasswordReset } from '@/lib/flows/portal-identity/passwords';
import type { PortalUserSession } from './session';
import { findPortalSession, portalUserSessionOf } from '@/lib/flows/portal-identity/sessions';
import { cancelInvitation, removeMember, resendInvitation, setMemberRole, TEAM_MESSAGES, teamOf } from '@/lib/flows/portal-identity/team';

const CLI: Actor = { kind: 'cli', name: 'pruebas' };
const ORIGIN = { clientIp: '192.0.2.80', userAgent: 'vitest' };
const PASSWORD = 'mango verde con pepita y limón';

let testDatabase: TestDatabase;
let integrationA: { id: number; nombre: string };
let integrationB: { id: number; nombre: string };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integrationA = await newIntegration('portal-a', 12_345);
  integrationB = await newIntegration('portal-b', 99_900);
});
afterAll(async () => {
  await testDatabase.cleanup();
});

async function newIntegration(nombre: string, balance: number) {
  const created = await createIntegration(CLI, { nombre, tariffCentavos: 150, flags: {}, initialBalanceCentavos: balance, note: 'prueba' });
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.integration.id, nombre };
}

/** The link's code, from the line development prints when no SMTP server is set. */
function codeOf(printed: string[]): string {
  const code = /codigo=([A-Za-z0-9_-]{43})/.exec(printed.at(-1) ?? '')?.[1];
  if (!code) throw new Error(`no link was printed: ${printed.join('\n')}`);
  return code;
}

async function invite(inviter: Parameters<typeof invitePortalUser>[0], email: string, role = 'propietario'): Promise<string> {
  const printed: string[] = [];
  const sent = await invitePortalUser(inviter, { email, role }, { printer: (line) => printed.push(line) });
  if (!sent.ok) throw new Error(sent.error.message);
  expect(sent.value.delivery).toBe('terminal');
  return codeOf(printed);
}

/** A member, signed in: the session the portal's pages and actions would resolve. */
async function member(integration: { id: number; nombre: string }, email: string, role: 'propietario' | 'desarrollador' | 'facturacion' = 'propietario'): Promise<PortalUserSession & { sessionId: string }> {
  const code = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, email, role);
  const accepted = await acceptInvitation(code, { nombre: `Persona ${email.split('@')[0]}`, clave: PASSWORD }, ORIGIN);
  if (!accepted.ok) throw new Error(accepted.error.message);
  const found = (await findPortalSession(accepted.value.sessionId))!;
  return { ...portalUserSessionOf(found), sessionId: accepted.value.sessionId };
}

describe('invitations', () => {
  it('are accepted once: the link creates the account with the invited role and signs it in; a second use is refused', async () => {
    const code = await invite({ kind: 'staff', actor: CLI, integrationId: integrationA.id }, 'Duena@Example.com');
    expect(await invitationForCode(code)).toMatchObject({ state: 'valid', email: 'duena@example.com', role: 'propietario', integrationName: 'portal-a' });

    const accepted = await acceptInvitation(code, { nombre: 'Dueña', clave: PASSWORD }, ORIGIN);
    expect(accepted).toMatchObject({ ok: true, value: { role: 'propietario' } });
    const session = await findPortalSession(accepted.ok ? accepted.value.sessionId : '');
    expect(session).toMatchObject({ email: 'duena@example.com', integrationId: integrationA.id, integrationName: 'portal-a', role: 'propietario' });
    const account = (await findPortalAccountByEmail('duena@example.com'))!;
    expect(await verifyPassword(PASSWORD, account.passwordHash)).toBe(true);

    expect(await invitationForCode(code)).toEqual({ state: 'unusable' });
    expect(await acceptInvitation(code, { nombre: 'Otra', clave: PASSWORD }, ORIGIN)).toMatchObject({ ok: false, error: { code: 'link', message: INVITATION_MESSAGES.linkUnusable } });

    // Who invited whom, and who accepted, in the audit.
    const rows = await (await db()).select().from(auditLog).where(eq(auditLog.targetType, 'integration'));
    expect(rows.find((row) => row.action === 'portal.invite' && (row.after as { email?: string }).email === 'duena@example.com')).toMatchObject({ actor: 'cli:pruebas', targetId: String(integrationA.id) });
    const [acceptance] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal_user.accept_invitation'), eq(auditLog.targetId, String(account.id))));
    expect(acceptance!.actor).toBe(`integrator:${account.id} ${integrationA.id} duena@example.com (portal-a)`);
  });

  it('stop working after 72 hours, and a newer invitation to the same address replaces the older', async () => {
    const staff = { kind: 'staff' as const, actor: CLI, integrationId: integrationA.id };
    const first = await invite(staff, 'tarde@example.com', 'facturacion');
    const second = await invite(staff, 'tarde@example.com', 'facturacion');
    expect(await invitationForCode(first)).toEqual({ state: 'unusable' });
    const [row] = await (await db()).select({ created: portalInvitations.createdAt, expires: portalInvitations.expiresAt }).from(portalInvitations).where(eq(portalInvitations.email, 'tarde@example.com')).orderBy(sql`id desc`).limit(1);
    expect(row!.expires.getTime() - row!.created.getTime()).toBe(72 * 3_600_000);

    await (await db()).update(portalInvitations).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(portalInvitations.email, 'tarde@example.com'));
    expect(await invitationForCode(second)).toEqual({ state: 'expired' });
    expect(await acceptInvitation(second, { nombre: 'Tarde', clave: PASSWORD }, ORIGIN)).toMatchObject({ ok: false, error: { code: 'link', message: INVITATION_MESSAGES.linkExpired } });
    expect(await findPortalAccountByEmail('tarde@example.com')).toBeUndefined();
  });

  it('refuse a guessable password and keep the link usable', async () => {
    const code = await invite({ kind: 'staff', actor: CLI, integrationId: integrationA.id }, 'debil@example.com', 'desarrollador');
    expect(await acceptInvitation(code, { nombre: 'Débil', clave: 'debil@example.com1' }, ORIGIN)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await acceptInvitation(code, { nombre: 'Débil', clave: 'corto' }, ORIGIN)).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await invitationForCode(code)).toMatchObject({ state: 'valid' });
  });

  it('one account per address: staff are told which integration has it; an owner is not, and the person is told when opening the link', async () => {
    await member(integrationB, 'doble@example.com', 'desarrollador');
    const byStaff = await invitePortalUser({ kind: 'staff', actor: CLI, integrationId: integrationA.id }, { email: 'doble@example.com', role: 'propietario' }, { printer: () => {} });
    expect(byStaff).toMatchObject({ ok: false, error: { code: 'other_integration', message: otherIntegrationMessage('portal-b') } });

    const owner = await member(integrationA, 'jefa-a@example.com');
    // The owner of A learns nothing about B: the invitation is sent like any other.
    const code = await invite({ kind: 'owner', user: owner }, 'doble@example.com', 'desarrollador');
    expect(await acceptInvitation(code, { nombre: 'Doble', clave: PASSWORD }, ORIGIN)).toMatchObject({ ok: false, error: { code: 'email_taken', message: INVITATION_MESSAGES.emailTaken } });
    expect((await findPortalAccountByEmail('doble@example.com'))!.integrationId).toBe(integrationB.id);

    // An address already in the owner's own integration is refused at once.
    expect(await invitePortalUser({ kind: 'owner', user: owner }, { email: 'jefa-a@example.com', role: 'facturacion' }, { printer: () => {} })).toMatchObject({
      ok: false,
      error: { code: 'already_member' },
    });
  });
});

describe('the team, scoped to the owner’s integration', () => {
  it('answers another integration’s member and invitation ids exactly as ids that do not exist, and changes nothing there', async () => {
    const ownerA = await member(integrationA, 'owner-scope-a@example.com');
    const ownerB = await member(integrationB, 'owner-scope-b@example.com');
    const devB = await member(integrationB, 'dev-scope-b@example.com', 'desarrollador');
    const invitationCodeB = await invite({ kind: 'owner', user: ownerB }, 'pendiente-b@example.com', 'facturacion');
    const pendingB = (await teamOf(integrationB.id)).invitations.find((invitation) => invitation.email === 'pendiente-b@example.com')!;

    for (const id of [devB.id, 2_000_000_000]) {
      expect(await removeMember(ownerA, id)).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.memberNotFound } });
      expect(await setMemberRole(ownerA, id, 'propietario')).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.memberNotFound } });
    }
    for (const id of [pendingB.id, 2_000_000_000]) {
      expect(await cancelInvitation(ownerA, id)).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.invitationNotFound } });
      expect(await resendInvitation(ownerA, id, { printer: () => {} })).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.invitationNotFound } });
    }

    expect(await findPortalSession(devB.sessionId)).toMatchObject({ role: 'desarrollador', integrationId: integrationB.id });
    expect(await invitationForCode(invitationCodeB)).toMatchObject({ state: 'valid', integrationName: 'portal-b' });
    // A's team lists nobody of B.
    const teamA = await teamOf(ownerA.integrationId);
    expect(teamA.members.map((person) => person.email)).not.toContain('dev-scope-b@example.com');
    expect(teamA.invitations.map((invitation) => invitation.email)).not.toContain('pendiente-b@example.com');
  });

  it('Inicio reads the session’s integration: its name, balance and threshold', async () => {
    const billingB = await member(integrationB, 'billing-home-b@example.com', 'facturacion');
    expect(await portalHome(billingB)).toMatchObject({ integrationName: 'portal-b', balance: { balanceCentavos: 99_900, lowBalanceIsOwn: false }, money: { tariffCentavos: 150 } });
    const ownerA = await member(integrationA, 'owner-home-a@example.com');
    expect(await portalHome(ownerA)).toMatchObject({ integrationName: 'portal-a', balance: { balanceCentavos: 12_345 } });
  });

  it('an owner changes roles and removes members; the last owner stays, nobody removes themselves, and a removed member’s sessions end', async () => {
    const integration = await newIntegration('portal-equipo', 0);
    const owner = await member(integration, 'unica-duena@example.com');
    expect(await setMemberRole(owner, owner.id, 'desarrollador')).toEqual({ ok: false, error: { code: 'last_owner', message: TEAM_MESSAGES.lastOwner } });
    expect(await removeMember(owner, owner.id)).toMatchObject({ ok: false, error: { code: 'self' } });

    const dev = await member(integration, 'dev-equipo@example.com', 'desarrollador');
    expect(await setMemberRole(owner, dev.id, 'propietario')).toMatchObject({ ok: true, value: { role: 'propietario' } });
    expect(await setMemberRole(owner, owner.id, 'facturacion')).toMatchObject({ ok: true, value: { role: 'facturacion' } });
    expect(await findPortalSession(owner.sessionId)).toMatchObject({ role: 'facturacion' });

    // Someone who is no longer an owner changes nobody (their session was read before the demotion),
    // and the last owner stays.
    expect(await removeMember(owner, dev.id)).toMatchObject({ ok: false, error: { code: 'not_owner' } });
    expect(await setMemberRole(dev, dev.id, 'desarrollador')).toMatchObject({ ok: false, error: { code: 'last_owner' } });
    const other = await member(integration, 'otro-equipo@example.com', 'desarrollador');
    expect(await removeMember(dev, other.id)).toMatchObject({ ok: true });
    expect(await findPortalSession(other.sessionId)).toBeUndefined();
    expect(await findPortalAccountByEmail('otro-equipo@example.com')).toBeUndefined();
    const [audit] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal_user.remove'), eq(auditLog.targetId, String(other.id))));
    expect(audit).toMatchObject({ actor: `integrator:${dev.id} ${integration.id} dev-equipo@example.com (portal-equipo)`, before: { email: 'otro-equipo@example.com', role: 'desarrollador', sessions: 1 } });
    // The address is free again: it can be invited anew.
    expect((await invitePortalUser({ kind: 'owner', user: dev }, { email: 'otro-equipo@example.com', role: 'facturacion' }, { printer: () => {} })).ok).toBe(true);
  });
});

describe('password resets', () => {
  it('send a link only for a member, at most once in five minutes; the link works once and ends every session', async () => {
    const person = await member(integrationA, 'olvido@example.com', 'facturacion');
    const printed: string[] = [];
    await requestPortalPasswordReset('nadie@example.com', { printer: (line) => printed.push(line) });
    expect(printed).toEqual([]);
    await requestPortalPasswordReset('OLVIDO@example.com', { printer: (line) => printed.push(line) });
    expect(printed).toHaveLength(1);
    await requestPortalPasswordReset('olvido@example.com', { printer: (line) => printed.push(line) });
    expect(printed).toHaveLength(1);
    const code = codeOf(printed);
    expect(await passwordResetForCode(code)).toEqual({ state: 'valid', email: 'olvido@example.com' });

    const chosen = 'tortilla de maíz amarillo en comal';
    expect(await completePortalPasswordReset(code, chosen)).toEqual({ ok: true, value: null });
    expect(await findPortalSession(person.sessionId)).toBeUndefined();
    expect(await verifyPassword(chosen, (await findPortalAccountByEmail('olvido@example.com'))!.passwordHash)).toBe(true);
    expect(await completePortalPasswordReset(code, 'otra frase larga para el portal')).toMatchObject({ ok: false, error: { code: 'link', message: PASSWORD_MESSAGES.linkUnusable } });

    await (await db()).update(portalPasswordResets).set({ createdAt: sql`now() - interval '6 minutes'` }).where(eq(portalPasswordResets.userId, person.id));
    await requestPortalPasswordReset('olvido@example.com', { printer: (line) => printed.push(line) });
    expect(printed).toHaveLength(2);
    await (await db()).update(portalPasswordResets).set({ expiresAt: sql`now() - interval '1 second'` }).where(and(eq(portalPasswordResets.userId, person.id), isNull(portalPasswordResets.usedAt)));
    expect(await passwordResetForCode(codeOf(printed))).toEqual({ state: 'expired' });
  });
});

describe('the portal’s sign-in counts and secrets are its own', () => {
  it('failures at the console’s sign-in for an address do not lock the portal account with the same address', async () => {
    const ip = '198.51.100.77';
    for (let attempt = 0; attempt < 10; attempt++) {
      const start = await beginSignInAttempt('misma@example.com', ip, undefined, 'console');
      if (start.allowed) await recordSignInFailure(start);
    }
    expect(await beginSignInAttempt('misma@example.com', ip, undefined, 'console')).toMatchObject({ allowed: false });
    expect(await beginSignInAttempt('misma@example.com', ip, undefined, 'portal')).toMatchObject({ allowed: true });
  });

  it('a two-factor secret sealed for a portal user does not open as the console user with the same id', () => {
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 7, twoFactorKey(), 'portal_user');
    expect(openSecret(sealed, 7, twoFactorKey(), 'portal_user')).toBe('JBSWY3DPEHPK3PXP');
    expect(openSecret(sealed, 7, twoFactorKey())).toBeUndefined();
  });

  it('a removed member cannot be found to sign in, and their row stays for the audit', async () => {
    const owner = await member(integrationB, 'owner-removal-b@example.com');
    const leaving = await member(integrationB, 'se-va@example.com', 'facturacion');
    expect((await removeMember(owner, leaving.id)).ok).toBe(true);
    expect(await findPortalAccountByEmail('se-va@example.com')).toBeUndefined();
    const [row] = await (await db()).select({ removedAt: portalUsers.removedAt }).from(portalUsers).where(eq(portalUsers.id, leaving.id));
    expect(row!.removedAt).toBeInstanceOf(Date);
  });
});
