import type { PortalRole } from '@/db/schema';
import { consoleRecoveryCodes, consoleTwoFactor, portalRecoveryCodes, portalTwoFactor } from '@/db/schema';
import type { IntegratorActor } from '@/lib/core/audit/audit';
import { ACCESS_AUDIT } from '@/lib/flows/auth/access-audit';
import { twoFactorService } from '@/lib/flows/two-factor/service';
import { portalTwoFactorRequired } from './policy';
import { endAllPortalSessions, reissueVerifiedPortalSession } from './sessions';

/**
 * Two-factor sign-in of portal users: lib/flows/two-factor's implementation with the portal's tables
 * (the console's columns exactly, hence the cast), sessions, audit rows (`portal_user.*`) and
 * throttle counts, secrets sealed to "portal_user:<id>", and the portal's rule of who needs it.
 */
export const portalTwoFactorService = twoFactorService<IntegratorActor, PortalRole>({
  realm: 'portal',
  tables: {
    twoFactor: portalTwoFactor as unknown as typeof consoleTwoFactor,
    recoveryCodes: portalRecoveryCodes as unknown as typeof consoleRecoveryCodes,
  },
  audit: ACCESS_AUDIT.portal,
  issuer: 'Consultas GT Portal',
  actorOf: (actor) => actor,
  actorKind: 'integrator',
  requiredFor: portalTwoFactorRequired,
  requiredCannotDisableMessage: 'En producción, los propietarios y los desarrolladores deben usar la verificación en dos pasos: no se puede desactivar.',
  reissueVerifiedSession: reissueVerifiedPortalSession,
  endAllSessions: endAllPortalSessions,
});
