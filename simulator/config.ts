// The simulator's settings for `npm run simulator`. Port, seed and the upstream credentials come
// from the gateway's settings (lib/root/settings.ts), so the simulator accepts exactly what the gateway's clients send; the knobs
// only the simulator has (latency, faults, population size) are read and validated here.

import { z } from 'zod';
import { SIMULATOR_DEV_CREDENTIALS } from '../lib/sources/settings';
import { parseEnv } from '../lib/root/settings';
import { DEVELOPMENT_OIDC_CLIENT, OIDC_BACKCHANNEL_LOGOUT_PATH, OIDC_CALLBACK_PATH } from '../lib/flows/auth/sso-settings';
import type { OidcSimClient } from './oidc';
import { parseFaultSpec } from './faults';
import { DEFAULT_POPULATION_SIZE } from './population';
import { parseRecurrenteFaultSpec, RECURRENTE_SIM_DEV_KEYS } from './recurrente';
import { DEFAULT_ONLINE_LATENCY_MS, DEFAULT_SLOW_FAULT_DELAY_MS, type SimulatorOptions } from './server';

const milliseconds = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

const simulatorEnvSchema = z.object({
  SIMULATOR_HOST: z.preprocess(emptyAsUnset, z.string().min(1).default('127.0.0.1')),
  SIMULATOR_LATENCY_MS: z.preprocess(emptyAsUnset, milliseconds(0)),
  SIMULATOR_ONLINE_LATENCY_MS: z.preprocess(emptyAsUnset, milliseconds(DEFAULT_ONLINE_LATENCY_MS)),
  SIMULATOR_SLOW_FAULT_MS: z.preprocess(emptyAsUnset, milliseconds(DEFAULT_SLOW_FAULT_DELAY_MS)),
  SIMULATOR_POPULATION: z.preprocess(emptyAsUnset, z.coerce.number().int().min(10_000).max(1_000_000).default(DEFAULT_POPULATION_SIZE)),
  SIMULATOR_FAULT: z.preprocess(emptyAsUnset, z.string().optional()),
  SIMULATOR_LOG: z.preprocess(emptyAsUnset, z.enum(['true', 'false', '1', '0']).default('true')),
  // Where the simulated Recurrente sends its webhooks (the app's receiver); none are sent while unset.
  SIMULATOR_RECURRENTE_WEBHOOK_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^https?$/ }).optional()),
  SIMULATOR_RECURRENTE_FAULT: z.preprocess(emptyAsUnset, z.string().optional()),
  // The app's addresses (comma-separated) the identity provider's client may return to; none is
  // registered while unset. The first also takes back-channel logout tokens.
  SIMULATOR_OIDC_APP_URLS: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? value.split(',').map((url) => url.trim().replace(/\/+$/, '')) : undefined),
    z.array(z.url({ protocol: /^https?$/ })).min(1).optional(),
  ),
});

/** The console's client, as the gateway's settings name it (development's by default), returning to each of `appUrls`. */
function oidcDevelopmentClient(gateway: ReturnType<typeof parseEnv>, appUrls: string[]): OidcSimClient {
  return {
    clientId: gateway.CONSOLE_OIDC_CLIENT_ID ?? DEVELOPMENT_OIDC_CLIENT.CONSOLE_OIDC_CLIENT_ID,
    clientSecret: gateway.CONSOLE_OIDC_CLIENT_SECRET ?? DEVELOPMENT_OIDC_CLIENT.CONSOLE_OIDC_CLIENT_SECRET,
    redirectUris: appUrls.map((url) => `${url}${OIDC_CALLBACK_PATH}`),
    backchannelLogoutUri: `${appUrls[0]}${OIDC_BACKCHANNEL_LOGOUT_PATH}`,
  };
}

/** Options for startSimulator from a set of variables; throws naming each wrong variable. */
export function simulatorOptionsFromEnv(source: Record<string, string | undefined>): SimulatorOptions & { logRequests: boolean } {
  const gateway = parseEnv(source);
  const parsed = simulatorEnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid simulator environment:\n${parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  }
  const settings = parsed.data;
  return {
    port: gateway.SIMULATOR_PORT,
    host: settings.SIMULATOR_HOST,
    seed: gateway.SIMULATOR_SEED,
    populationSize: settings.SIMULATOR_POPULATION,
    latencyMs: settings.SIMULATOR_LATENCY_MS,
    onlineLatencyMs: settings.SIMULATOR_ONLINE_LATENCY_MS,
    slowFaultDelayMs: settings.SIMULATOR_SLOW_FAULT_MS,
    faults: settings.SIMULATOR_FAULT === undefined ? [] : parseFaultSpec(settings.SIMULATOR_FAULT),
    credentials: {
      renapApiKey: gateway.RENAP_API_KEY ?? SIMULATOR_DEV_CREDENTIALS.renapApiKey,
      rtuApiKey: gateway.RTU_API_KEY ?? SIMULATOR_DEV_CREDENTIALS.rtuApiKey,
      catalogClientId: gateway.CATALOG_CLIENT_ID ?? SIMULATOR_DEV_CREDENTIALS.catalogClientId,
      catalogClientSecret: gateway.CATALOG_CLIENT_SECRET ?? SIMULATOR_DEV_CREDENTIALS.catalogClientSecret,
    },
    // The keys the app sends (RECURRENTE_*, the simulator's own in development) are the ones it accepts.
    recurrente: {
      keys: {
        publicKey: gateway.RECURRENTE_PUBLIC_KEY ?? RECURRENTE_SIM_DEV_KEYS.publicKey,
        secretKey: gateway.RECURRENTE_SECRET_KEY ?? RECURRENTE_SIM_DEV_KEYS.secretKey,
        webhookSecret: gateway.RECURRENTE_WEBHOOK_SECRET ?? RECURRENTE_SIM_DEV_KEYS.webhookSecret,
      },
      webhookUrl: settings.SIMULATOR_RECURRENTE_WEBHOOK_URL,
      apiFaults: settings.SIMULATOR_RECURRENTE_FAULT === undefined ? [] : parseRecurrenteFaultSpec(settings.SIMULATOR_RECURRENTE_FAULT),
    },
    oidc: {
      clients: (settings.SIMULATOR_OIDC_APP_URLS ?? []).length === 0 ? [] : [oidcDevelopmentClient(gateway, settings.SIMULATOR_OIDC_APP_URLS!)],
    },
    logRequests: settings.SIMULATOR_LOG === 'true' || settings.SIMULATOR_LOG === '1',
  };
}
