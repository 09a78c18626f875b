import { env, type Env } from '@/lib/platform/settings/env';
import { metrics } from '@/lib/platform/metrics/registry';
import { MemoryRateLimitStore } from './memory-store';
import { RedisRateLimitStore, type RatelimitRedis } from './redis-store';
import type { LimitedRoute } from '@/lib/vocabulary/lookups';
import type { RateLimitStore, WindowUse } from './store';
import { processSlot } from '@/lib/platform/runtime/process-state';

const MINUTE_MS = 60_000;


/**
 * The process's limit store: Upstash's REST service when UPSTASH_REDIS_REST_URL is set, a
 * self-hosted Redis when REDIS_URL is, otherwise process memory (one instance only).
 */
export function rateLimitStore(): Promise<RateLimitStore> {
  return processSlot('rateLimitStore', () => {
    const settings = env();
    const redis = Boolean(settings.REDIS_URL || (settings.UPSTASH_REDIS_REST_URL && settings.UPSTASH_REDIS_REST_TOKEN));
    metrics().probes.limiterStore = () => (redis ? 'redis' : 'memory');
    return createStore(settings);
  });
}

async function createStore(settings: Env): Promise<RateLimitStore> {
  const memory = new MemoryRateLimitStore({ maxKeys: settings.RATE_LIMIT_MEMORY_MAX_KEYS });
  if (settings.UPSTASH_REDIS_REST_URL && settings.UPSTASH_REDIS_REST_TOKEN) {
    const { Redis } = await import('@upstash/redis');
    const redis = new Redis({ url: settings.UPSTASH_REDIS_REST_URL, token: settings.UPSTASH_REDIS_REST_TOKEN });
    return new RedisRateLimitStore(redis, memory);
  }
  if (settings.REDIS_URL) {
    const { Redis } = await import('ioredis');
    const { SelfHostedRedisScripts } = await import('./redis-script-adapter');
    // Fail fast while Redis is away instead of queueing commands: the fallback decides meanwhile.
    const client = new Redis(settings.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
    client.on('error', () => {
      // Reported by the store when a limit check needs Redis; ioredis keeps reconnecting.
    });
    // Give the first connection a moment, so the first requests are counted in Redis.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      client.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // The fixed- and sliding-window limiters call only evalsha and eval, which the adapter provides.
    return new RedisRateLimitStore(new SelfHostedRedisScripts(client) as unknown as RatelimitRedis, memory);
  }
  return memory;
}

/** A route's per-minute limit: the contract's, unless RATE_LIMIT_* says otherwise. */
export function integrationLimitPerMinute(route: LimitedRoute, settings: Env = env()): number {
  return { renap: settings.RATE_LIMIT_RENAP_PER_MINUTE, rtu_nits: settings.RATE_LIMIT_RTU_PER_MINUTE, catalogs: settings.RATE_LIMIT_CATALOG_PER_MINUTE }[route];
}

// Counted by integration name, lowercased as the login header is matched.
const integrationLimitKey = (route: LimitedRoute, integrationName: string) => `minute:${route}:${integrationName.toLowerCase()}`;

/** Spends one request from the integration's per-minute limit for this route. */
export async function consumeIntegrationLimit(route: LimitedRoute, integrationName: string): Promise<boolean> {
  const decision = await (await rateLimitStore()).consume(integrationLimitKey(route, integrationName), integrationLimitPerMinute(route), MINUTE_MS, 'fixed');
  return decision.allowed;
}

/** What the integration's current one-minute window for this route has spent, read without spending. */
export async function peekIntegrationLimit(route: LimitedRoute, integrationName: string): Promise<WindowUse> {
  return (await rateLimitStore()).peek(integrationLimitKey(route, integrationName), integrationLimitPerMinute(route), MINUTE_MS, 'fixed');
}

/** Spends one console sign-in attempt from the client's per-minute allowance (before any hash or query). */
export async function consumeSignInLimit(clientIp: string): Promise<boolean> {
  const decision = await (await rateLimitStore()).consume(`sign-in:${clientIp}`, env().RATE_LIMIT_SIGN_IN_PER_MINUTE, MINUTE_MS, 'fixed');
  return decision.allowed;
}

/**
 * Spends one request from the public pages' per-IP limit (/docs, /estado and the home page): their
 * own budget, so reading the documentation never spends a client's lookups, and a flood of page
 * requests from one address is refused before it costs anything.
 */
export async function consumePublicPageLimit(clientIp: string): Promise<boolean> {
  const decision = await (await rateLimitStore()).consume(`public-page:${clientIp}`, env().RATE_LIMIT_PUBLIC_PAGES_PER_MINUTE, MINUTE_MS, 'fixed');
  return decision.allowed;
}

/**
 * Spends one request from GET /api/estado's per-IP limit: its own budget, not the lookups' global
 * one, so an integrator whose lookups are throttled can still check whether the sources answer
 *.
 */
export async function consumeStatusApiLimit(clientIp: string): Promise<boolean> {
  const decision = await (await rateLimitStore()).consume(`status-api:${clientIp}`, env().RATE_LIMIT_STATUS_API_PER_MINUTE, MINUTE_MS, 'fixed');
  return decision.allowed;
}

/**
 * Spends one delivery from the payment webhooks' per-address limit: their own budget, not the
 * lookups' global one, since a provider sends bursts (retries, many payments) from few addresses.
 */
export async function consumePaymentWebhookLimit(clientIp: string): Promise<boolean> {
  const decision = await (await rateLimitStore()).consume(`payment-webhook:${clientIp}`, env().RATE_LIMIT_PAYMENT_WEBHOOKS_PER_MINUTE, MINUTE_MS, 'fixed');
  return decision.allowed;
}

const accountApiLimitKey = (integrationName: string) => `minute:cuenta:${integrationName.toLowerCase()}`;

/**
 * Spends one read of the integration's own account (GET /api/cuenta and its movements) from their
 * per-minute counter (ACCOUNT_API_PER_MINUTE): apart from the lookups', which these reads never spend.
 */
export async function consumeAccountApiLimit(integrationName: string): Promise<{ allowed: boolean; resetAtMs: number }> {
  const decision = await (await rateLimitStore()).consume(accountApiLimitKey(integrationName), env().ACCOUNT_API_PER_MINUTE, MINUTE_MS, 'fixed');
  return { allowed: decision.allowed, resetAtMs: decision.resetAtMs };
}

/** What the integration's current minute of account reads has spent, read without spending. */
export async function peekAccountApiLimit(integrationName: string): Promise<WindowUse> {
  return (await rateLimitStore()).peek(accountApiLimitKey(integrationName), env().ACCOUNT_API_PER_MINUTE, MINUTE_MS, 'fixed');
}

/**
 * Spends one request from the global per-IP limit (100 per 15 minutes by default), counted in a
 * sliding window: a client cannot spend one window's quota just before a boundary and the next
 * one's just after it. The per-minute limits keep the contract's fixed windows.
 */
export async function consumeGlobalLimit(clientIp: string): Promise<boolean> {
  const settings = env();
  const decision = await (await rateLimitStore()).consume(
    `global:${clientIp}`,
    settings.RATE_LIMIT_GLOBAL_MAX,
    settings.RATE_LIMIT_GLOBAL_WINDOW_SECONDS * 1000,
    'sliding',
  );
  return decision.allowed;
}
