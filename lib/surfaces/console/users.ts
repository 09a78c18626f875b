// «Usuarios»: the console's users with their open sessions and whether they sign in with a second factor.
import { countActiveSessionsByUser } from '@/lib/flows/auth/sessions';
import { consoleSsoSettings } from '@/lib/flows/auth/sso-settings';
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { listConsoleUsers, type ConsoleUserView } from '@/lib/flows/auth/users';
import { usersWithTwoFactor } from '@/lib/flows/two-factor/service';

export interface ConsoleUsersView {
  users: ConsoleUserView[];
  /** Open sessions per user id (absent: none). */
  sessionCounts: Map<number, number>;
  /** The ids of the users enrolled in two-factor sign-in. */
  twoFactorUsers: Set<number>;
  /** Whether everyone must enrol (at their next sign-in). */
  twoFactorRequired: boolean;
  /** Whether the console signs in through an identity provider (docs/sso.md), and its break-glass accounts. */
  identityProvider: { name: string; breakGlassEmails: readonly string[] } | null;
}

export async function consoleUsersView(): Promise<ConsoleUsersView> {
  const [users, sessionCounts, twoFactorUsers] = await Promise.all([listConsoleUsers(), countActiveSessionsByUser(), usersWithTwoFactor()]);
  const sso = consoleSsoSettings();
  const identityProvider = sso.CONSOLE_OIDC_ISSUER === undefined ? null : { name: sso.CONSOLE_OIDC_PROVIDER_NAME, breakGlassEmails: sso.CONSOLE_BREAK_GLASS_EMAILS };
  return { users, sessionCounts, twoFactorUsers, twoFactorRequired: twoFactorRequired(), identityProvider };
}

