// GET, POST /api/auth/* - next-auth: console sign-in (credentials, and the identity provider when
// configured: docs/sso.md), sign-out, session, CSRF token.
import NextAuth from 'next-auth';
import { answeringAuthRequest } from '@/lib/flows/auth/auth-request';
import { rememberingKnownDevice } from '@/lib/flows/auth/known-device';
import { authOptions } from '@/lib/flows/auth/options';

export const dynamic = 'force-dynamic';

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options are resolved per request, not at import, so `next build` never reads the secret.
// A password sign-in that starts a session also marks its browser as a known device of the
// account (lib/flows/auth/known-device.ts), exempt from the account's pace under a guessing attack.
async function handler(request: Request, context: RouteContext) {
  return answeringAuthRequest(request, () => rememberingKnownDevice(request, (forwarded) => NextAuth(forwarded as never, context as never, authOptions()) as Promise<Response>));
}

export { handler as GET, handler as POST };
