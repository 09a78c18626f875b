import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { ConsoleRole } from '@/db/schema';
import { logger } from '@/lib/platform/logging/logger';
import { sessionCookiesAreSecure } from './cookie-security';
import { authenticateConsoleUser, SignInRefused } from './credentials';
import { nextAuthSecret } from './secret';
import { endConsoleSession, SESSION_MAX_AGE_SECONDS, startConsoleSession, type SessionOrigin } from './sessions';

declare module 'next-auth' {
  interface User {
    role: ConsoleRole;
    sessionVersion: number;
    /** Where the sign-in came from, recorded with the session ("Sesiones activas"). */
    origin: SessionOrigin;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    userId?: number;
    /** Names the session's row (lib/flows/auth/sessions.ts): signing out deletes it. */
    sessionId?: string;
    /** passwordChangedAt when the session started: a password change or reset ends the session. */
    sessionVersion?: number;
  }
}

const log = logger('auth');

let cached: AuthOptions | undefined;

/**
 * next-auth's settings, built on first use rather than at import: the secret may have to be read
 * from (or written to) .data/, which `next build` must never do.
 */
export function authOptions(): AuthOptions {
  cached ??= {
    secret: nextAuthSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    // next-auth would pick secure cookies from NEXTAUTH_URL too; saying it keeps it visible.
    useSecureCookies: sessionCookiesAreSecure(),
    pages: { signIn: '/admin/login', error: '/admin/login' },
    // next-auth's own complaints go through our logger (redacted, one format).
    logger: {
      // metadata is an Error or an object holding one; only the error goes, through the safe serializer.
      error: (code, metadata) => log.error({ code, err: metadata instanceof Error ? metadata : (metadata as { error?: unknown })?.error }, 'next-auth error'),
      warn: (code) => log.warn({ code }, 'next-auth warning'),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        name: 'Correo y contraseña',
        credentials: { email: { label: 'Correo', type: 'email' }, password: { label: 'Contraseña', type: 'password' } },
        async authorize(credentials, request) {
          const { user, origin } = await authenticateConsoleUser(credentials?.email ?? '', credentials?.password ?? '', request.headers ?? {});
          return { id: String(user.id), email: user.email, name: user.name, role: user.role, sessionVersion: user.passwordChangedAt.getTime(), origin };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.userId = Number(user.id);
          token.sessionVersion = user.sessionVersion;
          // next-auth would put this error's message in the sign-in page's URL: only a code goes.
          try {
            token.sessionId = await startConsoleSession({ id: Number(user.id), email: user.email ?? '' }, user.origin);
          } catch (error) {
            log.error({ err: error }, 'could not record the console session');
            throw new SignInRefused({ kind: 'unavailable' });
          }
        }
        return token;
      },
      // The browser sees only who is signed in; the role and the session id stay on the server.
      session({ session, token }) {
        session.user = { email: token.email ?? '', name: token.name ?? '' };
        return session;
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.sessionId) await endConsoleSession(token.sessionId);
      },
    },
  };
  return cached;
}
