// The three upstream clients of this process, built once from the validated settings. In
// development a missing key falls back to the bundled simulator's development credentials;
// production cannot get here without real ones (lib/env.ts refuses to start without them).

import { env, SIMULATOR_DEV_CREDENTIALS, type Env } from '../env';
import { createCatalogClient, type CatalogClient } from './catalog-client';
import { createRenapClient, type RenapClient } from './renap-client';
import { createRtuClient, type RtuClient } from './rtu-client';

export interface SourceClients {
  renap: RenapClient;
  rtu: RtuClient;
  catalog: CatalogClient;
}

function credential(settings: Env, value: string | undefined, name: string, developmentDefault: string): string {
  if (value !== undefined) return value;
  if (settings.APP_ENV === 'production') throw new Error(`${name} is required when APP_ENV=production`);
  return developmentDefault;
}

/** Builds the clients from a given set of settings (tests, scripts); sourceClients() caches one set. */
export function buildSourceClients(settings: Env, fetchImplementation?: typeof fetch): SourceClients {
  const timeoutMs = settings.SOURCE_TIMEOUT_MS;
  return {
    renap: createRenapClient({
      baseUrl: settings.RENAP_BASE_URL,
      apiKey: credential(settings, settings.RENAP_API_KEY, 'RENAP_API_KEY', SIMULATOR_DEV_CREDENTIALS.renapApiKey),
      timeoutMs,
      fetch: fetchImplementation,
    }),
    rtu: createRtuClient({
      baseUrl: settings.RTU_BASE_URL,
      apiKey: credential(settings, settings.RTU_API_KEY, 'RTU_API_KEY', SIMULATOR_DEV_CREDENTIALS.rtuApiKey),
      timeoutMs,
      fetch: fetchImplementation,
    }),
    catalog: createCatalogClient({
      baseUrl: settings.CATALOG_BASE_URL,
      clientId: credential(settings, settings.CATALOG_CLIENT_ID, 'CATALOG_CLIENT_ID', SIMULATOR_DEV_CREDENTIALS.catalogClientId),
      clientSecret: credential(settings, settings.CATALOG_CLIENT_SECRET, 'CATALOG_CLIENT_SECRET', SIMULATOR_DEV_CREDENTIALS.catalogClientSecret),
      timeoutMs,
      fetch: fetchImplementation,
    }),
  };
}

const cache = globalThis as typeof globalThis & { __gatewaySourceClients?: SourceClients };

/** The process's clients, built on first use (never at import, so `next build` needs no settings). */
export function sourceClients(): SourceClients {
  cache.__gatewaySourceClients ??= buildSourceClients(env());
  return cache.__gatewaySourceClients;
}

export type { CatalogClient, CatalogKind, CatalogQuery, CatalogResultByKind } from './catalog-client';
export type { RenapAnswer, RenapClient } from './renap-client';
export type { RtuAnswer, RtuClient, RtuRecord } from './rtu-client';
export type { SourceFailure, SourceResult } from './outcomes';
export { RTU_MAX_NITS } from './rtu-client';
