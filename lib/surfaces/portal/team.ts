import { invitePortalUser, type SentInvitation } from '@/lib/flows/portal-identity/invitations';
import { passMemberToProvider } from '@/lib/flows/portal-identity/sso';
import { cancelInvitation, removeMember, resendInvitation, setMemberRole, teamOf, type Team } from '@/lib/flows/portal-identity/team';
import type { PortalUserSession } from './session';

// "Equipo": the people of the owner's integration and its pending invitations, and the owner's
// changes to them (lib/flows/portal-identity), always in the session's integration: a member or
// invitation id of another integration is answered as one that does not exist.

export type { SentInvitation };

/** The members (not removed) and pending invitations of the session's integration. */
export function portalTeam(user: PortalUserSession): Promise<Team> {
  return teamOf(user.integrationId);
}

/** The owner invites a person to the session's integration, with a role. */
export function invitePortalMember(owner: PortalUserSession, input: { email: string; role: string }) {
  return invitePortalUser({ kind: 'owner', user: owner }, input);
}

export function setPortalMemberRole(owner: PortalUserSession, memberId: number, role: string) {
  return setMemberRole(owner, memberId, role);
}

/** Removes a member: their sessions end; the integration's tokens keep working. */
export function removePortalMember(owner: PortalUserSession, memberId: number) {
  return removeMember(owner, memberId);
}

export function cancelPortalInvitation(owner: PortalUserSession, invitationId: number) {
  return cancelInvitation(owner, invitationId);
}

/** Sends a pending invitation again: a new link, and the old one stops working. */
export function resendPortalInvitation(owner: PortalUserSession, invitationId: number) {
  return resendInvitation(owner, invitationId);
}

/** An owner passes a password member to the company's provider (lib/flows/portal-identity/sso.ts). */
export function passPortalMemberToProvider(owner: PortalUserSession, memberId: number) {
  return passMemberToProvider(owner, memberId);
}
