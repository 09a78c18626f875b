import type { PortalRole } from '@/db/schema';
import { env } from '@/lib/platform/settings/env';

/**
 * Whether a portal user must have two-factor sign-in before the portal opens: owners and
 * developers in production (they see tokens, records and the team), never in the development
 * deployment (the integrator's sandbox). Billing people read balances and statements: a password
 * (under the console's policy and throttle) is enough for them, and they may add a second factor.
 */
export function portalTwoFactorRequired(role: PortalRole): boolean {
  return env().APP_ENV === 'production' && role !== 'facturacion';
}
