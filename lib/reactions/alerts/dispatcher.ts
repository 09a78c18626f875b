import type { BooksDoNotClose, SaleAwaitingReceptor } from '@/lib/core/billing/events';
import type { MismatchedOnlinePayment } from '@/lib/flows/online-top-ups/events';
import { LEDGER_DIFFERENCE_LABELS } from '@/lib/presentation/labels';
import type { AlertAudience, AlertDelivery, Integration } from '@/db/schema';
import { logger } from '@/lib/platform/logging/logger';
import type { SourceGuard, SourceName } from '@/lib/sources/guard';
import type { AttemptOutcome } from '@/lib/platform/http/delivery-attempt';
import { sendEmail, sendWebhook } from './channels';
import { balanceAlert, booksDoNotCloseAlert, breakerAlert, certifierCredentialsAlert, invoiceAwaitingReceptorAlert, paymentMismatchAlert, type Alert, type AlertPayload, type BalanceSnapshot } from './conditions';
import { enqueueAlert, listenForQueuedDeliveries, nextDueAt, recordAttempt, takeDueDeliveries } from './outbox';
import { alertSettings, enabledChannels, type AlertSettings } from './settings';
import { withoutUrlSecrets } from '@/lib/platform/security/outbound-urls';
import { runAsJob } from '@/lib/platform/jobs/context';
import { processSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

const log = logger('alerts');
/**
 * How often an idle instance looks for deliveries left behind (an instance that died holding them)
 * or announced while it was not listening; those another process queues are announced at once.
 */
const IDLE_POLL_MS = 30_000;
const BATCH = 10;

export type ChannelSender = (delivery: AlertDelivery, payload: AlertPayload) => Promise<AttemptOutcome>;
/** Sends one delivery of another audience than the administrators (its payload is its own). */
export type AudienceSender = (delivery: AlertDelivery) => Promise<AttemptOutcome>;
/** Told of every balance the alerts see (the integrator notifications are). May write; never throws. */
export type BalanceObserver = (snapshot: BalanceSnapshot) => Promise<void>;

/**
 * Raises alerts and delivers them, off the request path. raise() is what the lookups call: it
 * returns at once and never throws; the alert is written (if its condition has not alerted within
 * ALERT_REPEAT_INTERVAL_MINUTES, across every instance) and then sent by the delivery loop, which
 * retries with exponential backoff and records every attempt.
 */
export class AlertDispatcher {
  readonly channels;
  /** Conditions this process raised lately: a low balance seen on every settlement costs no write. */
  private readonly raisedAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private delivering: Promise<void> | undefined;
  private again = false;
  private readonly audienceSenders = new Map<Exclude<AlertAudience, 'administrators'>, AudienceSender>();
  private readonly balanceObservers: BalanceObserver[] = [];
  /** Listening for deliveries other processes queue: the promise of the function that stops it. */
  private listening: Promise<(() => Promise<void>) | undefined> | undefined;

  constructor(
    readonly settings: AlertSettings,
    private readonly senders: Record<AlertDelivery['channel'], ChannelSender> = defaultSenders(settings),
  ) {
    this.channels = enabledChannels(settings);
  }

  get enabled(): boolean {
    return this.channels.length > 0;
  }

  /**
   * Delivers another audience's rows from the same outbox, with the same retries and attempts
   * (lib/reactions/integrator-notifications registers the integrators' at start-up).
   */
  deliverFor(audience: Exclude<AlertAudience, 'administrators'>, sender: AudienceSender): void {
    this.audienceSenders.set(audience, sender);
  }

  /** Balances seen by noteBalance and recordBalance are passed on to `observer` too. */
  observeBalances(observer: BalanceObserver): void {
    this.balanceObservers.push(observer);
  }

  /** Something queued deliveries outside raise(): the loop looks now rather than at its next poll. */
  wakeNow(): void {
    if (this.started) this.wake(0);
  }

  /** The hot path's call: synchronous, never throws, no I/O before it returns. */
  raise(alert: Alert | null): void {
    if (!alert || !this.enabled) return;
    const now = Date.now();
    const last = this.raisedAt.get(alert.key);
    if (last !== undefined && now - last < this.settings.repeatIntervalSeconds * 1000) return;
    this.raisedAt.set(alert.key, now);
    if (this.raisedAt.size > 10_000) this.raisedAt.clear();
    this.record(alert).catch((error: unknown) => {
      this.raisedAt.delete(alert.key);
      log.error({ err: error, condition: alert.key }, 'recording an alert failed');
    });
  }

  /** Writes the alert and its deliveries (unless its condition alerted lately); true if it did. */
  async record(alert: Alert | null): Promise<boolean> {
    if (!alert || !this.enabled) return false;
    const deliveries = await enqueueAlert(alert, this.channels, this.settings);
    if (deliveries.length === 0) return false;
    log.info({ condition: alert.key, alertId: alert.payload.id, channels: deliveries.map((delivery) => delivery.channel) }, 'alert raised');
    if (this.started) this.wake(0);
    return true;
  }

  /**
   * A balance that changed outside a lookup (an adjustment down, a tariff it no longer pays): the
   * alert is written before this resolves, so the CLI's survive its exit (the server sends them).
   * Never throws: an alert that cannot be written never fails the change that called for it.
   */
  async recordBalance(integration: Pick<Integration, 'id' | 'nombre' | 'balanceCentavos' | 'tariffCentavos' | 'lowBalanceAlertCentavos'>): Promise<void> {
    const { id: integrationId, nombre, balanceCentavos, tariffCentavos, lowBalanceAlertCentavos } = integration;
    await Promise.all(this.balanceObservers.map((observer) => observer({ integrationId, nombre, balanceCentavos, tariffCentavos, lowBalanceAlertCentavos })));
    try {
      await this.record(balanceAlert({ integrationId, nombre, balanceCentavos, tariffCentavos, lowBalanceAlertCentavos }, this.settings));
    } catch (error) {
      log.error({ err: error, integrationId }, 'recording a balance alert failed');
    }
  }

  noteBalance(snapshot: BalanceSnapshot): void {
    for (const observer of this.balanceObservers) void observer(snapshot);
    try {
      this.raise(balanceAlert(snapshot, this.settings));
    } catch (error) {
      log.error({ err: error }, 'checking a balance for alerts failed');
    }
  }

  /** Alerts when a source's circuit breaker opens (cockatiel's break, through the guard). */
  watchBreakers(guards: Record<SourceName, SourceGuard>): void {
    for (const guard of Object.values(guards)) {
      guard.onStateChange((state) => {
        if (state === 'open') this.raise(breakerAlert(guard.source, guard.health().lastError, this.settings));
      });
    }
  }

  /** Alerts, written before this resolves, when a payment does not match its checkout. Never throws. */
  async recordPaymentMismatch(payment: MismatchedOnlinePayment): Promise<void> {
    try {
      await this.record(paymentMismatchAlert(payment, this.settings));
    } catch (error) {
      log.error({ err: error, topUpId: payment.topUpId }, 'recording a payment mismatch alert failed');
    }
  }

  /** Alerts, written before this resolves, when a credited top-up's invoice waits for the NIT. Never throws. */
  async recordInvoiceAwaitingReceptor(sale: SaleAwaitingReceptor): Promise<void> {
    try {
      await this.record(invoiceAwaitingReceptorAlert(sale, this.settings));
    } catch (error) {
      log.error({ err: error, integrationId: sale.integration.id }, 'recording an invoice awaiting the NIT alert failed');
    }
  }

  /** Alerts, written before this resolves, when the reconciliation finds books that do not close. Never throws. */
  async recordBooksDoNotClose(books: BooksDoNotClose): Promise<void> {
    try {
      await this.record(booksDoNotCloseAlert(books, LEDGER_DIFFERENCE_LABELS, this.settings));
    } catch (error) {
      log.error({ err: error, runId: books.runId }, 'recording a books alert failed');
    }
  }

  /** Alerts when the FEL certifier refuses the service's credentials (the invoice worker's event). */
  noteCertifierCredentialsRefused(certifier: string, pausedUntil: Date): void {
    this.raise(certifierCredentialsAlert(certifier, pausedUntil, this.settings));
  }

  /** Starts this process's delivery loop (the server does; the CLI leaves its alerts to it). */
  start(): void {
    if (this.started || (!this.enabled && this.audienceSenders.size === 0)) return;
    this.started = true;
    this.wake(0);
    // Rows the CLI or another instance writes are sent at once, not at the next idle look. Only a
    // wake-up (never a delivery) runs in the callback: on the embedded database the CLI's statement
    // is answered once it returns (db/embedded-share.ts).
    this.listening = runAsJob('alert-deliveries', () => listenForQueuedDeliveries(() => this.wakeNow(), () => this.wakeNow())).catch((error: unknown) => {
      log.error({ err: error }, 'listening for queued deliveries failed; deliveries other processes queue wait for the idle look');
      return undefined;
    });
  }

  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    const stopListening = await this.listening;
    this.listening = undefined;
    await stopListening?.();
    await this.delivering;
  }

  /** Sends everything due now, one batch after another; resolves when none is left. */
  async deliverDue(): Promise<void> {
    for (;;) {
      const batch = await takeDueDeliveries(BATCH, this.leaseMs());
      if (batch.length === 0) return;
      await Promise.all(batch.map((delivery) => this.attempt(delivery)));
    }
  }

  private async attempt(delivery: AlertDelivery): Promise<void> {
    const startedAt = performance.now();
    const sent = await this.send(delivery).catch(
      (error: unknown): AttemptOutcome => ({ ok: false, responseStatus: null, error: error instanceof Error ? error.message : String(error) }),
    );
    // What is stored, shown on the Alertas page and logged: fetch's and undici's messages can quote
    // the URL ("…includes credentials: https://user:pass@…"), which may hold the receiver's token.
    const outcome = sent.error === null ? sent : { ...sent, error: withoutUrlSecrets(sent.error, this.settings.webhook?.url) };
    const status = await recordAttempt(delivery, outcome, performance.now() - startedAt, this.settings);
    const fields = { deliveryId: delivery.id, alertId: delivery.alertId, channel: delivery.channel, attempt: delivery.attempts + 1, status, reason: outcome.error };
    if (status === 'failed') log.error(fields, 'alert delivery failed for good');
    else if (status === 'pending') log.warn(fields, 'alert delivery failed, will retry');
  }

  private send(delivery: AlertDelivery): Promise<AttemptOutcome> {
    if (delivery.audience === 'administrators') return this.senders[delivery.channel](delivery, JSON.parse(delivery.payload) as AlertPayload);
    const sender = this.audienceSenders.get(delivery.audience);
    return sender ? sender(delivery) : Promise.resolve(notConfigured(`de ${delivery.audience}`));
  }

  /** A delivery taken by an instance that dies is tried again after this. */
  private leaseMs(): number {
    return (this.settings.webhook?.timeoutMs ?? 0) + 60_000;
  }

  private wake(delayMs: number): void {
    clearTimeout(this.timer);
    // Deliveries are the process's own work, whichever lookup or page queued the alert.
    this.timer = runAsJob('alert-deliveries', () => setTimeout(() => void this.loop(), delayMs));
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    if (this.delivering) {
      this.again = true;
      return;
    }
    let nextInMs = IDLE_POLL_MS;
    this.delivering = (async () => {
      do {
        this.again = false;
        await this.deliverDue();
      } while (this.again);
      const next = await nextDueAt();
      if (next) nextInMs = Math.max(0, Math.min(IDLE_POLL_MS, next.getTime() - Date.now()));
    })()
      .catch((error: unknown) => log.error({ err: error }, 'delivering alerts failed'))
      .finally(() => {
        this.delivering = undefined;
      });
    await this.delivering;
    if (this.started) this.wake(nextInMs);
  }
}

function defaultSenders(settings: AlertSettings): Record<AlertDelivery['channel'], ChannelSender> {
  return {
    webhook: (delivery, payload) =>
      settings.webhook ? sendWebhook(settings.webhook, payload.id, delivery.payload) : Promise.resolve(notConfigured('webhook')),
    email: (delivery, payload) =>
      settings.email ? sendEmail(settings.email, { to: delivery.target.split(', '), payload }) : Promise.resolve(notConfigured('email')),
  };
}

function notConfigured(channel: string): AttemptOutcome {
  return { ok: false, responseStatus: null, error: `el canal ${channel} ya no está configurado en esta instancia` };
}

const createAlertDispatcher = () => new AlertDispatcher(alertSettings());

/** The process's dispatcher, built from the settings on first use. */
export function alerts(): AlertDispatcher {
  return processSlot('alerts', createAlertDispatcher);
}

/** Replaces the process's dispatcher (tests). */
export function setAlertDispatcher(dispatcher: AlertDispatcher | undefined): void {
  setProcessSlot('alerts', dispatcher);
}
