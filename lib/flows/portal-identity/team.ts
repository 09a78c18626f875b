import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/db/client';
import { portalInvitations, portalRecoveryCodes, portalTwoFactor, portalUsers, type PortalRole, type ConsoleUserOrigin } from '@/db/schema';
import { writeAudit, type Actor, type Executor } from '@/lib/core/audit/audit';
import { fail, ok, type Result } from '@/lib/platform/result';
import { invitePortalUser, listPendingInvitations, type InvitationError, type PendingInvitation, type SentInvitation } from './invitations';
import type { LinkPrinter } from './mail';
import { PORTAL_ROLES } from './roles';
import type { PortalUserSession } from './sessions';
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
  /** local: a password of ours; identity_provider: the company's provider (docs/sso.md). */
  origin: ConsoleUserOrigin;
}

export interface Team {
  members: TeamMember[];
  invitations: PendingInvitation[];
}

/** The members (not removed) of one integration, by e-mail. */
export async function membersOf(integrationId: number): Promise<TeamMember[]> {
  return (await db())
    .select({
      id: portalUsers.id,
      email: portalUsers.email,
      name: portalUsers.name,
      role: portalUsers.role,
      lastSignInAt: portalUsers.lastSignInAt,
      createdAt: portalUsers.createdAt,
      origin: portalUsers.origin,
    })
    .from(portalUsers)
    .where(and(eq(portalUsers.integrationId, integrationId), isNull(portalUsers.removedAt)))
    .orderBy(asc(portalUsers.email));
}

/** The members (not removed) and pending invitations of one integration. */
export async function teamOf(integrationId: number): Promise<Team> {
  const [members, invitations] = await Promise.all([membersOf(integrationId), listPendingInvitations(integrationId)]);
  return { members, invitations };
}

export type TeamError = 'invalid' | 'not_found' | 'last_owner' | 'self' | 'not_owner' | 'accepted';

export const TEAM_MESSAGES = {
  memberNotFound: 'Esa persona no está en el equipo de su integración.',
  invitationNotFound: 'Esa invitación no está pendiente en su integración.',
  lastOwner: 'Debe quedar al menos un propietario en la integración: nombra propietario a otra persona antes de hacer este cambio.',
  removeSelf: 'No puede quitarse a sí mismo del equipo: pida a otro propietario que lo haga.',
  role: 'Elija un rol: propietario, desarrollador o facturación.',
  notOwner: 'Ya no es propietario de esta integración: no puede cambiar su equipo.',
  // What an administrator reads in the console: the person may have been removed by an owner meanwhile.
  staffMemberNotFound: 'Esa persona ya no está en el portal de esta integración: quizá otra persona la quitó. Vuelva a cargar la página.',
  staffInvitationNotFound: 'Esa invitación ya no se puede reenviar: se aceptó, se canceló o se reemplazó por otra. Vuelva a cargar la página.',
  // Cancelling lost the race with the person accepting it: they are a member now.
  invitationAccepted: 'Esa invitación ya se aceptó: la persona ya es parte del equipo. Si no debe entrar, quítela de la lista de personas.',
  staffCancelNotFound: 'Esa invitación ya no está pendiente: se reemplazó por otra o venció sin usarse. Vuelva a cargar la página.',
} as const;

const roleSchema = z.enum(PORTAL_ROLES, { error: TEAM_MESSAGES.role });

/**
 * Who changes a team: an owner of the integration, from the portal (rechecked under the lock: the
 * session may be stale), or the service's staff from the console, naming the integration.
 */
export type TeamChanger = { kind: 'owner'; user: PortalUserSession } | { kind: 'staff'; actor: Actor; integrationId: number };

function changerScope(changer: TeamChanger): { actor: Actor; integrationId: number } {
  return changer.kind === 'owner' ? { actor: changer.user.actor, integrationId: changer.user.integrationId } : changer;
}

/**
 * Locks the integration's owners' rows for the rest of the transaction and, for an owner's change,
 * checks the owner still is one: the session was read before this transaction, and another owner
 * may have removed or demoted them since. With the rows locked, the answer cannot change until
 * this commits. Returns the owners' ids, or null when the acting owner no longer is one.
 */
async function lockOwners(tx: Executor, changer: TeamChanger): Promise<number[] | null> {
  const owners = await tx
    .select({ id: portalUsers.id })
    .from(portalUsers)
    .where(and(eq(portalUsers.integrationId, changerScope(changer).integrationId), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)))
    .for('update');
  const ids = owners.map((row) => row.id);
  if (changer.kind === 'owner' && !ids.includes(changer.user.id)) return null;
  return ids;
}

