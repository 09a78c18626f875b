import { and, eq } from 'drizzle-orm';
import { fetch as undiciFetch } from 'undici';
import { db } from '@/db/client';
import { integrationNotificationOptOuts, integrations, type AlertDelivery, type NewAlertDelivery } from '@/db/schema';
import { sendWebhook } from '@/lib/reactions/alerts/channels';
import type { AttemptOutcome } from '@/lib/platform/http/delivery-attempt';
import { sendMail, type Mail } from '@/lib/platform/mail/smtp';
import type { BalanceSnapshot } from '@/lib/reactions/alerts/conditions';
import type { AlertDispatcher } from '@/lib/reactions/alerts/dispatcher';
import { enqueueDeliveries } from '@/lib/reactions/alerts/outbox';
import { maskWebhookUrl, withoutUrlSecrets } from '@/lib/platform/security/outbound-urls';
import { logger } from '@/lib/platform/logging/logger';
import { open } from '@/lib/core/sealing/envelope';
import { EMAIL_NOT_CONFIGURED_REASON } from '@/lib/reactions/alerts/email-status';
import { notificationMail } from './email';
import { NOTIFICATIONS } from './kinds';
import { balanceNotification } from './kinds/balance';
import type { IntegratorNotification, NotificationDraft } from './kinds/notice';
import { notificationSettings, type NotificationSettings } from './settings';
import { checkedDispatcher, webhookTargetProblem, type Resolver } from './targets';
import { processSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

const log = logger('integrator-notifications');

/** Finds what an e-mail attaches (its kind's attachments: a statement's PDF, an invoice's). */
export type AttachmentLoader = (delivery: AlertDelivery, notification: IntegratorNotification) => Promise<Mail['attachments']>;

/**
 * Tells integrators, through the administrators' outbox (lib/reactions/alerts/outbox.ts): a condition is
 * claimed once per interval across instances, one delivery is written per recipient that has not
 * turned the kind off, and the alerts' delivery loop sends them with its retries and recorded
 * attempts, calling send() for each.
 */
export class IntegratorNotifier {
  /** Conditions this process queued lately: a low balance seen on every settlement costs no write. */
  private readonly notedAt = new Map<string, number>();
  private readonly dispatcher;
  private wake: () => void = () => undefined;
  private readonly attachedTo = new WeakSet<AlertDispatcher>();
  attachments: AttachmentLoader = notificationAttachment;

  constructor(
    readonly settings: NotificationSettings,
    resolve?: Resolver,
  ) {
    this.dispatcher = checkedDispatcher(settings.targets, resolve);
  }

  /** Joins the alerts' dispatcher: it delivers the integrators' rows and passes on the balances it sees. */
  attachTo(alerts: AlertDispatcher): void {
    // Once per dispatcher: a second start-up in one process (development's reloads) adds nothing.
    if (this.attachedTo.has(alerts)) return;
    this.attachedTo.add(alerts);
    alerts.deliverFor('integrator', (delivery) => this.send(delivery));
    alerts.observeBalances((snapshot) => this.noteBalance(snapshot));
    this.wake = () => alerts.wakeNow();
  }

  /** A balance after a change: low or exhausted tells the billing contact. Never throws. */
  async noteBalance(snapshot: BalanceSnapshot): Promise<void> {
    try {
      const draft = balanceNotification(snapshot, this.settings);
      if (!draft) return;
      const now = Date.now();
      const last = this.notedAt.get(draft.key);
      if (last !== undefined && now - last < this.settings.repeatIntervalSeconds * 1000) return;
      this.notedAt.set(draft.key, now);
      if (this.notedAt.size > 10_000) this.notedAt.clear();
      await this.record(draft).catch((error: unknown) => {
        this.notedAt.delete(draft.key);
        throw error;
      });
    } catch (error) {
      log.error({ err: error, integrationId: snapshot.integrationId }, 'queuing a balance notification failed');
    }
  }

  /** Queues the notification unless its condition was notified within its interval; returns the deliveries written. */
  async record(draft: NotificationDraft): Promise<AlertDelivery[]> {
    const rows = await this.queue(draft.key, draft.intervalSeconds ?? this.settings.repeatIntervalSeconds, (tx) => this.deliveriesOf(draft, tx));
    if (rows.length > 0) {
      log.info({ integrationId: draft.integrationId, kind: draft.kind, notificationId: draft.payload.id, channels: rows.map((row) => row.channel) }, 'integrator notification queued');
    }
    return rows;
  }

  /** Writes deliveries through the outbox's claim of `key` (see enqueueDeliveries) and has the delivery loop look at once. */
  async queue(key: string, intervalSeconds: number, deliveries: Parameters<typeof enqueueDeliveries>[2]): Promise<AlertDelivery[]> {
    const rows = await enqueueDeliveries(key, intervalSeconds, deliveries);
    if (rows.length > 0) this.wake();
    return rows;
  }

  private async deliveriesOf(draft: NotificationDraft, tx: Parameters<Parameters<typeof enqueueDeliveries>[2]>[0]): Promise<NewAlertDelivery[]> {
    const [integration] = await tx.select().from(integrations).where(eq(integrations.id, draft.integrationId));
    if (!integration) return [];
    const optedOut = new Set(
      (
        await tx
          .select({ recipient: integrationNotificationOptOuts.recipient })
          .from(integrationNotificationOptOuts)
          .where(and(eq(integrationNotificationOptOuts.integrationId, integration.id), eq(integrationNotificationOptOuts.kind, draft.kind)))
      ).map((row) => row.recipient),
    );
    const common = {
      alertId: draft.payload.id,
      condition: draft.kind,
      integrationId: integration.id,
      source: typeof draft.payload.datos.fuente_id === 'string' ? draft.payload.datos.fuente_id : null,
      audience: 'integrator' as const,
      payload: JSON.stringify(draft.payload),
    };
    const kind = NOTIFICATIONS.find(draft.kind)!;
    const email = kind.contact === 'billing' ? integration.billingContactEmail : integration.technicalContactEmail;
    // Without a mail server an e-mail is still listed, as not sent and why, never silently dropped.
    const emailTo = (target: string): NewAlertDelivery => ({
      ...common,
      channel: 'email',
      recipient: kind.contact,
      target,
      ...(this.settings.email ? {} : { status: 'not_sent', lastError: EMAIL_NOT_CONFIGURED_REASON }),
    });
    const rows: NewAlertDelivery[] = [];
    if (!optedOut.has(kind.contact)) {
      if (email) rows.push(emailTo(email));
      // The copies its kind sends (an owner's, the invoices' address): the contact's own address only once.
      for (const copy of (await kind.alsoEmailed?.(integration, tx)) ?? []) if (copy.toLowerCase() !== email?.toLowerCase()) rows.push(emailTo(copy));
    }
    if (integration.notificationWebhookUrl && !optedOut.has('webhook')) {
      rows.push({ ...common, channel: 'webhook', recipient: 'webhook', target: maskWebhookUrl(integration.notificationWebhookUrl) });
    }
    return rows;
  }

  /** One attempt at one delivery (the alerts' loop calls it and records the outcome). */
  async send(delivery: AlertDelivery): Promise<AttemptOutcome> {
    const notification = JSON.parse(delivery.payload) as IntegratorNotification;
    const [integration] = await (await db()).select().from(integrations).where(eq(integrations.id, delivery.integrationId!));
    if (!integration) return { ok: false, responseStatus: null, error: 'la integración ya no existe', final: true };
    if (delivery.channel === 'email') {
      if (!this.settings.email) return { ok: false, responseStatus: null, error: 'el correo (ALERT_SMTP_HOST) ya no está configurado en esta instancia' };
      const contact = delivery.recipient === 'billing' ? 'billing' : 'technical';
      // An owner's copy or the invoices' address (another address than the contact's) is greeted without the contact's name.
      const contactEmail = contact === 'billing' ? integration.billingContactEmail : integration.technicalContactEmail;
      const name = delivery.target !== contactEmail ? null : contact === 'billing' ? integration.billingContactName : integration.technicalContactName;
      const attachments = await this.attachments(delivery, notification);
      return sendMail(this.settings.email, notificationMail(notification, { email: delivery.target, name, contact }, attachments));
    }
    // The webhook as it is now: one removed since is not called, one changed gets the notification.
    const url = integration.notificationWebhookUrl;
    const sealedSecret = integration.notificationWebhookSecretSealed;
    if (!url || !sealedSecret) return { ok: false, responseStatus: null, error: 'la integración ya no tiene webhook', final: true };
    const problem = webhookTargetProblem(url, this.settings.targets);
    if (problem) return { ok: false, responseStatus: null, error: `destino rechazado: ${problem}`, final: true };
    const outcome = await sendWebhook({ url, secret: open(sealedSecret, 'webhook_secret'), timeoutMs: this.settings.webhookTimeoutMs }, notification.id, delivery.payload, {
      fetch: undiciFetch as never,
      dispatcher: this.dispatcher,
      userAgent: 'pasarela-consultas-avisos/1',
    });
    if (outcome.error === null) return outcome;
    // The address the name resolved to was refused (targets.ts): no retry will change that soon.
    const refused = outcome.error.includes('EWEBHOOKTARGET');
    return { ...outcome, error: withoutUrlSecrets(outcome.error.replace('EWEBHOOKTARGET: ', ''), url), final: refused || outcome.final };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** What a notice's e-mail attaches, as its kind says (kinds/). */
async function notificationAttachment(delivery: AlertDelivery, notification: IntegratorNotification): Promise<Mail['attachments']> {
  return (await NOTIFICATIONS.find(delivery.condition)?.attachments?.(notification)) ?? [];
}

const createIntegratorNotifier = () => new IntegratorNotifier(notificationSettings());

/** The process's notifier, built from the settings on first use. */
export function integratorNotifier(): IntegratorNotifier {
  return processSlot('integratorNotifier', createIntegratorNotifier);
}

/** Replaces the process's notifier (tests). */
export function setIntegratorNotifier(notifier: IntegratorNotifier | undefined): void {
  setProcessSlot('integratorNotifier', notifier);
}
