import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { alertDeliveries, integrationNotificationOptOuts, integrations, NOTIFICATION_RECIPIENTS, type AlertDelivery, type NotificationRecipient } from '@/db/schema';
import { maskWebhookUrl, withoutUrlSecrets } from '@/lib/platform/security/outbound-urls';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { seal } from '@/lib/core/sealing/envelope';
import { NOTIFICATIONS } from './kinds';
import type { IntegratorNotification, NotificationKind } from './kinds/notice';
import type { NotificationRegistry } from './kinds/register';
import { webhookTargetProblem, type TargetPolicy } from './targets';

// What the console changes and shows: the integration's webhook (its secret shown once, at
// creation), which recipient gets which kind, and the notifications sent.

export type PreferenceResult<T> = { ok: true; value: T } | { ok: false; error: { code: 'invalid' | 'not_found'; message: string } };

/**
 * Sets the integration's webhook URL with a new signing secret, returned once to be shown once:
 * it is stored sealed with the personal-data key and never shown again (a lost one is replaced by
 * setting the webhook again). Audited as the URL is read back (maskWebhookUrl: its query and user
 * part masked), never with the signing secret.
 */
export async function setNotificationWebhook(actor: Actor, integrationId: number, url: string, policy: TargetPolicy): Promise<PreferenceResult<{ secret: string; saved: string }>> {
  const trimmed = url.trim();
  const problem = webhookTargetProblem(trimmed, policy);
  if (problem) return { ok: false, error: { code: 'invalid', message: `La URL del webhook ${problem}.` } };
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  return (await db()).transaction(async (tx) => {
    const [current] = await tx.select().from(integrations).where(eq(integrations.id, integrationId)).for('update');
    if (!current) return { ok: false, error: { code: 'not_found', message: 'La integración no existe.' } };
    await tx
      .update(integrations)
      .set({ notificationWebhookUrl: trimmed, notificationWebhookSecretSealed: seal(secret, 'webhook_secret'), updatedAt: sql`now()` })
      .where(eq(integrations.id, integrationId));
    await writeAudit(tx, actor, {
      action: 'integration.set_notification_webhook',
      targetType: 'integration',
      targetId: integrationId,
      before: { webhook: current.notificationWebhookUrl && maskWebhookUrl(current.notificationWebhookUrl) },
      after: { webhook: maskWebhookUrl(trimmed) },
    });
    return { ok: true, value: { secret, saved: maskWebhookUrl(trimmed) } };
  });
}

export async function removeNotificationWebhook(actor: Actor, integrationId: number): Promise<PreferenceResult<{ removed: boolean }>> {
  return (await db()).transaction(async (tx) => {
    const [current] = await tx.select().from(integrations).where(eq(integrations.id, integrationId)).for('update');
    if (!current) return { ok: false, error: { code: 'not_found', message: 'La integración no existe.' } };
    if (!current.notificationWebhookUrl) return { ok: true, value: { removed: false } };
    await tx
      .update(integrations)
      .set({ notificationWebhookUrl: null, notificationWebhookSecretSealed: null, updatedAt: sql`now()` })
      .where(eq(integrations.id, integrationId));
    await writeAudit(tx, actor, {
      action: 'integration.remove_notification_webhook',
      targetType: 'integration',
      targetId: integrationId,
      before: { webhook: maskWebhookUrl(current.notificationWebhookUrl) },
      after: { webhook: null },
    });
    return { ok: true, value: { removed: true } };
  });
}

/** The kinds each recipient may turn off (a contact only its own kinds; the webhook every kind); those always sent are not among them. */
export function kindsFor(recipient: NotificationRecipient): NotificationKind[] {
  return NOTIFICATIONS.switchable(recipient);
}

export type OptOutKey = `${NotificationRecipient}:${NotificationKind}`;

export interface NotificationSwitch {
  recipient: NotificationRecipient;
  kind: string;
  /** The kind's name (its file's label). */
  label: string;
  enabled: boolean;
}

/** Notificaciones' switches, the console's and the portal's: per recipient, each kind it may turn off, on unless `optOuts` has it. */
export function notificationSwitches(optOuts: ReadonlySet<string>, registry: NotificationRegistry = NOTIFICATIONS): Array<{ recipient: NotificationRecipient; rows: NotificationSwitch[] }> {
  return NOTIFICATION_RECIPIENTS.map((recipient) => ({
    recipient,
    rows: registry.switchable(recipient).map((kind) => ({ recipient, kind, label: registry.label[kind]!, enabled: !optOuts.has(`${recipient}:${kind}`) })),
  }));
}

