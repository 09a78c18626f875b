// The certifier and the issuer as the settings name them (docs/operations.md, "FEL invoices").
import { currentSettings } from '@/lib/platform/settings/fragment';
import { ISSUER_SETTINGS, type IssuerSettings } from '@/lib/core/issuer/settings';
import type { FelCertifier } from '@/lib/providers/fel/certifier';
import type { Issuer } from '@/lib/providers/fel/document';
import { createInfileCertifier } from '@/lib/providers/fel/infile';
import { FEL_SETTINGS, type FelSettings } from '@/lib/providers/fel/settings';

export type InvoicingSettings = IssuerSettings & FelSettings;

/** The process's issuer and FEL settings, read on first use. */
export const invoicingSettings = (): InvoicingSettings => currentSettings([ISSUER_SETTINGS, FEL_SETTINGS]);

/** The issuer of the settings; null while one of its settings is missing (FEL off in a test, say). */
export function issuerOf(settings: InvoicingSettings): Issuer | null {
  const {
    ISSUER_NIT: nit,
    ISSUER_LEGAL_NAME: legalName,
    FEL_ISSUER_COMMERCIAL_NAME: commercialName,
    FEL_ISSUER_ESTABLISHMENT: establishmentCode,
    FEL_ISSUER_AFFILIATION: affiliation,
    ISSUER_ADDRESS: line,
    ISSUER_POSTAL_CODE: postalCode,
    ISSUER_MUNICIPALITY: municipality,
    ISSUER_DEPARTMENT: department,
  } = settings;
  if (!nit || !legalName || !commercialName || !establishmentCode || !affiliation || !line || !postalCode || !municipality || !department) return null;
  return { nit, legalName, commercialName, establishmentCode, affiliation, address: { line, postalCode, municipality, department, country: 'GT' } };
}

/** The certifier of the settings; null while one of its settings is missing. */
export function certifierOf(settings: FelSettings): FelCertifier | null {
  const { FEL_CERTIFIER_BASE_URL, FEL_NIT_LOOKUP_BASE_URL, FEL_SIGNING_USER, FEL_SIGNING_KEY, FEL_API_USER, FEL_API_KEY } = settings;
  if (!FEL_CERTIFIER_BASE_URL || !FEL_NIT_LOOKUP_BASE_URL || !FEL_SIGNING_USER || !FEL_SIGNING_KEY || !FEL_API_USER || !FEL_API_KEY) return null;
  return createInfileCertifier({
    certifierBaseUrl: FEL_CERTIFIER_BASE_URL,
    nitLookupBaseUrl: FEL_NIT_LOOKUP_BASE_URL,
    credentials: { signingUser: FEL_SIGNING_USER, signingKey: FEL_SIGNING_KEY, apiUser: FEL_API_USER, apiKey: FEL_API_KEY },
    timeoutMs: settings.FEL_CERTIFY_TIMEOUT_MS,
  });
}
