import { consoleSsoSettings, OIDC_PROVIDER_ID } from '@/lib/flows/auth/sso-settings';

/** What the console's sign-in page offers: the identity provider first when there is one, and who may still use a password. */
export interface SignInChoices {
  provider: { id: string; name: string } | null;
  /** all: every local account; break_glass: only the accounts the operator named for when the provider is down. */
  passwords: 'all' | 'break_glass';
}

export function consoleSignInChoices(): SignInChoices {
  const settings = consoleSsoSettings();
  return {
    provider: settings.CONSOLE_OIDC_ISSUER === undefined ? null : { id: OIDC_PROVIDER_ID, name: settings.CONSOLE_OIDC_PROVIDER_NAME },
    passwords: settings.CONSOLE_LOCAL_SIGN_IN,
  };
}
