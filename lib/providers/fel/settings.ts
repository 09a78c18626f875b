import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireHttps, requireSet } from '@/lib/platform/settings/rules';
import { emptyAsUnset, flag, httpUrl, integer, optional, printableLine, simulatorUrl, underNpmRunDev, unlessSet } from '@/lib/platform/settings/values';

// FEL invoices of every credited top-up (docs/operations.md, "FEL invoices"): the certifier, its
// credentials, what only the DTE says of the issuer (its Emisor is the operator's ISSUER_*
// settings, lib/core/issuer) and the invoice worker's timings.

/**
 * Development's certifier and issuer: the simulator's credentials, and an issuer whose names say
 * it is none.
 */
export const DEVELOPMENT_FEL_SETTINGS = {
  FEL_SIGNING_USER: 'sim-fel-firma',
  FEL_SIGNING_KEY: 'sim-fel-llave-firma',
  FEL_API_USER: 'sim-fel-api',
  FEL_API_KEY: 'sim-fel-llave-api',
  FEL_ISSUER_COMMERCIAL_NAME: 'Pasarela de desarrollo',
  FEL_ISSUER_ESTABLISHMENT: '1',
  FEL_ISSUER_AFFILIATION: 'GEN',
} as const;

/** What production with FEL on must name itself: the certifier, its credentials and what the DTE adds to the issuer. */
const FEL_PRODUCTION_SETTINGS = [
  'FEL_CERTIFIER_BASE_URL',
  'FEL_NIT_LOOKUP_BASE_URL',
  'FEL_SIGNING_USER',
  'FEL_SIGNING_KEY',
  'FEL_API_USER',
  'FEL_API_KEY',
  'FEL_ISSUER_COMMERCIAL_NAME',
  'FEL_ISSUER_ESTABLISHMENT',
  'FEL_ISSUER_AFFILIATION',
] as const;

export const FEL_SETTINGS = defineSettings({
  title: 'FEL invoices (lib/providers/fel)',
  shape: {
    FEL_ENABLED: flag(false),
    FEL_CERTIFIER: z.enum(['infile']).default('infile'),
    FEL_CERTIFIER_BASE_URL: optional(httpUrl),
    FEL_NIT_LOOKUP_BASE_URL: optional(httpUrl),
    // Secrets: never logged (the adapter's log line names none).
    FEL_SIGNING_USER: optional(z.string().min(1)),
    FEL_SIGNING_KEY: optional(z.string().min(1)),
    FEL_API_USER: optional(z.string().min(1)),
    FEL_API_KEY: optional(z.string().min(1)),
    FEL_ISSUER_COMMERCIAL_NAME: optional(printableLine(255)),
    FEL_ISSUER_ESTABLISHMENT: optional(z.coerce.number().int().min(1).max(9999)),
    FEL_ISSUER_AFFILIATION: optional(z.enum(['GEN', 'PEQ'], 'must be GEN or PEQ')),
    // INFILE's own integrations wait 60 s for a certification.
    FEL_WORKER_INTERVAL_MS: integer(5_000, 100, 3_600_000),
    FEL_CERTIFY_TIMEOUT_MS: integer(60_000, 100, 300_000),
    FEL_CREDENTIALS_PAUSE_MS: integer(300_000, 100, 86_400_000),
    // Linked with tipo=autorizacion, numero (the UUID), emisor, receptor and monto: the query the
    // certifiers' printed invoices use, not one SAT documents.
    FEL_VERIFICATION_URL: httpUrl.default('https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf'),
  },
  docs: {
    FEL_ENABLED: 'Invoices every credited top-up through a certifier. Unset: on under `npm run dev` (against the simulator), off otherwise; with it on, production requires every FEL_* setting but the timings.',
    FEL_CERTIFIER: 'The certifier: infile, the only one so far.',
    FEL_CERTIFIER_BASE_URL: "INFILE's certify, look-up and void address (https:// in production). Development: the simulator's /fel.",
    FEL_NIT_LOOKUP_BASE_URL: "INFILE's NIT name look-up address (https:// in production). Development: the simulator's /fel/receptores.",
    FEL_SIGNING_USER: "Secret: INFILE's UsuarioFirma, with which it signs for the issuer. Development: the simulator's.",
    FEL_SIGNING_KEY: "Secret: INFILE's LlaveFirma. Development: the simulator's.",
    FEL_API_USER: "Secret: INFILE's UsuarioApi. Development: the simulator's.",
    FEL_API_KEY: "Secret: INFILE's LlaveApi. Development: the simulator's.",
    FEL_ISSUER_COMMERCIAL_NAME: 'The commercial name only the invoice says.',
    FEL_ISSUER_ESTABLISHMENT: "SAT's establishment number (1-9999).",
    FEL_ISSUER_AFFILIATION: 'The IVA affiliation: GEN (FACT) or PEQ (FPEQ).',
    FEL_WORKER_INTERVAL_MS: 'How often each instance looks for due invoices.',
    FEL_CERTIFY_TIMEOUT_MS: 'How long a certify call may take before it counts as indeterminate.',
    FEL_CREDENTIALS_PAUSE_MS: 'How long wrong credentials stop the invoice queue before it tries again.',
    FEL_VERIFICATION_URL: "SAT's public page that verifies a certified DTE, linked from every invoice.",
  },
  input: (source, appEnv) => {
    // Under `npm run dev` FEL is on against the simulator; elsewhere off unless FEL_ENABLED says otherwise.
    const enabled = emptyAsUnset(source.FEL_ENABLED) ?? (underNpmRunDev(source, appEnv) ? 'true' : 'false');
    if (appEnv === 'production') return { FEL_ENABLED: enabled };
    const simulator = simulatorUrl(source);
    const development = { ...DEVELOPMENT_FEL_SETTINGS, FEL_CERTIFIER_BASE_URL: `${simulator}/fel`, FEL_NIT_LOOKUP_BASE_URL: `${simulator}/fel/receptores` };
    return { FEL_ENABLED: enabled, ...unlessSet(source, development) };
  },
  refine: (settings, ctx, appEnv) => {
    if (appEnv !== 'production' || !settings.FEL_ENABLED) return;
    // Invoices go to a real certifier in the operator's name: nothing falls back to the simulator's.
    requireSet(settings, ctx, FEL_PRODUCTION_SETTINGS, 'APP_ENV=production and FEL_ENABLED=true');
    requireHttps(settings, ctx, ['FEL_CERTIFIER_BASE_URL', 'FEL_NIT_LOOKUP_BASE_URL']);
  },
});

export type FelSettings = SettingsOf<typeof FEL_SETTINGS>;

/** The process's FEL settings, read on first use. */
export const felSettings = (): FelSettings => FEL_SETTINGS.current();
