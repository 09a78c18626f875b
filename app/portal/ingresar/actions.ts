'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { RETURN_PATH_PARAM } from '@/lib/flows/auth/return-path';
import { signInRefusalMessage } from '@/lib/flows/auth/sign-in-errors';
import { signInToPortal } from '@/lib/flows/portal-identity/sign-in';
import { portalLandingPath, rememberPortalDevice, setPortalSessionCookie } from '@/lib/surfaces/portal/session';

export interface SignInState {
  error: string | null;
  email: string;
}

// POST /portal/ingresar - the portal's sign-in (e-mail and password), as a form: it works before
// the page's scripts load. Refusals are the console's (lib/flows/auth/sign-in-errors.ts), throttled in
// the portal's own counts; a success sets the portal's session cookie and the known-device cookie,
// then opens the second factor's page, a required enrolment, or Inicio.
export async function portalSignInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  const requestHeaders = await headers();
  const result = await signInToPortal(email, password, (name) => requestHeaders.get(name));
  if (!result.ok) return { error: signInRefusalMessage(result.refusal), email };
  await setPortalSessionCookie(result.sessionId);
  await rememberPortalDevice(result.account.email);
  // What the new session still owes (a code, an enrolment) decides where it lands; then the page
  // asked for, which portalLandingPath takes only when it is a portal page of this site.
  const requested = form.get(RETURN_PATH_PARAM);
  redirect(portalLandingPath(result.pendingStep, typeof requested === 'string' ? requested : null));
}
