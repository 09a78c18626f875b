import { findIntegration } from '@/lib/integrations/service';
import { env } from '@/lib/env';
import type { PortalUserSession } from './session';

/** What "Inicio" shows of the session's integration (later slices add the use and the sources). */
export interface PortalHome {
  integrationName: string;
  active: boolean;
  balanceCentavos: number;
  tariffCentavos: number;
  /** Below this the administrators (and the integration's contacts) are told; 0: only when exhausted. */
  lowBalanceCentavos: number;
  /** Whether the threshold is the integration's own or the service's default. */
  lowBalanceIsOwn: boolean;
}

/**
 * Inicio's figures, read through the integrations service the console uses, for the session's
 * integration only (there is no parameter that could name another).
 */
export async function portalHome(user: PortalUserSession): Promise<PortalHome> {
  const integration = await findIntegration(user.integrationId);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  return {
    integrationName: integration.nombre,
    active: integration.active,
    balanceCentavos: integration.balanceCentavos,
    tariffCentavos: integration.tariffCentavos,
    lowBalanceCentavos: integration.lowBalanceAlertCentavos ?? env().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS,
    lowBalanceIsOwn: integration.lowBalanceAlertCentavos !== null,
  };
}
