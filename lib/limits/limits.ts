import { env } from '@/lib/env';
import { MemoryRateLimitStore } from './memory-store';
import type { RateLimitStore } from './store';

const MINUTE_MS = 60_000;

/** The per-integration limit each lookup spends from; the three catalogs share one counter. */
export type LimitedRoute = 'renap' | 'rtu_nits' | 'catalogs';

const holder = globalThis as typeof globalThis & { __rateLimitStore?: RateLimitStore };

/** The process's limit store: in memory unless a shared store is configured. */
export function rateLimitStore(): RateLimitStore {
  holder.__rateLimitStore ??= new MemoryRateLimitStore();
  return holder.__rateLimitStore;
}

/** Spends one request from the integration's per-minute limit for this route. */
export async function consumeIntegrationLimit(route: LimitedRoute, integrationName: string): Promise<boolean> {
  const settings = env();
  const limit = {
    renap: settings.RATE_LIMIT_RENAP_PER_MINUTE,
    rtu_nits: settings.RATE_LIMIT_RTU_PER_MINUTE,
    catalogs: settings.RATE_LIMIT_CATALOG_PER_MINUTE,
  }[route];
  // Counted by integration name, lowercased as the login header is matched.
  const decision = await rateLimitStore().consume(`minute:${route}:${integrationName.toLowerCase()}`, limit, MINUTE_MS);
  return decision.allowed;
}

/** Spends one request from the global per-IP limit (100 per 15 minutes by default). */
export async function consumeGlobalLimit(clientIp: string): Promise<boolean> {
  const settings = env();
  const decision = await rateLimitStore().consume(
    `global:${clientIp}`,
    settings.RATE_LIMIT_GLOBAL_MAX,
    settings.RATE_LIMIT_GLOBAL_WINDOW_SECONDS * 1000,
  );
  return decision.allowed;
}
