import { issuerSettings, type IssuerSettings } from '@/lib/core/issuer/settings';
import { formatNit } from '@/lib/flows/integration-management/details-display';

/** The operator as a statement names it, its issuer (the ISSUER_* settings, which its invoices read too). */
export interface StatementIssuer {
  name: string;
  /** Without separators, as SAT's check reads it (lib/platform/guatemala/identifiers.ts). */
  nit: string;
  address: string;
}

/** The issuer the settings name now: copied into each statement when it is issued. */
export function configuredIssuer(settings: IssuerSettings = issuerSettings()): StatementIssuer {
  // lib/core/issuer/settings.ts requires the name, NIT and address in production and fills in
  // development's; never unset here. The address is its street line, then the municipality and the
  // department where they are set (the invoices' DTE takes each apart).
  const address = [settings.ISSUER_ADDRESS!, settings.ISSUER_MUNICIPALITY, settings.ISSUER_DEPARTMENT].filter(Boolean).join(', ');
  return { name: settings.ISSUER_LEGAL_NAME!, nit: settings.ISSUER_NIT!, address };
}

/** The lines naming the issuer on a statement and on its preview. */
export function issuerLines(issuer: StatementIssuer): string[] {
  return [`Emisor: ${issuer.name}`, `NIT del emisor: ${formatNit(issuer.nit)}`, `Dirección del emisor: ${issuer.address}`];
}
