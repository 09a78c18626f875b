import { env, type Env } from '@/lib/platform/env';
import { formatNit } from '@/lib/flows/integration-management/details-display';

/** The operator as a statement names it, its issuer (STATEMENT_ISSUER_* settings). */
export interface StatementIssuer {
  name: string;
  /** Without separators, as SAT's check reads it (lib/platform/guatemala/identifiers.ts). */
  nit: string;
  address: string;
}

/** The issuer the settings name now: copied into each statement when it is issued. */
export function configuredIssuer(settings: Env = env()): StatementIssuer {
  // lib/platform/env.ts requires the three in production and fills in development's; never unset here.
  return { name: settings.STATEMENT_ISSUER_NAME!, nit: settings.STATEMENT_ISSUER_NIT!, address: settings.STATEMENT_ISSUER_ADDRESS! };
}

/** The lines naming the issuer on a statement and on its preview. */
export function issuerLines(issuer: StatementIssuer): string[] {
  return [`Emisor: ${issuer.name}`, `NIT del emisor: ${formatNit(issuer.nit)}`, `Dirección del emisor: ${issuer.address}`];
}
