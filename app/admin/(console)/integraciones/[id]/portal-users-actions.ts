'use server';

// The entry points of an integration's portal users (invitations, members): lib/surfaces/console/portal-user-actions.ts.
import * as portalUsers from '@/lib/surfaces/console/portal-user-actions';

export const invitePortalUserAction = portalUsers.invitePortalUserAction;
export const removePortalUserAction = portalUsers.removePortalUserAction;
export const resendPortalUserInvitationAction = portalUsers.resendPortalUserInvitationAction;
export const cancelPortalUserInvitationAction = portalUsers.cancelPortalUserInvitationAction;
