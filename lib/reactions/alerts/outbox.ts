import { and, asc, eq, inArray, lte, min, sql } from 'drizzle-orm';
import { database as databaseHandle, db } from '@/db/client';
import { alertConditions, alertDeliveries, alertDeliveryAttempts, consoleUsers, type AlertChannel, type AlertDelivery, type NewAlertDelivery } from '@/db/schema';
import type { AttemptOutcome } from '@/lib/platform/http/delivery-attempt';
import type { Alert } from './conditions';
import { retryDelayMs, type AlertSettings } from './settings';
import { describeWebhookUrl } from '@/lib/platform/security/outbound-urls';

// The durable half of the alerts: which condition alerted when, and every delivery with its
// attempts. Any instance may write an alert and any instance may deliver it.

/**
 * The PostgreSQL channel on which new deliveries are announced. Every delivering instance LISTENs
 * (lib/reactions/alerts/dispatcher.ts) and looks at the outbox at once, so a notice another process queued
 * (the CLI, another instance, a test) goes out now rather than at that instance's next idle look,
 * up to 30 s later. The process that queued it wakes its own loop without waiting for this.
 */
export const DELIVERIES_CHANNEL = 'gateway_deliveries_queued';

/** Inside the transaction that writes the deliveries: announced only if (and once) it commits. */
async function announceDeliveries(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
}

/**
 * Calls `onQueued` whenever a process commits new deliveries, and `onListening` when the listening
 * connection was (re)established (announcements made while it was down are lost: look then).
 * Returns the function that stops, or undefined when this database cannot tell this process (the
 * embedded database reached through another process's socket): the idle look is then the bound.
 */
export async function listenForQueuedDeliveries(onQueued: () => void, onListening: () => void): Promise<(() => Promise<void>) | undefined> {
  const handle = await databaseHandle();
  if (!handle.listen) return undefined;
  return handle.listen(DELIVERIES_CHANNEL, onQueued, onListening);
}

/**
 * Records the alert and one delivery per channel, but only if its condition has not alerted within
 * the repeat interval (claimCondition). Returns the new deliveries (none when the condition was
 * already alerted). `written` runs in the same transaction once they are (an audit row).
 */
export async function enqueueAlert(
  alert: Alert,
  channels: AlertChannel[],
  settings: Pick<AlertSettings, 'repeatIntervalSeconds' | 'webhook' | 'email'>,
  written?: (tx: Transaction, deliveries: AlertDelivery[]) => Promise<unknown>,
): Promise<AlertDelivery[]> {
  return (await db()).transaction(async (tx) => {
    if (!(await claimCondition(tx, alert.key, settings.repeatIntervalSeconds))) return [];
    const targets: Array<{ channel: AlertChannel; target: string }> = [];
    for (const channel of channels) {
      // A webhook's target is its description (never its token): the delivery is sent to the
      // configured URL. An e-mail's is its recipients, which its delivery sends to.
      const target =
        channel === 'webhook'
          ? settings.webhook && describeWebhookUrl(settings.webhook.url)
          : (settings.email?.to ?? (await administratorEmails(tx))).join(', ');
      if (target) targets.push({ channel, target });
    }
    if (targets.length === 0) return [];
    const payload = JSON.stringify(alert.payload);
    const deliveries = await tx
      .insert(alertDeliveries)
      .values(
        targets.map(({ channel, target }) => ({
          alertId: alert.payload.id,
          condition: alert.condition,
          integrationId: alert.integrationId,
          source: alert.source,
          channel,
          target,
          payload,
        })),
      )
      .returning();
    await written?.(tx, deliveries);
    await announceDeliveries(tx);
    return deliveries;
  });
}

/**
 * The same outbox for deliveries whose recipients the caller decides (the integrator
 * notifications, lib/reactions/integrator-notifications): written only if `key` has not been claimed within
 * `intervalSeconds`, across every instance. `deliveries` runs inside the transaction, after the
 * claim, so recipients are read once the condition is known to be new. Returns the new rows.
 */
