'use server';

// The entry points of the user's own two-factor sign-in: lib/surfaces/console/two-factor-actions.ts.
import * as twoFactor from '@/lib/surfaces/console/two-factor-actions';

export const startTwoFactorEnrolmentAction = twoFactor.startTwoFactorEnrolmentAction;
export const confirmTwoFactorEnrolmentAction = twoFactor.confirmTwoFactorEnrolmentAction;
export const regenerateRecoveryCodesAction = twoFactor.regenerateRecoveryCodesAction;
export const disableTwoFactorAction = twoFactor.disableTwoFactorAction;
