import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireAlongside, requireHttps } from '@/lib/platform/settings/rules';
import { emptyAsUnset, httpUrl, integer, optional, printableLine, simulatorUrl, underNpmRunDev, unlessSet } from '@/lib/platform/settings/values';

// Console sign-in through the operator's identity provider, OpenID Connect (docs/sso.md): off
// until CONSOLE_OIDC_ISSUER is set; under `npm run dev`, the simulator's provider and its
// development client, so "Entrar con …" works on a fresh clone.

/** Development's provider: the simulator's development client and the groups of its directory (simulator/oidc.ts). */
export const DEVELOPMENT_OIDC_CLIENT = {
  CONSOLE_OIDC_CLIENT_ID: 'pasarela-consola',
  CONSOLE_OIDC_CLIENT_SECRET: 'secreto-de-desarrollo-oidc',
  CONSOLE_OIDC_ADMIN_VALUES: 'consola-administradores',
  CONSOLE_OIDC_SUPPORT_VALUES: 'consola-soporte',
} as const;

/** next-auth's id for the identity provider: its callback is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = 'oidc';

/** Where the provider returns the browser (next-auth's callback for the provider `oidc`), and posts logout tokens. */
export const OIDC_CALLBACK_PATH = '/api/auth/callback/oidc';
export const OIDC_BACKCHANNEL_LOGOUT_PATH = '/api/sso/cierre-de-sesion';

/** A comma-separated list; unset or empty is none. */
const list = (item: z.ZodType<string>) =>
  z.preprocess((value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter((part) => part !== '') : []), z.array(item));

const claimValue = z.string().max(200);
const email = z
  .string()
  .max(254)
  .transform((value) => value.toLowerCase())
  .pipe(z.email());

