// «Usuarios»: the console's users with their open sessions and whether they sign in with a second factor.
import { countActiveSessionsByUser } from '@/lib/flows/auth/sessions';
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
}

export async function consoleUsersView(): Promise<ConsoleUsersView> {
  const [users, sessionCounts, twoFactorUsers] = await Promise.all([listConsoleUsers(), countActiveSessionsByUser(), usersWithTwoFactor()]);
  return { users, sessionCounts, twoFactorUsers, twoFactorRequired: twoFactorRequired() };
}

