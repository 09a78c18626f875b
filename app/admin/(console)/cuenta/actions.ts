'use server';

// The entry points of «Mi cuenta»'s changes (its password, its other sessions): lib/surfaces/console/account-actions.ts.
import * as account from '@/lib/surfaces/console/account-actions';

export const changePasswordAction = account.changePasswordAction;
export const endOwnSessionAction = account.endOwnSessionAction;
