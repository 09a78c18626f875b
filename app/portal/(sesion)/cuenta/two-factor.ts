import type { TwoFactorPlace } from '@/components/two-factor/enrolment';
import type { TwoFactorActions } from '@/components/two-factor/section';
import { confirmPortalEnrolmentAction, disablePortalTwoFactorAction, regeneratePortalRecoveryCodesAction, startPortalEnrolmentAction } from './two-factor-actions';

// The portal's side of components/two-factor: its actions (each checks a portal session) and its
// words, for "Mi cuenta" and the enrolment page a user who must enrol is sent to.

export const PORTAL_TWO_FACTOR_ACTIONS: TwoFactorActions = {
  start: startPortalEnrolmentAction,
  confirm: confirmPortalEnrolmentAction,
  regenerate: regeneratePortalRecoveryCodesAction,
  disable: disablePortalTwoFactorAction,
};

export const PORTAL_PLACE: TwoFactorPlace = { product: 'el portal', account: 'del portal' };
