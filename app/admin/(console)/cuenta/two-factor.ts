import type { TwoFactorPlace } from '@/components/two-factor/enrolment';
import type { TwoFactorActions } from '@/components/two-factor/section';
import { confirmTwoFactorEnrolmentAction, disableTwoFactorAction, regenerateRecoveryCodesAction, startTwoFactorEnrolmentAction } from './two-factor-actions';

// The console's side of components/two-factor: its actions (each checks a console session) and
// its words, for "Mi cuenta" and the enrolment page an administrator is sent to in production.

export const CONSOLE_TWO_FACTOR_ACTIONS: TwoFactorActions = {
  start: startTwoFactorEnrolmentAction,
  confirm: confirmTwoFactorEnrolmentAction,
  regenerate: regenerateRecoveryCodesAction,
  disable: disableTwoFactorAction,
};

export const CONSOLE_PLACE: TwoFactorPlace = { product: 'la consola', account: 'de la consola' };