export async function enqueueDeliveries(
  key: string,
  intervalSeconds: number,
  deliveries: (tx: Transaction) => Promise<NewAlertDelivery[]>,
): Promise<AlertDelivery[]> {
  return (await db()).transaction(async (tx) => {
    if (!(await claimCondition(tx, key, intervalSeconds))) return [];
    const rows = await deliveries(tx);
    if (rows.length === 0) return [];
    const written = await tx.insert(alertDeliveries).values(rows).returning();
    // Not for rows written already settled (an e-mail with no mail server is listed as not sent).
    if (written.some((row) => row.status === 'pending')) await announceDeliveries(tx);
    return written;
  });
}

/**
 * Claims a condition for this interval: the upsert moves last_sent_at forward only when it is
 * older than the interval, and returns a row only when it did, so among instances racing on the
 * same condition one wins.
 */
async function claimCondition(tx: Transaction, key: string, intervalSeconds: number): Promise<boolean> {
  const claimed = await tx
    .insert(alertConditions)
    .values({ key, lastSentAt: sql`now()` })
    .onConflictDoUpdate({
      target: alertConditions.key,
      set: { lastSentAt: sql`excluded.last_sent_at` },
      setWhere: sql`${alertConditions.lastSentAt} <= now() - make_interval(secs => ${intervalSeconds}::double precision)`,
    })
    .returning({ key: alertConditions.key });
  return claimed.length > 0;
}

export type Transaction = Parameters<Parameters<Awaited<ReturnType<typeof db>>['transaction']>[0]>[0];

/** ALERT_EMAIL_TO unset: the active console administrators, as they are when the alert is raised. */
async function administratorEmails(tx: Transaction): Promise<string[]> {
  const rows = await tx
    .select({ email: consoleUsers.email })
    .from(consoleUsers)
    .where(and(eq(consoleUsers.role, 'admin'), eq(consoleUsers.active, true)))
    .orderBy(asc(consoleUsers.id));
  return rows.map((row) => row.email);
}

/**
 * Takes up to `limit` due deliveries for this instance: their next attempt moves to the end of a
 * lease, so no other instance tries them meanwhile (SKIP LOCKED: instances never wait on each
 * other), and one whose instance died is tried again once the lease has passed.
 */
export async function takeDueDeliveries(limit: number, leaseMs: number): Promise<AlertDelivery[]> {
  const database = await db();
  const due = database
    .select({ id: alertDeliveries.id })
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.status, 'pending'), lte(alertDeliveries.nextAttemptAt, sql`now()`)))
    .orderBy(asc(alertDeliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return database
    .update(alertDeliveries)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseMs / 1000}::double precision)`, updatedAt: sql`now()` })
    .where(inArray(alertDeliveries.id, due))
    .returning();
}

/** When the next pending delivery is due (null: none is pending). */
export async function nextDueAt(): Promise<Date | null> {
  const [row] = await (await db())
    .select({ at: min(alertDeliveries.nextAttemptAt) })
    .from(alertDeliveries)
    .where(eq(alertDeliveries.status, 'pending'));
  return row?.at ? new Date(row.at) : null;
}

/**
 * Writes one attempt and its consequence: sent; or pending again after the backoff; or failed for
 * good once ALERT_MAX_ATTEMPTS attempts have failed.
 */
export async function recordAttempt(
  delivery: AlertDelivery,
  outcome: AttemptOutcome,
  durationMs: number,
  settings: Pick<AlertSettings, 'maxAttempts' | 'retryBaseMs'>,
): Promise<AlertDelivery['status']> {
  const attempt = delivery.attempts + 1;
  const status = outcome.ok ? 'sent' : outcome.final || attempt >= settings.maxAttempts ? 'failed' : 'pending';
  const retryInSeconds = status === 'pending' ? retryDelayMs(settings, attempt) / 1000 : 0;
  await (await db()).transaction(async (tx) => {
    await tx.insert(alertDeliveryAttempts).values({
      deliveryId: delivery.id,
      attempt,
      responseStatus: outcome.responseStatus,
      error: outcome.error,
      durationMs: Math.round(durationMs),
    });
    await tx
      .update(alertDeliveries)
      .set({
        attempts: attempt,
        status,
        nextAttemptAt: sql`now() + make_interval(secs => ${retryInSeconds}::double precision)`,
        lastResponseStatus: outcome.responseStatus,
        // A success keeps the last failure's reason: the page shows why it took retries.
        ...(outcome.ok ? { sentAt: sql`now()` } : { lastError: outcome.error }),
        updatedAt: sql`now()`,
      })
      .where(eq(alertDeliveries.id, delivery.id));
  });
  return status;
}
