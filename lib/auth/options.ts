import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { ConsoleRole } from '@/db/schema';
import { env } from '@/lib/env';
import { authenticateConsoleUser } from './credentials';
import { nextAuthSecret } from './secret';

/** A console session lasts one working day; role and status are re-checked on every request. */
const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

declare module 'next-auth' {
  interface Session {
    user: { id: number; email: string; name: string; role: ConsoleRole; sessionVersion: number };
  }
  interface User {
    role: ConsoleRole;
    sessionVersion: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    userId?: number;
    role?: ConsoleRole;
    /** passwordChangedAt when the session started: a password change or reset ends the session. */
    sessionVersion?: number;
  }
}

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
    useSecureCookies: (env().NEXTAUTH_URL ?? '').startsWith('https://'),
    pages: { signIn: '/admin/login', error: '/admin/login' },
    providers: [
      CredentialsProvider({
        name: 'Correo y contraseña',
        credentials: { email: { label: 'Correo', type: 'email' }, password: { label: 'Contraseña', type: 'password' } },
        async authorize(credentials, request) {
          const user = await authenticateConsoleUser(credentials?.email ?? '', credentials?.password ?? '', request.headers ?? {});
          return {
            id: String(user.id),
            email: user.email,
            name: user.name,
            role: user.role,
            sessionVersion: user.passwordChangedAt.getTime(),
          };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.userId = Number(user.id);
          token.role = user.role;
          token.sessionVersion = user.sessionVersion;
        }
        return token;
      },
      session({ session, token }) {
        session.user = {
          id: token.userId ?? 0,
          email: token.email ?? '',
          name: token.name ?? '',
          role: token.role ?? 'support',
          sessionVersion: token.sessionVersion ?? 0,
        };
        return session;
      },
    },
  };
  return cached;
}