/**
 * One change to a member of the changer's integration, in a transaction that first locks the
 * integration's owners, so two owners demoting each other at once cannot leave it without one.
 */
async function changeMember(
  changer: TeamChanger,
  memberId: number,
  change: (member: typeof portalUsers.$inferSelect) => Result<'remove' | PortalRole, TeamError>,
): Promise<Result<TeamMember, TeamError>> {
  const { actor, integrationId } = changerScope(changer);
  return (await db()).transaction(async (tx) => {
    const owners = await lockOwners(tx, changer);
    if (!owners) return fail('not_owner', TEAM_MESSAGES.notOwner);
    const [member] = await tx
      .select()
      .from(portalUsers)
      .where(and(eq(portalUsers.id, memberId), eq(portalUsers.integrationId, integrationId), isNull(portalUsers.removedAt)))
      .for('update');
    if (!member) return fail('not_found', changer.kind === 'owner' ? TEAM_MESSAGES.memberNotFound : TEAM_MESSAGES.staffMemberNotFound);
    const decided = change(member);
    if (!decided.ok) return decided;
    const losesOwner = member.role === 'propietario' && decided.value !== 'propietario';
    // Owners must leave one of them in charge. Staff may remove the last one (a person who left
    // the integrator's company) and invite the next owner from the console.
    if (losesOwner && owners.length <= 1 && changer.kind === 'owner') return fail('last_owner', TEAM_MESSAGES.lastOwner);
    const before = { email: member.email, role: member.role };
    if (losesOwner) await revokeInvitationsSentBy(tx, actor, integrationId, member);
    if (decided.value === 'remove') {
      await tx.update(portalUsers).set({ removedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(portalUsers.id, member.id));
      const sessions = await endAllPortalSessions(tx, member.id);
      await tx.delete(portalRecoveryCodes).where(eq(portalRecoveryCodes.userId, member.id));
      await tx.delete(portalTwoFactor).where(eq(portalTwoFactor.userId, member.id));
      await writeAudit(tx, actor, { action: 'portal_user.remove', targetType: 'portal_user', targetId: member.id, before: { ...before, sessions }, after: null });
      return ok(memberView(member));
    }
    const [updated] = await tx.update(portalUsers).set({ role: decided.value, updatedAt: sql`now()` }).where(eq(portalUsers.id, member.id)).returning();
    await writeAudit(tx, actor, { action: 'portal_user.set_role', targetType: 'portal_user', targetId: member.id, before, after: { email: member.email, role: decided.value } });
    return ok(memberView(updated!));
  });
}

/**
 * The pending invitations an owner sent stop working when that owner is removed or stops being
 * one: a link they sent must not outlive their right to send it. In the change's transaction.
 */
async function revokeInvitationsSentBy(tx: Executor, actor: Actor, integrationId: number, sender: typeof portalUsers.$inferSelect): Promise<void> {
  const revoked = await tx
    .update(portalInvitations)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(portalInvitations.invitedByUserId, sender.id), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)))
    .returning({ email: portalInvitations.email, role: portalInvitations.role });
  if (revoked.length === 0) return;
  await writeAudit(tx, actor, {
    action: 'portal.revoke_invitations',
    targetType: 'integration',
    targetId: integrationId,
    before: { invitedBy: sender.email, invitations: revoked },
    after: null,
  });
}

function memberView(user: typeof portalUsers.$inferSelect): TeamMember {
  return { id: user.id, email: user.email, name: user.name, role: user.role, lastSignInAt: user.lastSignInAt, createdAt: user.createdAt, origin: user.origin };
}

/** An owner changes a member's role; it applies at the member's next request. */
export function setMemberRole(owner: PortalUserSession, memberId: number, role: unknown): Promise<Result<TeamMember, TeamError>> {
  const parsed = roleSchema.safeParse(role);
  if (!parsed.success) return Promise.resolve(fail('invalid', TEAM_MESSAGES.role));
  return changeMember({ kind: 'owner', user: owner }, memberId, () => ok(parsed.data));
}

/**
 * An owner removes a member: their sessions end at once and they can no longer sign in. The
 * integration's tokens belong to it, not to a person, and keep working.
 */
export function removeMember(owner: PortalUserSession, memberId: number): Promise<Result<TeamMember, TeamError>> {
  return changeMember({ kind: 'owner', user: owner }, memberId, (member) => (member.id === owner.id ? fail('self', TEAM_MESSAGES.removeSelf) : ok('remove')));
}

/**
 * An administrator removes a person from an integration's portal (the console's "Usuarios del
 * portal"), through the same change as an owner's removal: sessions ended at once, second factor
 * and recovery codes deleted, an owner's pending invitations revoked, audited with the
 * administrator as actor. The integration's tokens keep working.
 */
