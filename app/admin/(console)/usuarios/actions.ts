'use server';

// The entry points of «Usuarios»'s changes: lib/surfaces/console/user-actions.ts.
import * as users from '@/lib/surfaces/console/user-actions';

export const createUserAction = users.createUserAction;
export const setUserRoleAction = users.setUserRoleAction;
export const setUserActiveAction = users.setUserActiveAction;
export const resetUserPasswordAction = users.resetUserPasswordAction;
export const endUserSessionsAction = users.endUserSessionsAction;
export const resetUserTwoFactorAction = users.resetUserTwoFactorAction;
export const allowIdentityProviderLinkAction = users.allowIdentityProviderLinkAction;
