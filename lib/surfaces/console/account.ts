// «Mi cuenta»: the signed-in user's other browsers and their two-factor sign-in, as the page shows them.
import { activeSessionRows, type SessionRow } from '@/lib/flows/auth/session-rows';
import { listActiveSessions } from '@/lib/flows/auth/sessions';
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { twoFactorStatus } from '@/lib/flows/two-factor/service';
import type { ConsoleUserSession } from '@/lib/flows/auth/session';

export interface AccountView {
  /** Every browser signed in as this user, this one marked. */
  sessions: SessionRow[];
  twoFactor: { enrolled: boolean; recoveryCodesLeft: number; required: boolean };
}

export async function accountView(user: ConsoleUserSession): Promise<AccountView> {
  const [activeSessions, twoFactor] = await Promise.all([listActiveSessions(user.id), twoFactorStatus(user.id)]);
  return {
    sessions: activeSessionRows(activeSessions, user.sessionPublicId),
    twoFactor: { enrolled: twoFactor.enrolled, recoveryCodesLeft: twoFactor.recoveryCodesLeft, required: twoFactorRequired() },
  };
}
