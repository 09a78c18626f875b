import { ACCESS_AUDIT, auditSignInRefusal } from '@/lib/flows/auth/access-audit';
import { checkPasswordSignIn, type HeaderReader, type SignInRealm } from '@/lib/flows/auth/credentials';
import type { SignInRefusal } from '@/lib/flows/auth/sign-in-errors';
import { env } from '@/lib/platform/settings/env';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { consumeSignInLimit } from '@/lib/core/limits/limits';
import { logger } from '@/lib/platform/logging/logger';
import { findPortalAccountByEmail, integratorActor, type PortalAccount } from './accounts';
import { findPortalSession, portalPendingStep, signInPortalSession, type PortalPendingStep } from './sessions';
import { providerOfIntegration } from './sso';

const PORTAL_SIGN_IN: SignInRealm<PortalAccount> = {
  realm: 'portal',
  findAccount: findPortalAccountByEmail,
  // A removed member is not found at all; every member found may sign in.
  maySignIn: () => true,
  audit: ACCESS_AUDIT.portal,
};

export type PortalSignIn = { ok: true; sessionId: string; account: PortalAccount; pendingStep: PortalPendingStep | null } | { ok: false; refusal: SignInRefusal };

/**
 * A portal sign-in by e-mail and password, as strong as the console's: the per-IP limit on
 * sign-in requests (RATE_LIMIT_SIGN_IN_PER_MINUTE), then lib/flows/auth's check with the portal's own
 * throttle counts, known-device cookie and audit rows, then a session recorded with its sign-in.
 */
export async function signInToPortal(email: string, password: string, header: HeaderReader): Promise<PortalSignIn> {
  if (!(await consumeSignInLimit(requestClientIp(header, env())))) return { ok: false, refusal: { kind: 'rate_limited' } };
  const checked = await checkPasswordSignIn(PORTAL_SIGN_IN, email, password, header);
  if (!checked.ok) return checked;
  // Once the company signs in through its own provider, a password opens only its break-glass members' accounts
  // (said only to whoever knows the password).
  const provider = await providerOfIntegration(checked.account.integrationId);
  if (provider && !provider.breakGlassEmails.map((address) => address.toLowerCase()).includes(checked.account.email.toLowerCase())) {
    await auditSignInRefusal(checked.account.id, { failed: true, lockedNow: [] }, ACCESS_AUDIT.portal);
    return { ok: false, refusal: { kind: 'use_identity_provider' } };
  }
  try {
    const sessionId = await signInPortalSession(integratorActor(checked.account), checked.origin, checked.account.passwordHash);
    // The password checked was replaced (or the member removed) before the session was recorded:
    // that password no longer signs in, and the answer is the one for a wrong password.
    if (sessionId === undefined) return { ok: false, refusal: { kind: 'invalid_credentials' } };
    const session = await findPortalSession(sessionId);
    if (!session) throw new Error('the portal session just started was not found');
    return { ok: true, sessionId, account: checked.account, pendingStep: portalPendingStep(session) };
  } catch (error) {
    logger('portal').error({ err: error }, 'could not record the portal session');
    return { ok: false, refusal: { kind: 'unavailable' } };
  }
}
