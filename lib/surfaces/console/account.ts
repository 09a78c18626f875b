// «Mi cuenta»: the signed-in user's other browsers and their two-factor sign-in, as the page shows them.
import { activeSessionRows, type SessionRow } from '@/lib/flows/auth/session-rows';
import { listActiveSessions } from '@/lib/flows/auth/sessions';
import { sessionMaxAgeSeconds } from '@/lib/flows/auth/session-settings';
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { twoFactorStatus } from '@/lib/flows/two-factor/service';
import type { ConsoleUserSession } from '@/lib/flows/auth/session';

export interface AccountView {
  /** Every browser signed in as this user, this one marked. */
  sessions: SessionRow[];
  twoFactor: { enrolled: boolean; recoveryCodesLeft: number; required: boolean };
  /** How long a session lasts at most (SESSION_MAX_HOURS). */
  sessionHours: number;
}

export async function accountView(user: ConsoleUserSession): Promise<AccountView> {
  const [activeSessions, twoFactor] = await Promise.all([listActiveSessions(user.id), twoFactorStatus(user.id)]);
  return {
    sessions: activeSessionRows(activeSessions, user.sessionPublicId),
    twoFactor: { enrolled: twoFactor.enrolled, recoveryCodesLeft: twoFactor.recoveryCodesLeft, required: twoFactorRequired() },
    sessionHours: sessionMaxAgeSeconds() / 3600,
  };
}
