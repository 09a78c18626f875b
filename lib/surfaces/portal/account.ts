import { sessionMaxAgeSeconds } from '@/lib/flows/auth/session-settings';
import { activeSessionRows, type SessionRow } from '@/lib/flows/auth/session-rows';
import { MAX_PASSWORD_LENGTH } from '@/lib/flows/auth/users';
import { changePortalPassword } from '@/lib/flows/portal-identity/passwords';
import { portalTwoFactorRequired } from '@/lib/flows/portal-identity/policy';
import { endOwnPortalSession, listPortalSessions } from '@/lib/flows/portal-identity/sessions';
import { portalTwoFactorService } from '@/lib/flows/portal-identity/two-factor';
import { requestAddress, setPortalSessionCookie, type PortalUserSession } from './session';

// "Mi cuenta": the portal user's own account (the password, the two-factor sign-in, the active
// sessions), through lib/flows/portal-identity, always for the session's own user.

/** The longest password a form takes (the console's). */
export const PORTAL_PASSWORD_MAX_LENGTH = MAX_PASSWORD_LENGTH;

export interface PortalAccountView {
  sessions: SessionRow[];
  twoFactor: { enrolled: boolean; recoveryCodesLeft: number };
  /** Whether the user's role must use the second factor (it cannot be turned off). */
  twoFactorRequired: boolean;
  /** How long a session lasts at most (SESSION_MAX_HOURS). */
  sessionHours: number;
}

/** What "Mi cuenta" shows of the session's own user. */
export async function portalAccount(user: PortalUserSession): Promise<PortalAccountView> {
  const [activeSessions, twoFactor] = await Promise.all([listPortalSessions(user.id), portalTwoFactorService.twoFactorStatus(user.id)]);
  return {
    sessions: activeSessionRows(activeSessions, user.sessionPublicId),
    twoFactor: { enrolled: twoFactor.enrolled, recoveryCodesLeft: twoFactor.recoveryCodesLeft },
    twoFactorRequired: portalTwoFactorRequired(user.role),
    sessionHours: sessionMaxAgeSeconds() / 3600,
  };
}

/** Changes the user's own password: every session of the account ends, this one too. */
export async function changeOwnPortalPassword(user: PortalUserSession, currentPassword: string, newPassword: string) {
  return changePortalPassword(user, currentPassword, newPassword, await requestAddress());
}

/** Ends another of the user's own sessions; false when it had already ended. */
export function endOtherPortalSession(user: PortalUserSession, sessionPublicId: string): Promise<boolean> {
  return endOwnPortalSession(user.actor, sessionPublicId);
}

/** Starts an enrolment in two-factor sign-in: its secret and the QR code to scan. */
export function startPortalEnrolment(user: PortalUserSession) {
  return portalTwoFactorService.startEnrolment(user);
}

/** Confirms an enrolment with a code: enrolled, the session is verified and continues as a new one (its cookie set here). */
export async function confirmPortalEnrolment(user: PortalUserSession, code: string) {
  const result = await portalTwoFactorService.confirmEnrolment(user.actor, user.sessionPublicId, code);
  if (result.ok && result.value.sessionId) await setPortalSessionCookie(result.value.sessionId);
  return result;
}

/** New recovery codes for a code of the app; the previous ones stop working. */
export async function regeneratePortalRecoveryCodes(user: PortalUserSession, code: string) {
  return portalTwoFactorService.regenerateRecoveryCodes(user.actor, code, await requestAddress());
}

/** Turns the user's own two-factor sign-in off, with a code (refused where the role requires it). */
export async function disableOwnPortalTwoFactor(user: PortalUserSession, code: string) {
  return portalTwoFactorService.disableOwnTwoFactor(user.actor, user.role, code, await requestAddress());
}