export function removeMemberAsStaff(actor: Actor, integrationId: number, memberId: number): Promise<Result<TeamMember, TeamError>> {
  return changeMember({ kind: 'staff', actor, integrationId }, memberId, () => ok('remove'));
}

/** A pending invitation of the owner's integration, or undefined (another integration's is not one). */
async function pendingInvitationOf(owner: PortalUserSession, invitationId: number): Promise<PendingInvitation | undefined> {
  return (await listPendingInvitations(owner.integrationId)).find((invitation) => invitation.id === invitationId);
}

/** A cancelled invitation; `already`: it was cancelled before this request (nothing changed, nothing audited). */
export interface CancelledInvitation {
  email: string;
  already: boolean;
}

/**
 * An owner cancels a pending invitation: its link stops working at once, and its page says it was
 * cancelled. Under the owners' lock, as a member's change: an owner removed or demoted since their
 * session was read cancels nothing.
 */
export async function cancelInvitation(owner: PortalUserSession, invitationId: number): Promise<Result<CancelledInvitation, TeamError>> {
  return cancelOpenInvitation({ kind: 'owner', user: owner }, invitationId);
}

/** An administrator cancels an integration's invitation (the console's "Usuarios del portal"), as an owner does. */
export function cancelInvitationAsStaff(actor: Actor, integrationId: number, invitationId: number): Promise<Result<CancelledInvitation, TeamError>> {
  return cancelOpenInvitation({ kind: 'staff', actor, integrationId }, invitationId);
}

/**
 * The cancellation: a conditional update of an invitation neither accepted nor revoked, so it and
 * an acceptance at the same moment end one way (acceptInvitation's update asks the same). Asked
 * again (a double click, two tabs), it answers the first cancellation without another audit row;
 * an invitation accepted first is answered so.
 */
async function cancelOpenInvitation(changer: TeamChanger, invitationId: number): Promise<Result<CancelledInvitation, TeamError>> {
  const { actor, integrationId } = changerScope(changer);
  const notFound = changer.kind === 'owner' ? TEAM_MESSAGES.invitationNotFound : TEAM_MESSAGES.staffCancelNotFound;
  return (await db()).transaction(async (tx) => {
    if (!(await lockOwners(tx, changer))) return fail('not_owner', TEAM_MESSAGES.notOwner);
    const [cancelled] = await tx
      .update(portalInvitations)
      .set({ revokedAt: sql`now()`, cancelledAt: sql`now()` })
      .where(and(eq(portalInvitations.id, invitationId), eq(portalInvitations.integrationId, integrationId), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)))
      .returning();
    if (cancelled) {
      await writeAudit(tx, actor, { action: 'portal.cancel_invitation', targetType: 'integration', targetId: integrationId, before: { email: cancelled.email, role: cancelled.role }, after: null });
      return ok({ email: cancelled.email, already: false });
    }
    const [found] = await tx
      .select({ email: portalInvitations.email, acceptedAt: portalInvitations.acceptedAt, cancelledAt: portalInvitations.cancelledAt })
      .from(portalInvitations)
      .where(and(eq(portalInvitations.id, invitationId), eq(portalInvitations.integrationId, integrationId)));
    if (found?.cancelledAt) return ok({ email: found.email, already: true });
    if (found?.acceptedAt) return fail('accepted', TEAM_MESSAGES.invitationAccepted);
    return fail('not_found', notFound);
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
  return invitePortalUser({ kind: 'owner', user: owner }, { email: pending.email, role: pending.role }, { ...delivery, replacing: { id: pending.id, missing: TEAM_MESSAGES.invitationNotFound } });
}

/**
 * An administrator sends an integration's invitation again, pending or expired: a new single-use
 * link, 72 hours from now, through the same invitation as every other (the mail, the audit as
 * "Reenvió una invitación"); the old link is revoked in the same transaction.
 */
export async function resendInvitationAsStaff(
  actor: Actor,
  integrationId: number,
  invitationId: number,
  delivery: { printer?: LinkPrinter; inviterName?: string } = {},
): Promise<Result<SentInvitation, TeamError | InvitationError>> {
  const [open] = await (await db())
    .select({ id: portalInvitations.id, email: portalInvitations.email, role: portalInvitations.role })
    .from(portalInvitations)
    .where(and(eq(portalInvitations.id, invitationId), eq(portalInvitations.integrationId, integrationId), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)));
  if (!open) return fail('not_found', TEAM_MESSAGES.staffInvitationNotFound);
  return invitePortalUser({ kind: 'staff', actor, integrationId }, { email: open.email, role: open.role }, { ...delivery, replacing: { id: open.id, missing: TEAM_MESSAGES.staffInvitationNotFound } });
}
