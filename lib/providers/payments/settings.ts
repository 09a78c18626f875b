import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireHttps, requireSet } from '@/lib/platform/settings/rules';
import { emptyAsUnset, flag, httpUrl, integer, optional, simulatorUrl, underNpmRunDev, unlessSet } from '@/lib/platform/settings/values';
import { isWebhookSecret } from './svix-signature';

// Online top-ups' payment provider (docs/payments.md) and its account: off in production until
// configured; under `npm run dev`, the simulator's Recurrente with its test-mode keys.

/** Development's Recurrente: the simulator's test-mode keys and signing secret (simulator/recurrente.ts). */
export const DEVELOPMENT_RECURRENTE_SETTINGS = {
  RECURRENTE_PUBLIC_KEY: 'pk_test_simulador_recurrente',
  RECURRENTE_SECRET_KEY: 'sk_test_simulador_recurrente',
  RECURRENTE_WEBHOOK_SECRET: 'whsec_c2ltdWxhZG9yLXJlY3VycmVudGUtZGVzYXJyb2xsbw==',
} as const;

/** What production with Recurrente on must name itself: its API and the account's keys. */
const RECURRENTE_PRODUCTION_SETTINGS = ['RECURRENTE_API_URL', 'RECURRENTE_PUBLIC_KEY', 'RECURRENTE_SECRET_KEY', 'RECURRENTE_WEBHOOK_SECRET'] as const;

export const PAYMENT_SETTINGS = defineSettings({
  title: 'Online payments: the provider (lib/providers/payments)',
  shape: {
    PAYMENTS_PROVIDER: z.enum(['none', 'recurrente']).default('none'),
    RECURRENTE_API_URL: optional(httpUrl),
    // Secrets: never logged (the adapter's log line names none).
    RECURRENTE_PUBLIC_KEY: optional(z.string().trim().min(1)),
    RECURRENTE_SECRET_KEY: optional(z.string().trim().min(1)),
    RECURRENTE_WEBHOOK_SECRET: optional(z.string().trim().refine(isWebhookSecret, 'must be the endpoint’s signing secret: whsec_ followed by base64')),
    // A captured message replayed later is refused.
    RECURRENTE_WEBHOOK_TOLERANCE_SECONDS: integer(300, 30, 3_600),
    RECURRENTE_TIMEOUT_MS: integer(30_000, 100, 120_000),
    RECURRENTE_PARTIAL_REFUNDS: flag(false),
  },
  docs: {
    PAYMENTS_PROVIDER: "Online top-ups' provider: none or recurrente. Unset: recurrente under `npm run dev` (against the simulator), none otherwise.",
    RECURRENTE_API_URL: "Recurrente's API (https:// in production, required there with recurrente). Outside production: the simulator's /recurrente/api.",
    RECURRENTE_PUBLIC_KEY: "Secret: the account's public API key. Outside production: the simulator's test-mode key.",
    RECURRENTE_SECRET_KEY: "Secret: the account's secret API key. Outside production: the simulator's test-mode key.",
    RECURRENTE_WEBHOOK_SECRET: "Secret: the webhook endpoint's signing secret, whsec_ and base64. Outside production: the simulator's.",
    RECURRENTE_WEBHOOK_TOLERANCE_SECONDS: "How far a webhook's svix-timestamp may be from our clock.",
    RECURRENTE_TIMEOUT_MS: 'How long a checkout, refund or charge call waits before it counts as indeterminate.',
    RECURRENTE_PARTIAL_REFUNDS: 'Sends partial refunds too (Recurrente documents full ones only: confirm with Recurrente first).',
  },
  input: (source, appEnv) => {
    // On under `npm run dev` against the simulator's Recurrente, as FEL is; off elsewhere (tests, a
    // built app, production) unless PAYMENTS_PROVIDER says otherwise.
    const provider = emptyAsUnset(source.PAYMENTS_PROVIDER) ?? (underNpmRunDev(source, appEnv) ? 'recurrente' : 'none');
    if (appEnv === 'production') return { PAYMENTS_PROVIDER: provider };
    const development = { ...DEVELOPMENT_RECURRENTE_SETTINGS, RECURRENTE_API_URL: `${simulatorUrl(source)}/recurrente/api` };
    return { PAYMENTS_PROVIDER: provider, ...unlessSet(source, development) };
  },
  refine: (settings, ctx, appEnv) => {
    if (appEnv !== 'production' || settings.PAYMENTS_PROVIDER !== 'recurrente') return;
    // Payments go to the operator's own account: nothing falls back to the simulator's.
    requireSet(settings, ctx, RECURRENTE_PRODUCTION_SETTINGS, 'APP_ENV=production and PAYMENTS_PROVIDER=recurrente');
    requireHttps(settings, ctx, ['RECURRENTE_API_URL']);
  },
});

export type PaymentSettings = SettingsOf<typeof PAYMENT_SETTINGS>;

/** The process's payment settings, read on first use. */
export const paymentSettings = (): PaymentSettings => PAYMENT_SETTINGS.current();