export const CONSOLE_SSO_SETTINGS = defineSettings({
  title: "Console sign-in through the identity provider (lib/flows/auth, docs/sso.md)",
  shape: {
    CONSOLE_OIDC_ISSUER: optional(httpUrl),
    CONSOLE_OIDC_CLIENT_ID: optional(z.string().trim().min(1).max(200)),
    // Secret: never logged.
    CONSOLE_OIDC_CLIENT_SECRET: optional(z.string().trim().min(1).max(500)),
    CONSOLE_OIDC_SCOPES: z
      .string()
      .trim()
      .default('openid email profile')
      .refine((scopes) => scopes.split(/\s+/).includes('openid'), 'must include openid'),
    CONSOLE_OIDC_ROLE_CLAIM: z.string().trim().min(1).max(100).default('groups'),
    CONSOLE_OIDC_ADMIN_VALUES: list(claimValue),
    CONSOLE_OIDC_SUPPORT_VALUES: list(claimValue),
    CONSOLE_OIDC_PROVIDER_NAME: printableLine(60).default('el proveedor de identidad'),
    CONSOLE_OIDC_ENTRA_TENANT_ID: optional(z.string().trim().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be the tenant id, a GUID').transform((value) => value.toLowerCase())),
    CONSOLE_OIDC_GOOGLE_DOMAIN: optional(z.string().trim().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/, 'must be a domain name, such as empresa.com.gt')),
    CONSOLE_OIDC_TIMEOUT_MS: integer(10_000, 1_000, 60_000),
    CONSOLE_LOCAL_SIGN_IN: z.enum(['all', 'break_glass']),
    CONSOLE_BREAK_GLASS_EMAILS: list(email),
  },
  docs: {
    CONSOLE_OIDC_ISSUER: "The identity provider's issuer (https:// in production); its discovery document is read from `<issuer>/.well-known/openid-configuration`. Unset: console sign-in is local only. Under `npm run dev`: the simulator's /oidc.",
    CONSOLE_OIDC_CLIENT_ID: "The console's client id at the provider; required with the issuer. Its redirect URI there: `<NEXTAUTH_URL>/api/auth/callback/oidc`; back-channel logout URI: `<NEXTAUTH_URL>/api/sso/cierre-de-sesion`.",
    CONSOLE_OIDC_CLIENT_SECRET: "Secret: the client's secret; required with the issuer.",
    CONSOLE_OIDC_SCOPES: 'The scopes asked for, space-separated; must include openid.',
    CONSOLE_OIDC_ROLE_CLAIM: "The ID token's claim that carries the user's groups or roles (groups for Entra ID, Okta and Keycloak's mapper; roles for Entra ID app roles).",
    CONSOLE_OIDC_ADMIN_VALUES: 'Comma-separated values of that claim that make a user an administrator (a group id or name). One of the two lists is required with the issuer.',
    CONSOLE_OIDC_SUPPORT_VALUES: 'Comma-separated values of that claim that make a user support staff. A user with neither is refused.',
    CONSOLE_OIDC_PROVIDER_NAME: 'How the sign-in page names the provider: "Entrar con `<name>`" (Microsoft Entra ID, Google Workspace, …).',
    CONSOLE_OIDC_ENTRA_TENANT_ID: "Microsoft Entra ID: the operator's tenant id; an ID token of another tenant (its tid claim) is refused.",
    CONSOLE_OIDC_GOOGLE_DOMAIN: "Google Workspace: the company's domain; an account outside it (its hd claim) is refused.",
    CONSOLE_OIDC_TIMEOUT_MS: "How long a call to the provider (discovery, token endpoint, keys) waits before the sign-in says it is unavailable.",
    CONSOLE_LOCAL_SIGN_IN: 'Who may still sign in with a password: all (the default while no issuer is set, and outside production) or break_glass (only CONSOLE_BREAK_GLASS_EMAILS; the default, and the only choice, in production with an issuer).',
    CONSOLE_BREAK_GLASS_EMAILS: "Comma-separated e-mails of the local accounts that keep password and two-factor sign-in, so the console is reachable while the provider is down.",
  },
  input: (source, appEnv) => {
    const development = underNpmRunDev(source, appEnv) ? unlessSet(source, { CONSOLE_OIDC_ISSUER: `${simulatorUrl(source)}/oidc`, ...DEVELOPMENT_OIDC_CLIENT }) : {};
    const issuer = emptyAsUnset(source.CONSOLE_OIDC_ISSUER) ?? development.CONSOLE_OIDC_ISSUER;
    const localSignIn = emptyAsUnset(source.CONSOLE_LOCAL_SIGN_IN) ?? (appEnv === 'production' && issuer !== undefined ? 'break_glass' : 'all');
    return { ...development, CONSOLE_LOCAL_SIGN_IN: localSignIn };
  },
  refine: (settings, ctx, appEnv) => {
    for (const name of ['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_CLIENT_SECRET'] as const) requireAlongside(settings, ctx, name, 'CONSOLE_OIDC_ISSUER');
    if (settings.CONSOLE_OIDC_ISSUER === undefined) {
      for (const name of ['CONSOLE_OIDC_CLIENT_ID', 'CONSOLE_OIDC_ENTRA_TENANT_ID', 'CONSOLE_OIDC_GOOGLE_DOMAIN'] as const) {
        if (settings[name] !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'means nothing without CONSOLE_OIDC_ISSUER' });
      }
      return;
    }
    if (settings.CONSOLE_OIDC_ADMIN_VALUES.length === 0 && settings.CONSOLE_OIDC_SUPPORT_VALUES.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['CONSOLE_OIDC_ADMIN_VALUES'], message: 'or CONSOLE_OIDC_SUPPORT_VALUES is required when CONSOLE_OIDC_ISSUER is set: no one could enter' });
    }
    if (appEnv !== 'production') return;
    requireHttps(settings, ctx, ['CONSOLE_OIDC_ISSUER']);
    // Leaving the company must end access: a password of one's own would outlive the directory.
    if (settings.CONSOLE_LOCAL_SIGN_IN === 'all') {
      ctx.addIssue({ code: 'custom', path: ['CONSOLE_LOCAL_SIGN_IN'], message: 'must be break_glass when APP_ENV=production and CONSOLE_OIDC_ISSUER is set' });
    }
  },
});

export type ConsoleSsoSettings = SettingsOf<typeof CONSOLE_SSO_SETTINGS>;

/** The process's console sign-in settings, read on first use. */
export const consoleSsoSettings = (): ConsoleSsoSettings => CONSOLE_SSO_SETTINGS.current();

/** Whether the console offers sign-in through the identity provider. */
export const consoleSsoEnabled = (): boolean => consoleSsoSettings().CONSOLE_OIDC_ISSUER !== undefined;
