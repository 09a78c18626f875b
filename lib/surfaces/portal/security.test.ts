// The portal's answers to its security review (docs/decisions.md, the portal's entries), on a real
// database (PGlite, or PostgreSQL when the run has DATABASE_URL): a session is only recorded for
// the password that was checked, an owner's change is refused once the owner is no longer one, a
// removed or demoted owner's invitations stop working, resets are capped under concurrency and
// owners cannot flood mailboxes with invitations.
import net from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, portalInvitations, portalPasswordResets, portalSessions, portalTwoFactor } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { verifyPassword } from '@/lib/platform/security/passwords';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { findPortalAccountByEmail, integratorActor } from '@/lib/flows/portal-identity/accounts';
import { acceptInvitation, INVITATION_MESSAGES, invitationForCode, invitePortalUser, listOpenInvitations, OWNER_INVITATIONS_PER_HOUR } from '@/lib/flows/portal-identity/invitations';
import { changePortalPassword, requestPortalPasswordReset } from '@/lib/flows/portal-identity/passwords';
import type { PortalUserSession } from './session';
import { findPortalSession, portalUserSessionOf, signInPortalSession } from '@/lib/flows/portal-identity/sessions';
import { cancelInvitation, removeMember, removeMemberAsStaff, resendInvitationAsStaff, setMemberRole, TEAM_MESSAGES, teamOf } from '@/lib/flows/portal-identity/team';

const CLI: Actor = { kind: 'cli', name: 'pruebas' };
const ORIGIN = { clientIp: '192.0.2.81', userAgent: 'vitest' };
const PASSWORD = 'mango verde con pepita y limón';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  await testDatabase.cleanup();
});

async function newIntegration(nombre: string) {
  const created = await createIntegration(CLI, { nombre, tariffCentavos: 150, flags: {}, initialBalanceCentavos: 0, note: 'prueba' });
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
  return codeOf(printed);
}

/** A member, signed in: the session the portal's pages and actions would resolve. */
async function member(integration: { id: number }, email: string, role: 'propietario' | 'desarrollador' | 'facturacion' = 'propietario'): Promise<PortalUserSession & { sessionId: string }> {
  const code = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, email, role);
  const accepted = await acceptInvitation(code, { nombre: `Persona ${email.split('@')[0]}`, clave: PASSWORD }, ORIGIN);
  if (!accepted.ok) throw new Error(accepted.error.message);
  const found = (await findPortalSession(accepted.value.sessionId))!;
  return { ...portalUserSessionOf(found), sessionId: accepted.value.sessionId };
}

async function sessionsOf(userId: number) {
  return (await db()).select({ id: portalSessions.publicId }).from(portalSessions).where(eq(portalSessions.userId, userId));
}

describe('a sign-in’s session is tied to the password it checked', () => {
  it('records no session when the password changed between the check and the session', async () => {
    const integration = await newIntegration('portal-revision-clave');
    const person = await member(integration, 'cambia-clave@example.com', 'facturacion');
    // The sign-in's check: the old password matches the stored hash.
    const checked = (await findPortalAccountByEmail('cambia-clave@example.com'))!;
    expect(await verifyPassword(PASSWORD, checked.passwordHash)).toBe(true);
    // Meanwhile the password is changed (which ends every session of the user).
    expect(await changePortalPassword(person, PASSWORD, 'tortilla de maíz amarillo en comal', ORIGIN.clientIp)).toEqual({ ok: true, value: null });
    expect(await sessionsOf(person.id)).toEqual([]);

    expect(await signInPortalSession(integratorActor(checked), ORIGIN, checked.passwordHash)).toBeUndefined();
    expect(await sessionsOf(person.id)).toEqual([]);

    // The new password's check still signs in.
    const current = (await findPortalAccountByEmail('cambia-clave@example.com'))!;
    expect(await signInPortalSession(integratorActor(current), ORIGIN, current.passwordHash)).toEqual(expect.any(String));
    expect(await sessionsOf(person.id)).toHaveLength(1);
  });
});

