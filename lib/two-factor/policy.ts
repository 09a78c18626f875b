import type { ConsoleRole } from '@/db/schema';
import { env } from '@/lib/env';

/**
 * Whether a user must have two-factor sign-in before the console opens: administrators (who top
 * up balances and change tariffs) when CONSOLE_ADMIN_TWO_FACTOR_REQUIRED is on, as it is by default
 * in production. Support users may turn it on for themselves.
 */
export function twoFactorRequired(role: ConsoleRole): boolean {
  return role === 'admin' && env().CONSOLE_ADMIN_TWO_FACTOR_REQUIRED;
}
