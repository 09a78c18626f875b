// The issuer a development process names on its statements and invoices: words that say so on
// every PDF, so a development document is never taken for an operator's. The issuer's settings
// (lib/core/issuer/settings.ts) give them when ISSUER_LEGAL_NAME and ISSUER_ADDRESS are unset
// outside production; they are printed as they are, as a setting's value would be.

/** The development issuer's legal name and street line, each naming the setting that replaces it. */
export const DEVELOPMENT_ISSUER_WORDS = {
  legalName: 'Emisor de desarrollo, sin validez (configure ISSUER_LEGAL_NAME)',
  address: 'Dirección de desarrollo, sin validez (configure ISSUER_ADDRESS)',
} as const;
