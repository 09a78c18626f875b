import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/db/client';
import { portalInvitations, portalRecoveryCodes, portalTwoFactor, portalUsers, type PortalRole } from '@/db/schema';
import { writeAudit, type Executor } from '@/lib/audit/audit';
import { fail, ok, type Result } from '@/lib/result';
import { invitePortalUser, listPendingInvitations, type InvitationError, type PendingInvitation, type SentInvitation } from './invitations';
import type { LinkPrinter } from './mail';
import { PORTAL_ROLES } from './roles';
import type { PortalUserSession } from './session';
import { endAllPortalSessions } from './sessions';

// An integration's team ("Equipo" for its owners; the console's "Usuarios del portal" for staff).
// Every change here takes the integration from the owner's session, never from the request: a
// member or invitation id of another integration is answered exactly as one that does not exist.

export interface TeamMember {
  id: number;
  email: string;
  name: string;
  role: PortalRole;
  lastSignInAt: Date | null;
  createdAt: Date;
}

export interface Team {
  members: TeamMember[];
  invitations: PendingInvitation[];
}

/** The members (not removed) and pending invitations of one integration. */
export async function teamOf(integrationId: number): Promise<Team> {
  const [members, invitations] = await Promise.all([
    (await db())
      .select({
        id: portalUsers.id,
        email: portalUsers.email,
        name: portalUsers.name,
        role: portalUsers.role,
        lastSignInAt: portalUsers.lastSignInAt,
        createdAt: portalUsers.createdAt,
      })
      .from(portalUsers)
      .where(and(eq(portalUsers.integrationId, integrationId), isNull(portalUsers.removedAt)))
      .orderBy(asc(portalUsers.email)),
    listPendingInvitations(integrationId),
  ]);
  return { members, invitations };
}

export type TeamError = 'invalid' | 'not_found' | 'last_owner' | 'self' | 'not_owner';

export const TEAM_MESSAGES = {
  memberNotFound: 'Esa persona no está en el equipo de tu integración.',
  invitationNotFound: 'Esa invitación no está pendiente en tu integración.',
  lastOwner: 'Debe quedar al menos un propietario en la integración: nombra propietario a otra persona antes de hacer este cambio.',
  removeSelf: 'No puedes quitarte a ti mismo del equipo: pide a otro propietario que lo haga.',
  role: 'Elige un rol: propietario, desarrollador o facturación.',
  notOwner: 'Ya no eres propietario de esta integración: no puedes cambiar su equipo.',
} as const;

const roleSchema = z.enum(PORTAL_ROLES, { error: TEAM_MESSAGES.role });

/**
 * One change to a member of the owner's integration, in a transaction that first locks the
 * integration's owners, so two owners demoting each other at once cannot leave it without one.
 */
async function changeMember(
  owner: PortalUserSession,
  memberId: number,
  change: (member: typeof portalUsers.$inferSelect, owners: number) => Result<'remove' | PortalRole, TeamError>,
): Promise<Result<TeamMember, TeamError>> {
  return (await db()).transaction(async (tx) => {
    const owners = await tx
      .select({ id: portalUsers.id })
      .from(portalUsers)
      .where(and(eq(portalUsers.integrationId, owner.integrationId), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)))
      .for('update');
    // The session was read before this transaction: another owner may have removed or demoted
    // this one since. With the owners' rows locked, the answer cannot change until this commits.
    if (!owners.some((row) => row.id === owner.id)) return fail('not_owner', TEAM_MESSAGES.notOwner);
    const [member] = await tx
      .select()
      .from(portalUsers)
      .where(and(eq(portalUsers.id, memberId), eq(portalUsers.integrationId, owner.integrationId), isNull(portalUsers.removedAt)))
      .for('update');
    if (!member) return fail('not_found', TEAM_MESSAGES.memberNotFound);
    const decided = change(member, owners.length);
    if (!decided.ok) return decided;
    const losesOwner = member.role === 'propietario' && decided.value !== 'propietario';
    if (losesOwner && owners.length <= 1) return fail('last_owner', TEAM_MESSAGES.lastOwner);
    const before = { email: member.email, role: member.role };
    if (losesOwner) await revokeInvitationsSentBy(tx, owner, member);
    if (decided.value === 'remove') {
      await tx.update(portalUsers).set({ removedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(portalUsers.id, member.id));
      const sessions = await endAllPortalSessions(tx, member.id);
      await tx.delete(portalRecoveryCodes).where(eq(portalRecoveryCodes.userId, member.id));
      await tx.delete(portalTwoFactor).where(eq(portalTwoFactor.userId, member.id));
      await writeAudit(tx, owner.actor, { action: 'portal_user.remove', targetType: 'portal_user', targetId: member.id, before: { ...before, sessions }, after: null });
      return ok(memberView(member));
    }
    const [updated] = await tx.update(portalUsers).set({ role: decided.value, updatedAt: sql`now()` }).where(eq(portalUsers.id, member.id)).returning();
    await writeAudit(tx, owner.actor, { action: 'portal_user.set_role', targetType: 'portal_user', targetId: member.id, before, after: { email: member.email, role: decided.value } });
    return ok(memberView(updated!));
  });
}

