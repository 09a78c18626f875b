// An integration's portal users as its «Portal» section shows them: its people with their roles,
// its invitations not yet accepted, whether the portal's mail can send them, and the words of the
// roles and the invitations' terms.
import { EXPIRED_INVITATIONS_LISTED_DAYS, listOpenInvitations } from '@/lib/flows/portal-identity/invitations';
import { INVITATION_VALID_HOURS } from '@/lib/flows/portal-identity/links';
import { portalMailAvailable } from '@/lib/flows/portal-identity/mail';
import { PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/flows/portal-identity/roles';
import { membersOf } from '@/lib/flows/portal-identity/team';

/** How long an invitation's link works, and how long an expired one stays listed. */
export const INVITATION_TERMS = { validHours: INVITATION_VALID_HOURS, expiredListedDays: EXPIRED_INVITATIONS_LISTED_DAYS };

/** The portal's roles in their order, with their labels. */
export { PORTAL_ROLE_LABELS, PORTAL_ROLES };

export async function portalUsersView(integrationId: number) {
  const [members, invitations] = await Promise.all([membersOf(integrationId), listOpenInvitations(integrationId)]);
  return {
    members,
    invitations,
    owners: members.filter((member) => member.role === 'propietario').length,
    mail: portalMailAvailable(),
  };
}