export async function notificationOptOuts(integrationId: number): Promise<Set<OptOutKey>> {
  const rows = await (await db()).select().from(integrationNotificationOptOuts).where(eq(integrationNotificationOptOuts.integrationId, integrationId));
  return new Set(rows.map((row) => `${row.recipient}:${row.kind}` as OptOutKey));
}

/**
 * Replaces the integration's opt-outs with `enabled`'s complement: every (recipient, kind) not in
 * `enabled` is turned off. Audited with the turned-off pairs before and after.
 */
export async function setNotificationOptOuts(actor: Actor, integrationId: number, enabled: ReadonlySet<string>): Promise<PreferenceResult<{ changed: boolean }>> {
  const off = NOTIFICATION_RECIPIENTS.flatMap((recipient) =>
    kindsFor(recipient).flatMap((kind) => (enabled.has(`${recipient}:${kind}`) ? [] : [{ recipient, kind }])),
  );
  return (await db()).transaction(async (tx) => {
    const [current] = await tx.select({ id: integrations.id }).from(integrations).where(eq(integrations.id, integrationId)).for('update');
    if (!current) return { ok: false, error: { code: 'not_found', message: 'La integración no existe.' } };
    const before = (await tx.select().from(integrationNotificationOptOuts).where(eq(integrationNotificationOptOuts.integrationId, integrationId)))
      .map((row) => `${row.recipient}:${row.kind}`)
      .sort();
    const after = off.map(({ recipient, kind }) => `${recipient}:${kind}`).sort();
    if (before.join() === after.join()) return { ok: true, value: { changed: false } };
    await tx.delete(integrationNotificationOptOuts).where(eq(integrationNotificationOptOuts.integrationId, integrationId));
    if (off.length > 0) await tx.insert(integrationNotificationOptOuts).values(off.map((pair) => ({ integrationId, ...pair })));
    await writeAudit(tx, actor, {
      action: 'integration.set_notification_opt_outs',
      targetType: 'integration',
      targetId: integrationId,
      before: { desactivados: before },
      after: { desactivados: after },
    });
    return { ok: true, value: { changed: true } };
  });
}

/** Turns one recipient's kind on or off (the console's switches), audited as a whole like setNotificationOptOuts. */
export async function setNotificationEnabled(
  actor: Actor,
  integrationId: number,
  recipient: NotificationRecipient,
  kind: NotificationKind,
  enabled: boolean,
): Promise<PreferenceResult<{ changed: boolean }>> {
  if (!kindsFor(recipient).includes(kind)) return { ok: false, error: { code: 'invalid', message: 'Ese aviso no es para ese destinatario.' } };
  const off = await notificationOptOuts(integrationId);
  const on = new Set(NOTIFICATION_RECIPIENTS.flatMap((each) => kindsFor(each).map((eachKind) => `${each}:${eachKind}`)).filter((key) => !off.has(key as OptOutKey)));
  if (enabled) on.add(`${recipient}:${kind}`);
  else on.delete(`${recipient}:${kind}`);
  return setNotificationOptOuts(actor, integrationId, on);
}

export interface NotificationRow extends Omit<AlertDelivery, 'payload'> {
  title: string;
  /** The notice as sent, indented for reading: the same fields as the signed bytes. */
  payloadJson: string;
}

/** The integration's latest notifications, newest first (each delivery: recipient, state, attempts). */
export async function recentNotifications(integrationId: number, limit = 20): Promise<NotificationRow[]> {
  const rows = await (await db())
    .select()
    .from(alertDeliveries)
    .where(and(eq(alertDeliveries.audience, 'integrator'), eq(alertDeliveries.integrationId, integrationId)))
    .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
    .limit(limit);
  return rows.map(({ payload, ...row }) => {
    const notification = JSON.parse(payload) as Partial<IntegratorNotification>;
    return {
      ...row,
      lastError: row.lastError === null ? null : withoutUrlSecrets(row.lastError),
      title: notification.titulo ?? '',
      payloadJson: JSON.stringify(notification, null, 2),
    };
  });
}