/**
 * The pending invitations an owner sent stop working when that owner is removed or stops being
 * one: a link they sent must not outlive their right to send it. In the change's transaction.
 */
async function revokeInvitationsSentBy(tx: Executor, owner: PortalUserSession, sender: typeof portalUsers.$inferSelect): Promise<void> {
  const revoked = await tx
    .update(portalInvitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(portalInvitations.invitedByUserId, sender.id), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)))
    .returning({ email: portalInvitations.email, role: portalInvitations.role });
  if (revoked.length === 0) return;
  await writeAudit(tx, owner.actor, {
    action: 'portal.revoke_invitations',
    targetType: 'integration',
    targetId: owner.integrationId,
    before: { invitedBy: sender.email, invitations: revoked },
    after: null,
  });
}

function memberView(user: typeof portalUsers.$inferSelect): TeamMember {
  return { id: user.id, email: user.email, name: user.name, role: user.role, lastSignInAt: user.lastSignInAt, createdAt: user.createdAt };
}

/** An owner changes a member's role; it applies at the member's next request. */
export function setMemberRole(owner: PortalUserSession, memberId: number, role: unknown): Promise<Result<TeamMember, TeamError>> {
  const parsed = roleSchema.safeParse(role);
  if (!parsed.success) return Promise.resolve(fail('invalid', TEAM_MESSAGES.role));
  return changeMember(owner, memberId, () => ok(parsed.data));
}

/**
 * An owner removes a member: their sessions end at once and they can no longer sign in. The
 * integration's tokens belong to it, not to a person, and keep working.
 */
export function removeMember(owner: PortalUserSession, memberId: number): Promise<Result<TeamMember, TeamError>> {
  return changeMember(owner, memberId, (member) => (member.id === owner.id ? fail('self', TEAM_MESSAGES.removeSelf) : ok('remove')));
}

/** A pending invitation of the owner's integration, or undefined (another integration's is not one). */
async function pendingInvitationOf(owner: PortalUserSession, invitationId: number): Promise<PendingInvitation | undefined> {
  return (await listPendingInvitations(owner.integrationId)).find((invitation) => invitation.id === invitationId);
}

/**
 * An owner cancels a pending invitation: its link stops working. Under the owners' lock, as a
 * member's change: an owner removed or demoted since their session was read cancels nothing.
 */
export async function cancelInvitation(owner: PortalUserSession, invitationId: number): Promise<Result<{ email: string }, TeamError>> {
  return (await db()).transaction(async (tx) => {
    const owners = await tx
      .select({ id: portalUsers.id })
      .from(portalUsers)
      .where(and(eq(portalUsers.integrationId, owner.integrationId), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)))
      .for('update');
    if (!owners.some((row) => row.id === owner.id)) return fail('not_owner', TEAM_MESSAGES.notOwner);
    const [cancelled] = await tx
      .update(portalInvitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(portalInvitations.id, invitationId), eq(portalInvitations.integrationId, owner.integrationId), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)))
      .returning();
    if (!cancelled) return fail('not_found', TEAM_MESSAGES.invitationNotFound);
    await writeAudit(tx, owner.actor, { action: 'portal.cancel_invitation', targetType: 'integration', targetId: owner.integrationId, before: { email: cancelled.email, role: cancelled.role }, after: null });
    return ok({ email: cancelled.email });
  });
}

/** An owner sends a pending invitation again: a new link (the old one stops working), 72 hours from now. */
export async function resendInvitation(
  owner: PortalUserSession,
  invitationId: number,
  delivery: { printer?: LinkPrinter } = {},
): Promise<Result<SentInvitation, TeamError | InvitationError>> {
  const pending = await pendingInvitationOf(owner, invitationId);
  if (!pending) return fail('not_found', TEAM_MESSAGES.invitationNotFound);
  return invitePortalUser({ kind: 'owner', user: owner }, { email: pending.email, role: pending.role }, delivery);
}
