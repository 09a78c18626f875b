import { headers } from 'next/headers';
import { consumeSignInLimit } from '@/lib/core/limits/limits';
import { acceptanceSchema, acceptInvitation, invitationForCode, unusableLinkMessage, type InvitationLinkState } from '@/lib/flows/portal-identity/invitations';
import { LINK_CODE_PARAM } from '@/lib/flows/portal-identity/links';
import { completePortalPasswordReset, PASSWORD_MESSAGES, passwordResetForCode, requestPortalPasswordReset } from '@/lib/flows/portal-identity/passwords';
import { portalTwoFactorRequired } from '@/lib/flows/portal-identity/policy';
import { ok, type Result } from '@/lib/platform/result';
import { PORTAL_PENDING_STEP_PATHS, requestAddress, setPortalSessionCookie } from './session';

// The pages an e-mailed link opens before anyone is signed in (an invitation, a password reset) and
// what their forms post, through lib/flows/portal-identity. Opening a page uses nothing (a mail
// scanner that fetches the link spends nothing); the form posts the code, once.

type SearchParams = Record<string, string | string[] | undefined>;

/** An invitation link's page: who is invited where, or why the link no longer opens. */
export type PortalInvitationLink =
  | (Extract<InvitationLinkState, { state: 'valid' }> & { code: string })
  | { state: Exclude<InvitationLinkState['state'], 'valid'>; message: string };

export async function portalInvitationLink(params: SearchParams): Promise<PortalInvitationLink> {
  const code = params[LINK_CODE_PARAM];
  const invitation = await invitationForCode(code);
  if (invitation.state !== 'valid') return { state: invitation.state, message: unusableLinkMessage(invitation.state) };
  // A valid link's code is a string (invitationForCode read it as one).
  return { ...invitation, code: code as string };
}

/** The invitation form's fields (the name, the chosen password twice), checked before anything is used. */
export function parseInvitationAcceptance(input: { nombre: unknown; clave: unknown; repetida: unknown }) {
  return acceptanceSchema.safeParse(input);
}

/**
 * Accepts an invitation and signs the person in (its cookie set here): where to go next, its
 * enrolment when the role requires a second factor, else Inicio's welcome.
 */
export async function acceptPortalInvitation(code: unknown, input: { nombre: string; clave: string }): Promise<Result<{ landingPath: string }, 'invalid' | 'link' | 'email_taken'>> {
  const requestHeaders = await headers();
  const accepted = await acceptInvitation(code, input, { clientIp: await requestAddress(), userAgent: requestHeaders.get('user-agent') ?? '' });
  if (!accepted.ok) return accepted;
  await setPortalSessionCookie(accepted.value.sessionId);
  return ok({ landingPath: portalTwoFactorRequired(accepted.value.role) ? PORTAL_PENDING_STEP_PATHS.two_factor_enrolment : '/portal?bienvenida=1' });
}

/** A reset link's page: the account it sets a password for, or why the link no longer opens. */
export type PortalPasswordResetLink = { state: 'valid'; email: string; code: string } | { state: 'expired' | 'unusable'; message: string };

export async function portalPasswordResetLink(params: SearchParams): Promise<PortalPasswordResetLink> {
  const code = params[LINK_CODE_PARAM];
  const reset = await passwordResetForCode(code);
  if (reset.state !== 'valid') return { state: reset.state, message: reset.state === 'expired' ? PASSWORD_MESSAGES.linkExpired : PASSWORD_MESSAGES.linkUnusable };
  return { state: 'valid', email: reset.email, code: code as string };
}

/** Spends one from this address's per-IP sign-in limit, as a sign-in does; false when it is spent. */
export async function portalSignInLimitAllows(): Promise<boolean> {
  return consumeSignInLimit(await requestAddress());
}

/** "¿Olvidó su contraseña?": looks the address up and e-mails a link when it has an account (the same for any address). */
export function sendPortalPasswordReset(email: FormDataEntryValue | null): Promise<void> {
  return requestPortalPasswordReset(email);
}

/** A new password through a reset link's code: every session of the account ends. */
export function completePortalPasswordResetWithLink(code: unknown, newPassword: string) {
  return completePortalPasswordReset(code, newPassword);
}
