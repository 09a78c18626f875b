import { env } from '@/lib/platform/settings/env';

/**
 * Whether a user must have two-factor sign-in before the console opens: every role when
 * CONSOLE_TWO_FACTOR_REQUIRED is on, as it is by default in production. Administrators top up
 * balances and change tariffs; support reveals full NITs and CUIs and exports records: a stolen
 * password is as bad for either.
 */
export function twoFactorRequired(): boolean {
  return env().CONSOLE_TWO_FACTOR_REQUIRED;
}
