// How a bulk job leaves room for its integration's interactive lookups (docs/decisions.md, "Bulk
// jobs"): each item spends one from the integration's catalog limit, as any lookup, and before
// that one from a second per-minute counter of the integration's jobs, capped at
// BULK_LIMIT_SHARE_PERCENT of the catalog limit. Jobs can never take more than that share of a
// minute; the rest is always there for the integration's own requests. Both counters live in the
// same store as every limit (Redis when instances share it), so the share holds across instances.
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { BULK_SETTINGS, bulkSettings, type BulkSettings } from './settings';
import { integrationLimitPerMinute, rateLimitStore } from '@/lib/core/limits/limits';
import type { WindowUse } from '@/lib/core/limits/store';

const MINUTE_MS = 60_000;

/** The most items an integration's jobs may run in one minute, together, on every instance. */
export function bulkItemsPerMinute(settings: Env & BulkSettings = currentSettings([PLATFORM_SETTINGS, BULK_SETTINGS])): number {
  return Math.max(1, Math.floor((integrationLimitPerMinute('catalogs', settings) * settings.BULK_LIMIT_SHARE_PERCENT) / 100));
}

/** Spends one item from the jobs' share; when refused, says when the share's window ends. */
export async function spendBulkShare(integrationName: string): Promise<{ allowed: true } | { allowed: false; retryAtMs: number }> {
  const decision = await (await rateLimitStore()).consume(`minute:bulk:${integrationName.toLowerCase()}`, bulkItemsPerMinute(), MINUTE_MS, 'fixed');
  return decision.allowed ? { allowed: true } : { allowed: false, retryAtMs: decision.resetAtMs };
}

const bulkApiLimitKey = (integrationName: string) => `minute:lotes:${integrationName.toLowerCase()}`;

/** Spends one request to /api/lotes from the integration's own per-minute counter for them. */
export async function spendBulkApiLimit(integrationName: string): Promise<{ allowed: boolean; resetAtMs: number }> {
  const decision = await (await rateLimitStore()).consume(bulkApiLimitKey(integrationName), bulkSettings().BULK_API_PER_MINUTE, MINUTE_MS, 'fixed');
  return { allowed: decision.allowed, resetAtMs: decision.resetAtMs };
}

/** What the integration's current minute of /api/lotes requests has spent, read without spending. */
export async function peekBulkApiLimit(integrationName: string): Promise<WindowUse> {
  return (await rateLimitStore()).peek(bulkApiLimitKey(integrationName), bulkSettings().BULK_API_PER_MINUTE, MINUTE_MS, 'fixed');
}
