// The three upstream clients of this process, built once from the validated settings. In
// development a missing key falls back to the bundled simulator's development credentials;
// production cannot get here without real ones (settings.ts refuses to start without them).

import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { SIMULATOR_DEV_CREDENTIALS, SOURCE_SETTINGS, type SourceSettings } from './settings';
import { createCatalogClient, type CatalogClient } from './catalog-client';
import { BREAKER_STATE_VALUE, SOURCE_NAMES, SourceGuard, type SourceName } from './guard';
import { metrics } from '@/lib/platform/metrics/registry';
import { createRenapClient, type RenapClient } from './renap-client';
import { createRtuClient, type RtuClient } from './rtu-client';
import { processSlot } from '@/lib/platform/runtime/process-state';

export interface SourceClients {
  renap: RenapClient;
  rtu: RtuClient;
  catalog: CatalogClient;
  /** Each source's circuit breaker and bulkhead, with its health over the last hour. */
  guards: Record<SourceName, SourceGuard>;
}

/** What the clients read of the settings: the sources' own, and whether this is production. */
export type SourceClientSettings = SourceSettings & Pick<Env, 'APP_ENV'>;

function credential(settings: SourceClientSettings, value: string | undefined, name: string, developmentDefault: string): string {
  if (value !== undefined) return value;
  if (settings.APP_ENV === 'production') throw new Error(`${name} is required when APP_ENV=production`);
  return developmentDefault;
}

/** Builds the clients from a given set of settings (tests, scripts); sourceClients() caches one set. */
export function buildSourceClients(settings: SourceClientSettings, fetchImplementation?: typeof fetch): SourceClients {
  const timeoutMs = settings.SOURCE_TIMEOUT_MS;
  const guardSettings = {
    failureThreshold: settings.SOURCE_BREAKER_FAILURES,
    cooldownMs: settings.SOURCE_BREAKER_COOLDOWN_MS,
    bulkheadLimit: settings.SOURCE_BULKHEAD_LIMIT,
    bulkheadQueue: settings.SOURCE_BULKHEAD_QUEUE,
  };
  const guards = Object.fromEntries(SOURCE_NAMES.map((source) => [source, new SourceGuard(source, guardSettings)])) as Record<SourceName, SourceGuard>;
  return {
    guards,
    renap: createRenapClient({
      baseUrl: settings.RENAP_BASE_URL,
      apiKey: credential(settings, settings.RENAP_API_KEY, 'RENAP_API_KEY', SIMULATOR_DEV_CREDENTIALS.renapApiKey),
      timeoutMs,
      fetch: fetchImplementation,
      guard: guards.renap,
    }),
    rtu: createRtuClient({
      baseUrl: settings.RTU_BASE_URL,
      apiKey: credential(settings, settings.RTU_API_KEY, 'RTU_API_KEY', SIMULATOR_DEV_CREDENTIALS.rtuApiKey),
      timeoutMs,
      fetch: fetchImplementation,
      guard: guards.rtu,
    }),
    catalog: createCatalogClient({
      baseUrl: settings.CATALOG_BASE_URL,
      clientId: credential(settings, settings.CATALOG_CLIENT_ID, 'CATALOG_CLIENT_ID', SIMULATOR_DEV_CREDENTIALS.catalogClientId),
      clientSecret: credential(settings, settings.CATALOG_CLIENT_SECRET, 'CATALOG_CLIENT_SECRET', SIMULATOR_DEV_CREDENTIALS.catalogClientSecret),
      timeoutMs,
      fetch: fetchImplementation,
      guard: guards.catalog,
    }),
  };
}

/** The process's clients, built on first use (never at import, so `next build` needs no settings). */
export function sourceClients(): SourceClients {
  return processSlot('sourceClients', () => {
    const clients = buildSourceClients(currentSettings([PLATFORM_SETTINGS, SOURCE_SETTINGS]));
    // Breaker openings reach the alerts through the guards' onStateChange, subscribed by the
    // server at start (lib/root/startup.ts): the upstream clients know nothing of the database.
    metrics().probes.breakerStates = () => SOURCE_NAMES.map((source) => ({ source, state: BREAKER_STATE_VALUE[clients.guards[source].state] }));
    return clients;
  });
}

export type { CatalogClient, CatalogKind, CatalogQuery, CatalogResultByKind } from './catalog-client';
export type { RenapAnswer, RenapClient } from './renap-client';
export type { RtuAnswer, RtuClient, RtuRecord } from './rtu-client';
export type { SourceFailure, SourceResult } from './outcomes';
export { RTU_MAX_NITS } from './rtu-client';
