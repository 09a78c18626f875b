// GET, POST /api/auth/* - next-auth: console sign-in (credentials), sign-out, session, CSRF token.
import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/options';

export const dynamic = 'force-dynamic';

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options are resolved per request, not at import, so `next build` never reads the secret.
async function handler(request: Request, context: RouteContext) {
  return NextAuth(request as never, context as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
