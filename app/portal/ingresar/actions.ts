'use server';

import { redirect } from 'next/navigation';
import { RETURN_PATH_PARAM } from '@/lib/surfaces/portal/return-path-param';
import { signInToPortalWithPassword } from '@/lib/surfaces/portal/sign-in';

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
  const result = await signInToPortalWithPassword(email, password, form.get(RETURN_PATH_PARAM));
  if (!result.ok) return { error: result.error, email };
  redirect(result.landingPath);
}