describe('an owner’s change is refused once the owner is no longer one', () => {
  it('B, removed by A, cannot remove C with the session B had before', async () => {
    const integration = await newIntegration('portal-revision-duenos');
    const a = await member(integration, 'duena-a@example.com');
    const b = await member(integration, 'duena-b@example.com');
    const c = await member(integration, 'duena-c@example.com');
    expect(await removeMember(a, b.id)).toMatchObject({ ok: true });

    expect(await removeMember(b, c.id)).toEqual({ ok: false, error: { code: 'not_owner', message: TEAM_MESSAGES.notOwner } });
    expect(await setMemberRole(b, c.id, 'facturacion')).toEqual({ ok: false, error: { code: 'not_owner', message: TEAM_MESSAGES.notOwner } });
    expect(await findPortalSession(c.sessionId)).toMatchObject({ role: 'propietario' });
    expect(await findPortalAccountByEmail('duena-c@example.com')).toBeDefined();
  });

  it('a demoted owner’s stale session changes nobody either', async () => {
    const integration = await newIntegration('portal-revision-degradada');
    const a = await member(integration, 'jefa-a@example.com');
    const b = await member(integration, 'jefa-b@example.com');
    const dev = await member(integration, 'dev-revision@example.com', 'desarrollador');
    expect(await setMemberRole(a, b.id, 'facturacion')).toMatchObject({ ok: true });
    expect(await removeMember(b, dev.id)).toEqual({ ok: false, error: { code: 'not_owner', message: TEAM_MESSAGES.notOwner } });
    expect(await findPortalSession(dev.sessionId)).toMatchObject({ role: 'desarrollador' });
  });

  it('a removed or demoted owner’s stale session cancels no invitation', async () => {
    const integration = await newIntegration('portal-revision-cancelar');
    const a = await member(integration, 'cancela-a@example.com');
    const b = await member(integration, 'cancela-b@example.com');
    const c = await member(integration, 'cancela-c@example.com');
    // Sent by staff: neither owner's removal or demotion revokes it on its own.
    const code = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'pendiente-cancelar@example.com', 'facturacion');
    const pending = (await teamOf(integration.id)).invitations.find((invitation) => invitation.email === 'pendiente-cancelar@example.com')!;

    expect(await removeMember(a, b.id)).toMatchObject({ ok: true });
    expect(await cancelInvitation(b, pending.id)).toEqual({ ok: false, error: { code: 'not_owner', message: TEAM_MESSAGES.notOwner } });
    expect(await setMemberRole(a, c.id, 'desarrollador')).toMatchObject({ ok: true });
    expect(await cancelInvitation(c, pending.id)).toEqual({ ok: false, error: { code: 'not_owner', message: TEAM_MESSAGES.notOwner } });

    expect(await invitationForCode(code)).toMatchObject({ state: 'valid', email: 'pendiente-cancelar@example.com' });
    const cancellations = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal.cancel_invitation'), eq(auditLog.targetId, String(integration.id))));
    expect(cancellations).toEqual([]);
    // The owner who still is one cancels it.
    expect(await cancelInvitation(a, pending.id)).toEqual({ ok: true, value: { email: 'pendiente-cancelar@example.com', already: false } });
    expect(await invitationForCode(code)).toEqual({ state: 'cancelled' });
  });
});

describe('a removed or demoted owner’s pending invitations stop working', () => {
  it('removing an owner revokes the links they sent, audited; staff’s and other owners’ stay', async () => {
    const integration = await newIntegration('portal-revision-invitaciones');
    const a = await member(integration, 'invita-a@example.com');
    const b = await member(integration, 'invita-b@example.com');
    const sentByB = await invite({ kind: 'owner', user: b }, 'de-b@example.com', 'propietario');
    const sentByA = await invite({ kind: 'owner', user: a }, 'de-a@example.com', 'desarrollador');
    const sentByStaff = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'de-staff@example.com', 'facturacion');

    expect(await removeMember(a, b.id)).toMatchObject({ ok: true });
    expect(await invitationForCode(sentByB)).toEqual({ state: 'unusable' });
    expect(await acceptInvitation(sentByB, { nombre: 'De B', clave: PASSWORD }, ORIGIN)).toMatchObject({ ok: false, error: { code: 'link', message: INVITATION_MESSAGES.linkUnusable } });
    expect(await findPortalAccountByEmail('de-b@example.com')).toBeUndefined();
    expect(await invitationForCode(sentByA)).toMatchObject({ state: 'valid' });
    expect(await invitationForCode(sentByStaff)).toMatchObject({ state: 'valid' });

    const [audit] = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal.revoke_invitations'), eq(auditLog.targetId, String(integration.id))));
    expect(audit).toMatchObject({ actor: `integrator:${a.id} ${integration.id} invita-a@example.com (portal-revision-invitaciones)`, before: { invitedBy: 'invita-b@example.com', invitations: [{ email: 'de-b@example.com', role: 'propietario' }] } });
  });

  it('demoting an owner revokes the links they sent; a role change between other roles does not', async () => {
    const integration = await newIntegration('portal-revision-degradar');
    const a = await member(integration, 'degrada-a@example.com');
    const b = await member(integration, 'degrada-b@example.com');
    const sentByB = await invite({ kind: 'owner', user: b }, 'de-degradada@example.com', 'facturacion');
    expect(await setMemberRole(a, b.id, 'propietario')).toMatchObject({ ok: true });
    expect(await invitationForCode(sentByB)).toMatchObject({ state: 'valid' });
    expect(await setMemberRole(a, b.id, 'desarrollador')).toMatchObject({ ok: true });
    expect(await invitationForCode(sentByB)).toEqual({ state: 'unusable' });
  });
});

