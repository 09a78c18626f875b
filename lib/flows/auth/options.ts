import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import type { ConsoleRole } from '@/db/schema';
import { logger } from '@/lib/platform/logging/logger';
import { authRequestOrigin } from './auth-request';
import { sessionCookiesAreSecure } from './cookie-security';
import { authenticateConsoleUser, SignInRefused } from './credentials';
import { nextAuthSecret } from './secret';
import { sessionMaxAgeSeconds } from './session-settings';
import { endConsoleSession, startConsoleSession, type SessionOrigin } from './sessions';
import { SIGN_IN_ERROR_PARAM } from './sign-in-errors';
import { admitThroughProvider, auditRefusal, refusalOfProviderError, type IdentityClaims } from './sso';
import { consoleSsoSettings, OIDC_PROVIDER_ID, type ConsoleSsoSettings } from './sso-settings';

declare module 'next-auth' {
  interface User {
    role: ConsoleRole;
    sessionVersion: number;
    /** Where the sign-in came from, recorded with the session ("Sesiones activas"). */
    origin: SessionOrigin;
    /** Set when the sign-in came through the identity provider: its session id (`sid`), or null. */
    identityProviderSid?: string | null;
    /** The provider's refresh token, kept sealed with the session to re-check it. */
    identityProviderRefreshToken?: string | null;
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

/** next-auth's log codes for a failed exchange with the identity provider: each is a refused sign-in. */
const PROVIDER_FAILURES = new Set(['SIGNIN_OAUTH_ERROR', 'OAUTH_CALLBACK_ERROR']);

/**
 * The operator's identity provider, as next-auth's OpenID Connect client: discovery from the
 * issuer, the authorization code flow with PKCE, state and nonce checked, the ID token verified by
 * openid-client (signature by the published keys, issuer, audience, expiry, 10 s of clock skew).
 */
function identityProvider(settings: ConsoleSsoSettings): OAuthConfig<IdentityClaims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: settings.CONSOLE_OIDC_PROVIDER_NAME,
    type: 'oauth',
    wellKnown: `${settings.CONSOLE_OIDC_ISSUER!.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    clientId: settings.CONSOLE_OIDC_CLIENT_ID,
    clientSecret: settings.CONSOLE_OIDC_CLIENT_SECRET,
    // Google shows only the company's accounts when told its domain; the hd claim is still checked.
    authorization: { params: { scope: settings.CONSOLE_OIDC_SCOPES, ...(settings.CONSOLE_OIDC_GOOGLE_DOMAIN ? { hd: settings.CONSOLE_OIDC_GOOGLE_DOMAIN } : {}) } },
    checks: ['pkce', 'state', 'nonce'],
    idToken: true,
    httpOptions: { timeout: settings.CONSOLE_OIDC_TIMEOUT_MS },
    // Who it is and with which role is decided in the signIn callback, against the database.
    profile: (claims) => ({
      id: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      name: typeof claims.name === 'string' ? claims.name : null,
      role: 'support',
      sessionVersion: 0,
      origin: { clientIp: '', userAgent: '' },
      identityProviderSid: typeof claims.sid === 'string' ? claims.sid : null,
    }),
  };
}

let cached: AuthOptions | undefined;

/**
 * next-auth's settings, built on first use rather than at import: the secret may have to be read
 * from (or written to) .data/, which `next build` must never do.
 */
export function authOptions(): AuthOptions {
  const sso = consoleSsoSettings();
  cached ??= {
    secret: nextAuthSecret(),
    session: { strategy: 'jwt', maxAge: sessionMaxAgeSeconds() },
    // next-auth would pick secure cookies from NEXTAUTH_URL too; saying it keeps it visible.
    useSecureCookies: sessionCookiesAreSecure(),
    pages: { signIn: '/admin/login', error: '/admin/login' },
    // next-auth's own complaints go through our logger (redacted, one format).
    logger: {
      // metadata is an Error or an object holding one; only the error goes, through the safe serializer.
      error: (code, metadata) => {
        const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown })?.error;
        log.error({ code, err: error }, 'next-auth error');
        // Refused before any user is known (the token expired, is not ours, the provider is down): audited with why.
        if (PROVIDER_FAILURES.has(code)) void auditRefusal(undefined, refusalOfProviderError(error));
      },
      warn: (code) => log.warn({ code }, 'next-auth warning'),
      debug: () => {},
    },
    providers: [
      ...(sso.CONSOLE_OIDC_ISSUER !== undefined ? [identityProvider(sso)] : []),
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
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        const admission = await admitThroughProvider(profile as IdentityClaims);
        // Back to the sign-in page with the reason's code (lib/flows/auth/sign-in-errors.ts).
        if (!admission.ok) return `/admin/login?${SIGN_IN_ERROR_PARAM}=${admission.refusal}`;
        Object.assign(user, {
          id: String(admission.user.id),
          email: admission.user.email,
          name: admission.user.name,
          role: admission.user.role,
          sessionVersion: admission.user.passwordChangedAt.getTime(),
          origin: authRequestOrigin(),
          identityProviderRefreshToken: typeof account.refresh_token === 'string' ? account.refresh_token : null,
        });
        return true;
      },
      async jwt({ token, user }) {
        if (user) {
          token.userId = Number(user.id);
          token.sessionVersion = user.sessionVersion;
          // next-auth would put this error's message in the sign-in page's URL: only a code goes.
          try {
            const provider = user.identityProviderSid === undefined ? undefined : { sid: user.identityProviderSid, refreshToken: user.identityProviderRefreshToken ?? null };
            token.sessionId = await startConsoleSession({ id: Number(user.id), email: user.email ?? '' }, user.origin, provider);
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
