// The sign-in page's words: what a refusal says (the form shows them inline, the page when
// next-auth sends one back in the address). Nothing here reaches the server: the form is a client
// component.
import { SIGN_IN_ERROR_PARAM, signInErrorMessage } from '@/lib/flows/auth/sign-in-errors';

/** A refusal's code as its sentence (only our own codes have one; anything else is null). */
export function signInRefusalText(code: string | null | undefined): string | null {
  return signInErrorMessage(code);
}

/** The refusal next-auth put in the sign-in page's address, as its sentence. */
export function signInRefusalOf(params: Record<string, string | string[] | undefined>): string | null {
  const errorParam = params[SIGN_IN_ERROR_PARAM];
  return signInErrorMessage(typeof errorParam === 'string' ? errorParam : null);
}
