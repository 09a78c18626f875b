import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, integrationTokens } from '@/db/schema';
import { expiryWarningDue, tokenExpiring } from './kinds/token-expiring';
import type { IntegratorNotifier } from './notifier';

// The technical contact is warned 7 days and 1 day before a token stops working. A leased job
// (lib/root/startup.ts) looks every hour; each warning's key names the token, the warning and the
// expiry instant, and is claimed once, so instances and repeated passes send it once.

/** Queues the warnings due now; returns how many notifications were queued. */
export async function notifyExpiringTokens(notifier: IntegratorNotifier, now = new Date()): Promise<number> {
  const inSevenDays = new Date(now.getTime() + 7 * 24 * 3_600_000);
  const rows = await (await db())
    .select({ token: integrationTokens, nombre: integrations.nombre })
    .from(integrationTokens)
    .innerJoin(integrations, eq(integrations.id, integrationTokens.integrationId))
    .where(
      and(
        isNull(integrationTokens.revokedAt),
        gt(integrationTokens.expiresAt, sql`${now.toISOString()}::timestamptz`),
        lte(integrationTokens.expiresAt, sql`${inSevenDays.toISOString()}::timestamptz`),
        eq(integrations.active, true),
      ),
    );
  let queued = 0;
  for (const { token, nombre } of rows) {
    const warning = expiryWarningDue(token.expiresAt!, now);
    if (!warning) continue;
    const draft = tokenExpiring.draft({ integration: { id: token.integrationId, nombre }, token: { ...token, expiresAt: token.expiresAt! }, warning }, notifier.settings, now);
    if ((await notifier.record(draft)).length > 0) queued++;
  }
  return queued;
}