describe('password reset requests', () => {
  it('several at once for one account send one link: the five-minute cap holds under concurrency', async () => {
    const integration = await newIntegration('portal-revision-restablecer');
    const person = await member(integration, 'muchos-clics@example.com', 'facturacion');
    const printed: string[] = [];
    await Promise.all(Array.from({ length: 6 }, () => requestPortalPasswordReset('muchos-clics@example.com', { printer: (line) => printed.push(line) })));
    expect(printed).toHaveLength(1);
    expect(await (await db()).select({ id: portalPasswordResets.id }).from(portalPasswordResets).where(eq(portalPasswordResets.userId, person.id))).toHaveLength(1);
  });
});

describe('invitations an owner sends', () => {
  it('are capped per integration each hour, with a refusal in Spanish; staff’s are not counted', async () => {
    const integration = await newIntegration('portal-revision-tope');
    const a = await member(integration, 'tope-a@example.com');
    const b = await member(integration, 'tope-b@example.com');
    for (let sent = 0; sent < OWNER_INVITATIONS_PER_HOUR; sent++) await invite({ kind: 'owner', user: sent % 2 ? a : b }, `invitada-${sent}@example.com`, 'facturacion');
    const refused = await invitePortalUser({ kind: 'owner', user: a }, { email: 'una-mas@example.com', role: 'facturacion' }, { printer: () => {} });
    expect(refused).toEqual({ ok: false, error: { code: 'too_many', message: INVITATION_MESSAGES.tooMany } });
    expect((await teamOf(integration.id)).invitations.map((invitation) => invitation.email)).not.toContain('una-mas@example.com');
    // An administrator can still invite into the integration.
    await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'por-soporte@example.com', 'facturacion');
  });

  it('that the mail server refuses tell the owner only that it failed; staff see the server’s words', async () => {
    const integration = await newIntegration('portal-revision-smtp');
    const owner = await member(integration, 'smtp-duena@example.com');
    // A mail server that refuses everyone, with words an owner has no business reading.
    const refusing = net.createServer((socket) => socket.end('554 5.7.1 relay-interno-7 rechaza por politica\r\n'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const SMTP = { ALERT_SMTP_HOST: '127.0.0.1', ALERT_SMTP_PORT: String((refusing.address() as net.AddressInfo).port), ALERT_EMAIL_FROM: 'avisos@pasarela.example' };
    Object.assign(process.env, SMTP);
    resetEnvCache();
    try {
      const byOwner = await invitePortalUser({ kind: 'owner', user: owner }, { email: 'sin-correo@example.com', role: 'facturacion' });
      expect(byOwner).toEqual({ ok: false, error: { code: 'not_sent', message: INVITATION_MESSAGES.notSentToOwner } });
      const byStaff = await invitePortalUser({ kind: 'staff', actor: CLI, integrationId: integration.id }, { email: 'sin-correo@example.com', role: 'facturacion' });
      expect(byStaff).toMatchObject({ ok: false, error: { code: 'not_sent', message: expect.stringContaining('relay-interno-7') } });
    } finally {
      for (const name of Object.keys(SMTP)) delete process.env[name];
      resetEnvCache();
      await new Promise((resolve) => refusing.close(resolve));
    }
    expect((await teamOf(integration.id)).invitations.map((invitation) => invitation.email)).not.toContain('sin-correo@example.com');
  });
});

describe('administrators and the portal’s people (the console’s Portal section)', () => {
  const ADMIN: Actor = { kind: 'user', id: 9, email: 'admin-portal@servicio.example' };

  it('an administrator removes an owner through the owners’ own change: sessions end, two-factor gone, their invitations revoked, audited as the administrator', async () => {
    const integration = await newIntegration('portal-admin-quita');
    const owner = await member(integration, 'quitada@example.com');
    await (await db()).insert(portalTwoFactor).values({ userId: owner.id, secretCiphertext: 'sellado', confirmedAt: new Date() });
    const sentByOwner = await invite({ kind: 'owner', user: owner }, 'de-quitada@example.com', 'facturacion');

    // The last owner too: an administrator invites the next one from the console.
    expect(await removeMemberAsStaff(ADMIN, integration.id, owner.id)).toMatchObject({ ok: true, value: { email: 'quitada@example.com' } });
    expect(await findPortalSession(owner.sessionId)).toBeUndefined();
    expect(await sessionsOf(owner.id)).toEqual([]);
    expect(await (await db()).select().from(portalTwoFactor).where(eq(portalTwoFactor.userId, owner.id))).toEqual([]);
    expect(await findPortalAccountByEmail('quitada@example.com')).toBeUndefined();
    expect(await invitationForCode(sentByOwner)).toEqual({ state: 'unusable' });
    const audits = await (await db()).select().from(auditLog).where(and(eq(auditLog.actor, 'user:9 admin-portal@servicio.example')));
    expect(audits.map((row) => [row.action, row.targetId])).toEqual(
      expect.arrayContaining([
        ['portal_user.remove', String(owner.id)],
        ['portal.revoke_invitations', String(integration.id)],
      ]),
    );
    expect(audits.find((row) => row.action === 'portal_user.remove')).toMatchObject({ before: { email: 'quitada@example.com', role: 'propietario', sessions: 1 }, after: null });
  });

  it('an administrator names only the integration’s own people: another integration’s member is not removed', async () => {
    const integration = await newIntegration('portal-admin-ajena');
    const other = await newIntegration('portal-admin-otra');
    const elsewhere = await member(other, 'de-otra@example.com', 'desarrollador');
    expect(await removeMemberAsStaff(ADMIN, integration.id, elsewhere.id)).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.staffMemberNotFound } });
    expect(await findPortalSession(elsewhere.sessionId)).toMatchObject({ integrationId: other.id });
  });

  it('an administrator resends a pending or an expired invitation: a new link, the old one revoked, audited as a resend; nothing else is resent', async () => {
    const integration = await newIntegration('portal-admin-reenvia');
    const other = await newIntegration('portal-admin-reenvia-otra');
    const pendingCode = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'pendiente@example.com', 'desarrollador');
    const expiredCode = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'vencida@example.com', 'facturacion');
    const otherCode = await invite({ kind: 'staff', actor: CLI, integrationId: other.id }, 'de-la-otra@example.com', 'facturacion');
    const open = await listOpenInvitations(integration.id);
    const pending = open.find((invitation) => invitation.email === 'pendiente@example.com')!;
    const expired = open.find((invitation) => invitation.email === 'vencida@example.com')!;
    await (await db()).update(portalInvitations).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(portalInvitations.id, expired.id));
    expect((await listOpenInvitations(integration.id)).find((invitation) => invitation.id === expired.id)).toMatchObject({ expired: true });
    expect((await teamOf(integration.id)).invitations.map((invitation) => invitation.email)).toEqual(['pendiente@example.com']);

    for (const [old, oldCode, role] of [[pending, pendingCode, 'desarrollador'], [expired, expiredCode, 'facturacion']] as const) {
      const printed: string[] = [];
      const resent = await resendInvitationAsStaff(ADMIN, integration.id, old.id, { printer: (line) => printed.push(line) });
      expect(resent).toMatchObject({ ok: true, value: { email: old.email, role } });
      expect(await invitationForCode(oldCode)).toEqual({ state: 'unusable' });
      expect(await invitationForCode(codeOf(printed))).toMatchObject({ state: 'valid', email: old.email, role });
      // The replaced one is not open any more: sending it again is refused.
      expect(await resendInvitationAsStaff(ADMIN, integration.id, old.id, { printer: () => {} })).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.staffInvitationNotFound } });
    }
    const otherInvitation = (await listOpenInvitations(other.id))[0]!;
    expect(await resendInvitationAsStaff(ADMIN, integration.id, otherInvitation.id, { printer: () => {} })).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.staffInvitationNotFound } });
    expect(await invitationForCode(otherCode)).toMatchObject({ state: 'valid' });

    const resends = await (await db())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'portal.resend_invitation'), eq(auditLog.targetId, String(integration.id))))
      .orderBy(auditLog.id);
    expect(resends.map((row) => [row.actor, (row.after as { email: string }).email])).toEqual([
      ['user:9 admin-portal@servicio.example', 'pendiente@example.com'],
      ['user:9 admin-portal@servicio.example', 'vencida@example.com'],
    ]);
  });
});
