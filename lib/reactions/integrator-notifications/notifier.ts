import type { SaleAwaitingReceptor } from '@/lib/core/billing/events';
import { and, eq, isNull } from 'drizzle-orm';
import { fetch as undiciFetch } from 'undici';
import { db } from '@/db/client';
import { integrationNotificationOptOuts, integrations, portalUsers, type AlertDelivery, type NewAlertDelivery } from '@/db/schema';
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
import {
  allowListChangedNotification,
  balanceNotification,
  invoiceIssuedNotification,
  KIND_CONTACT,
  statementNotification,
  lookupsChangedNotification,
  tariffChangedNotification,
  tokenCreatedNotification,
  topUpApprovedNotification,
  topUpRejectedNotification,
  onlineTopUpCreditedNotification,
  onlineTopUpExpiredNotification,
  autoTopUpPausedNotification,
  invoiceAwaitingReceptorNotification,
  type DecidedTopUp,
  tokenRevokedNotification,
  tokenRotatedNotification,
  type ChangedBy,
  type IntegratorNotification,
  type IssuedStatement,
  type NotificationDraft,
  type TokenFacts,
} from './kinds';
import type { SettledOnlineTopUp } from '@/lib/flows/online-top-ups/events';
import type { PausedAutoTopUp } from '@/lib/flows/auto-top-ups/events';
import { notificationSettings, type NotificationSettings } from './settings';
import { checkedDispatcher, webhookTargetProblem, type Resolver } from './targets';
import { findStatement } from '@/lib/flows/statements/statements';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { findCertifiedInvoice } from '@/lib/core/invoices/documents';
import { invoiceFileName, invoicePdf } from '@/lib/flows/invoicing/documents';
import { processSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

const log = logger('integrator-notifications');

/** Finds what an e-mail attaches (the statement's PDF); registered by the statements' slice. */
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

  /**
   * A token just revoked (lib/flows/integration-management/tokens.ts calls this after the revocation commits; the
   * CLI's too: the server delivers). Never throws: a notification never fails the revocation.
   */
  async noteTokenRevoked(integration: { id: number; nombre: string }, token: TokenFacts & { revokedAt: Date }): Promise<void> {
    try {
      await this.record(tokenRevokedNotification(integration, token, this.settings));
    } catch (error) {
      log.error({ err: error, integrationId: integration.id }, 'queuing a token revocation notification failed');
    }
  }

  /**
   * A token just created, or rotated (lib/flows/integration-management/tokens.ts, after the change commits), or the
   * allow-list just replaced (lib/flows/integration-management/service.ts), from the portal, the console or the CLI.
   * Never throws: a notification never fails the change it tells of.
   */
  async noteTokenCreated(integration: { id: number; nombre: string }, token: TokenFacts & { createdAt: Date }, by: ChangedBy): Promise<void> {
    await this.recordQuietly(integration.id, 'a token creation', () => tokenCreatedNotification(integration, token, by, this.settings));
  }

  async noteTokenRotated(integration: { id: number; nombre: string }, rotation: { replaced: TokenFacts; token: TokenFacts }, by: ChangedBy): Promise<void> {
    await this.recordQuietly(integration.id, 'a token rotation', () => tokenRotatedNotification(integration, rotation, by, this.settings));
  }

  async noteAllowListChanged(integration: { id: number; nombre: string }, change: { allowedNetworks: string[]; changedAt: Date }, by: ChangedBy): Promise<void> {
    await this.recordQuietly(integration.id, 'an allow-list change', () => allowListChangedNotification(integration, change, by, this.settings));
  }

  /**
   * The tariff or the lookups enabled, just changed by an administrator (lib/flows/integration-management/service.ts,
   * after the change commits; the console and the CLI both call it). Never throws.
   */
  async noteTariffChanged(integration: { id: number; nombre: string }, change: { previousCentavos: number; tariffCentavos: number; changedAt: Date }): Promise<void> {
    await this.recordQuietly(integration.id, 'a tariff change', () => tariffChangedNotification(integration, change, this.settings));
  }

  async noteLookupsChanged(integration: { id: number; nombre: string }, change: { enabled: string[]; disabled: string[]; changedAt: Date }): Promise<void> {
    await this.recordQuietly(integration.id, 'a change of the lookups enabled', () => lookupsChangedNotification(integration, change, this.settings));
  }

  async noteTopUpApproved(integration: { id: number; nombre: string }, request: DecidedTopUp, balanceCentavos: number): Promise<void> {
    await this.recordQuietly(integration.id, 'a top-up approval', () => topUpApprovedNotification(integration, request, balanceCentavos, this.settings));
  }

  async noteTopUpRejected(integration: { id: number; nombre: string }, request: DecidedTopUp): Promise<void> {
    await this.recordQuietly(integration.id, 'a top-up rejection', () => topUpRejectedNotification(integration, request, this.settings));
  }

  async noteOnlineTopUpCredited(integration: { id: number; nombre: string }, payment: SettledOnlineTopUp, balanceCentavos: number): Promise<void> {
    await this.recordQuietly(integration.id, 'an online top-up credit', () => onlineTopUpCreditedNotification(integration, payment, balanceCentavos, this.settings));
  }

  async noteOnlineTopUpExpired(integration: { id: number; nombre: string }, payment: SettledOnlineTopUp): Promise<void> {
    await this.recordQuietly(integration.id, 'an online top-up expiry', () => onlineTopUpExpiredNotification(integration, payment, this.settings));
  }

  async noteAutoTopUpPaused(paused: PausedAutoTopUp): Promise<void> {
    await this.recordQuietly(paused.integration.id, 'an automatic top-up pause', () => autoTopUpPausedNotification(paused, this.settings));
  }

  async noteInvoiceAwaitingReceptor(sale: SaleAwaitingReceptor): Promise<void> {
    await this.recordQuietly(sale.integration.id, 'an invoice awaiting the NIT', () => invoiceAwaitingReceptorNotification(sale, this.settings));
  }

  private async recordQuietly(integrationId: number, what: string, build: () => NotificationDraft): Promise<void> {
    try {
      await this.record(build());
    } catch (error) {
      log.error({ err: error, integrationId }, `queuing the notification of ${what} failed`);
    }
  }

  /** A statement just issued (lib/flows/statements/statements.ts). Never throws: it never fails the issue. */
  async noteStatementIssued(integration: { id: number; nombre: string }, statement: IssuedStatement, monthLabel: string): Promise<void> {
    try {
      await this.record(statementNotification(integration, statement, monthLabel, this.settings));
    } catch (error) {
      log.error({ err: error, integrationId: integration.id }, 'queuing a statement notification failed');
    }
  }

  /**
   * A top-up's invoice just certified (lib/flows/invoicing/worker.ts, by the claim that wrote it).
   * Keyed by the invoice: told once however often it is heard. Throws when it could not queue: the
   * worker leaves the invoice untold and tells it again.
   */
  async noteInvoiceIssued(invoiceId: number, integrationId: number): Promise<void> {
    const [invoice, [integration]] = await Promise.all([
      findCertifiedInvoice(invoiceId, integrationId),
      (await db()).select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, integrationId)),
    ]);
    if (!invoice || !integration) return;
    await this.record(invoiceIssuedNotification(integration, invoice, this.settings));
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
    const contact = KIND_CONTACT[draft.kind];
    const email = contact === 'billing' ? integration.billingContactEmail : integration.technicalContactEmail;
    const rows: NewAlertDelivery[] = [];
    if (email && !optedOut.has(contact)) {
      // Without a mail server the e-mail is still listed, as not sent and why, never silently dropped.
      rows.push({ ...common, channel: 'email', recipient: contact, target: email, ...(this.settings.email ? {} : { status: 'not_sent', lastError: EMAIL_NOT_CONFIGURED_REASON }) });
    }
    if (draft.kind === 'auto_top_up_paused' && !optedOut.has(contact)) {
      // Only an owner can turn automatic top-up back on: each one is e-mailed too, as the billing contact's copy.
      const owners = await tx
        .select({ email: portalUsers.email })
        .from(portalUsers)
        .where(and(eq(portalUsers.integrationId, integration.id), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)));
      for (const owner of owners) {
        if (owner.email.toLowerCase() === email?.toLowerCase()) continue;
        rows.push({ ...common, channel: 'email', recipient: contact, target: owner.email, ...(this.settings.email ? {} : { status: 'not_sent', lastError: EMAIL_NOT_CONFIGURED_REASON }) });
      }
    }
    if (draft.kind === 'invoice_issued' && integration.invoiceEmail && integration.invoiceEmail.toLowerCase() !== email?.toLowerCase() && !optedOut.has(contact)) {
      // The billing profile's address for invoices gets each certified invoice too (its XML and PDF attached).
      rows.push({ ...common, channel: 'email', recipient: contact, target: integration.invoiceEmail, ...(this.settings.email ? {} : { status: 'not_sent', lastError: EMAIL_NOT_CONFIGURED_REASON }) });
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

/** What a notice's e-mail attaches: a statement's PDF, or an invoice's. */
async function notificationAttachment(delivery: AlertDelivery, notification: IntegratorNotification): Promise<Mail['attachments']> {
  if (delivery.condition === 'invoice_issued') return invoiceAttachment(notification);
  return statementAttachment(delivery, notification);
}

/** The invoice's PDF, rendered at delivery from the stored invoice (the same bytes as the portal's download). */
async function invoiceAttachment(notification: IntegratorNotification): Promise<Mail['attachments']> {
  const invoice = await findCertifiedInvoice(Number(notification.datos.factura_id), notification.integracion.id);
  if (!invoice) throw new Error(`la factura ${String(notification.datos.factura_id)} ya no está certificada`);
  const pdf = await invoicePdf(invoice);
  // Without the issuer's settings (FEL turned off since) the notice goes without its PDF: the portal has it.
  return pdf ? [{ filename: invoiceFileName(invoice, 'pdf'), content: pdf, contentType: 'application/pdf' }] : [];
}

/** The statement's PDF, rendered at delivery from the stored statement (the same bytes as the console's download). */
async function statementAttachment(delivery: AlertDelivery, notification: IntegratorNotification): Promise<Mail['attachments']> {
  if (delivery.condition !== 'statement_issued') return [];
  const month = String(notification.datos.periodo);
  const statement = await findStatement(notification.integracion.id, month);
  if (!statement) throw new Error(`el estado de cuenta ${month} ya no existe`);
  const pdf = await renderStatementPdf(statement, notification.servicio, await statementInvoices(statement));
  return [{ filename: `estado-de-cuenta-${notification.integracion.nombre}-${month}.pdf`, content: pdf, contentType: 'application/pdf' }];
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
