import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoices, onlinePaymentEvents, onlinePayments, portalUsers, type LedgerEntry, type OnlinePayment, type OnlinePaymentState } from '@/db/schema';
import { writeAudit, type IntegratorActor } from '@/lib/core/audit/audit';
import { afterBalanceMoved, topUpWithin, type Transaction } from '@/lib/core/billing/ledger';
import { saleWouldAwaitReceptor } from '@/lib/core/invoices/sales';
import { onlineTopUpSettings, type OnlineTopUpSettings } from './settings';
import { logger } from '@/lib/platform/logging/logger';
import { fail, ok, type Result } from '@/lib/platform/result';
import type { PaymentCurrency, PaymentProvider, PaymentState } from '@/lib/providers/payments/provider';
import { TOP_UP_REPORTERS } from '@/lib/flows/top-ups/reporters';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { onlinePaymentMismatched, onlineTopUpCredited, onlineTopUpExpired, type MismatchedOnlinePayment, type SettledOnlineTopUp } from './events';
import { amountOutOfLimitsMessage, ONLINE_TOP_UP_MESSAGES } from './messages';
import { pollOpenRefunds, refundSummaries } from './refunds';
import { CANCELLED_BY_PAYER, NO_REFUNDS, type RefundSummary } from './labels';

// Online top-ups: the integrator pays on the provider's hosted page, and the balance is credited
// only from what the provider says (a verified webhook or a server-side read), never from the
// browser's return. Every settle locks the payment's row and decides from its committed state, so
// duplicated, late or out-of-order webhooks, the poller and other instances credit once; the unique
// index on (provider, provider_payment_id) keeps one provider payment from crediting two top-ups.
// The credit itself is the console's top-up (ledger entry, balance, audit, FEL invoice row) in the
// same transaction as the state change, as an approved deposit report's is.

const log = logger('online-top-ups');

/** Every checkout is opened in quetzales, and only a payment in quetzales is credited. */
const CHECKOUT_CURRENCY: PaymentCurrency = 'GTQ';

/** How long the hosted checkout may be paid; a transfer started in it may take a day more. */
export const CHECKOUT_LIFETIME_MS = 60 * 60_000;
/** A bank transfer pending longer than this is expired by us if the provider has not said so. */
export const TRANSFER_PENDING_LIMIT_MS = 24 * 3_600_000;

/** receptor_needed: the payment could not be invoiced as SAT requires, so it is not taken (issue 64, point 2). */
export type OnlineTopUpError = 'forbidden' | 'off' | 'invalid' | 'unavailable' | 'refused' | 'receptor_needed';

export interface OnlineTopUpQuote {
  /** What is credited to the balance. */
  amountCentavos: number;
  /** What the integrator pays on top, from the operator's settings. */
  feeCentavos: number;
  /** What the hosted checkout charges. */
  totalCentavos: number;
}

/** The amount's checks and the fee shown before paying. */
export function quoteOnlineTopUp(amountCentavos: number, settings: Pick<OnlineTopUpSettings, 'ONLINE_TOP_UP_MIN_CENTAVOS' | 'ONLINE_TOP_UP_MAX_CENTAVOS' | 'ONLINE_TOP_UP_FEE_BASIS_POINTS' | 'ONLINE_TOP_UP_FEE_FIXED_CENTAVOS'> = onlineTopUpSettings()): Result<OnlineTopUpQuote, 'invalid'> {
  if (!Number.isSafeInteger(amountCentavos) || amountCentavos <= 0) return fail('invalid', ONLINE_TOP_UP_MESSAGES.amount);
  if (amountCentavos < settings.ONLINE_TOP_UP_MIN_CENTAVOS || amountCentavos > settings.ONLINE_TOP_UP_MAX_CENTAVOS) {
    return fail('invalid', amountOutOfLimitsMessage(settings.ONLINE_TOP_UP_MIN_CENTAVOS, settings.ONLINE_TOP_UP_MAX_CENTAVOS));
  }
  // Rounded up to the centavo: the fee never falls short of what the operator set.
  const feeCentavos = Math.ceil((amountCentavos * settings.ONLINE_TOP_UP_FEE_BASIS_POINTS) / 10_000) + settings.ONLINE_TOP_UP_FEE_FIXED_CENTAVOS;
  return ok({ amountCentavos, feeCentavos, totalCentavos: amountCentavos + feeCentavos });
}

/** Whether a top-up of this amount would be credited with its invoice waiting for the integration's NIT. */
export async function onlineTopUpNeedsReceptor(integrationId: number, amountCentavos: number): Promise<boolean> {
  return saleWouldAwaitReceptor(await db(), integrationId, amountCentavos);
}

export interface StartedOnlineTopUp {
  id: string;
  checkoutUrl: string;
  quote: OnlineTopUpQuote;
}

/**
 * Starts an online top-up: its row (our id, fixed before the provider is called) and then the
 * hosted checkout. A creation without a readable answer leaves the top-up `indeterminate`, which is
 * harmless: its URL reached nobody, so nobody can pay it; the integrator starts another.
 */
export async function startOnlineTopUp(
  provider: PaymentProvider | null,
  starter: Reporter,
  amountCentavos: number,
  urls: { successUrl: (id: string) => string; cancelUrl: string | ((id: string) => string) },
  now = new Date(),
): Promise<Result<StartedOnlineTopUp, OnlineTopUpError>> {
  if (!TOP_UP_REPORTERS.includes(starter.role)) return fail('forbidden', ONLINE_TOP_UP_MESSAGES.forbidden);
  if (provider === null) return fail('off', ONLINE_TOP_UP_MESSAGES.off);
  const quote = quoteOnlineTopUp(amountCentavos);
  if (!quote.ok) return quote;
  // Money that could only be credited with its invoice waiting is not taken in the first place.
  if (await saleWouldAwaitReceptor(await db(), starter.integrationId, quote.value.amountCentavos)) return fail('receptor_needed', ONLINE_TOP_UP_MESSAGES.receptorNeeded);
  const id = `recarga-${randomUUID()}`;
  const expiresAt = new Date(now.getTime() + CHECKOUT_LIFETIME_MS);
  await (await db()).transaction(async (tx) => {
    await tx.insert(onlinePayments).values({
      id,
      integrationId: starter.integrationId,
      startedBy: starter.id,
      amountCentavos: quote.value.amountCentavos,
      feeCentavos: quote.value.feeCentavos,
      provider: provider.name,
      expiresAt,
    });
    await recordEvent(tx, id, 'created', 'start', null, null);
    await writeAudit(tx, starter.actor, {
      action: 'online_top_up.start',
      targetType: 'integration',
      targetId: starter.integrationId,
      before: null,
      after: { onlinePaymentId: id, amountCentavos: quote.value.amountCentavos, feeCentavos: quote.value.feeCentavos, provider: provider.name },
    });
  });
  const created = await provider.createCheckout({
    topUpId: id,
    amountCentavos: quote.value.totalCentavos,
    currency: CHECKOUT_CURRENCY,
    description: 'Recarga de saldo',
    successUrl: urls.successUrl(id),
    cancelUrl: typeof urls.cancelUrl === 'string' ? urls.cancelUrl : urls.cancelUrl(id),
    expiresAt,
  });
  const handle = await db();
  switch (created.kind) {
    case 'created':
      await handle.transaction(async (tx) => {
        await tx.update(onlinePayments).set({ state: 'checkout_open', checkoutId: created.checkoutId, checkoutUrl: created.checkoutUrl, updatedAt: sql`now()` }).where(eq(onlinePayments.id, id));
        await recordEvent(tx, id, 'checkout_open', 'start', null, created.checkoutId);
      });
      return ok({ id, checkoutUrl: created.checkoutUrl, quote: quote.value });
    case 'indeterminate':
      await handle.transaction(async (tx) => {
        await tx.update(onlinePayments).set({ state: 'indeterminate', detail: `checkout: ${created.reason}`, updatedAt: sql`now()` }).where(eq(onlinePayments.id, id));
        await recordEvent(tx, id, 'indeterminate', 'start', null, `checkout: ${created.reason}`);
      });
      return fail('unavailable', ONLINE_TOP_UP_MESSAGES.unavailable);
    default:
      // Nothing was created at the provider: the row stays `created`, with why.
      await handle.transaction(async (tx) => {
        await tx.update(onlinePayments).set({ detail: `checkout: ${created.kind}`, updatedAt: sql`now()` }).where(eq(onlinePayments.id, id));
        await recordEvent(tx, id, 'created', 'start', null, `checkout: ${created.kind}`);
      });
      return created.kind === 'retry_later' ? fail('unavailable', ONLINE_TOP_UP_MESSAGES.unavailable) : fail('refused', ONLINE_TOP_UP_MESSAGES.refused);
  }
}

export type SettleSource = 'webhook' | 'read';

export interface ProviderReport {
  /** Our id from the metadata, or the checkout's id: either finds the top-up. */
  topUpId: string | null;
  checkoutId: string | null;
  state: PaymentState;
  source: SettleSource;
  /** A webhook's message id, kept with the event. */
  messageId?: string | null;
}

export type SettleOutcome =
  | { kind: 'credited'; balanceCentavos: number }
  | { kind: 'already_credited' }
  | { kind: 'moved'; state: OnlinePaymentState }
  | { kind: 'unchanged'; state: OnlinePaymentState }
  /** The provider charged another amount than this top-up's: nothing is credited; support decides. */
  | { kind: 'amount_mismatch' }
  /** The provider's payment already credited another top-up (the unique index said so): nothing changed. */
  | { kind: 'conflict' }
  | { kind: 'unknown' };

/**
 * Applies what the provider says about a top-up's payment, once: `approved` credits unless it was
 * credited already; a pending transfer, a declined card or an expiry only move a top-up that is
 * still open (a late `pending` after the credit changes nothing).
 */
export async function settleOnlinePayment(provider: Pick<PaymentProvider, 'name'>, report: ProviderReport, now = new Date()): Promise<SettleOutcome> {
  try {
    return await afterCommit(await decide(provider, report, now));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    log.error({ topUpId: report.topUpId, checkoutId: report.checkoutId, source: report.source }, 'a provider payment already credited another online top-up; nothing changed');
    return { kind: 'conflict' };
  }
}

async function decide(provider: Pick<PaymentProvider, 'name'>, report: ProviderReport, now: Date): Promise<Decided> {
  const handle = await db();
  return handle.transaction(async (tx): Promise<Decided> => {
    const [payment] = await tx
      .select()
      .from(onlinePayments)
      .where(
        and(
          eq(onlinePayments.provider, provider.name),
          report.topUpId !== null ? eq(onlinePayments.id, report.topUpId) : report.checkoutId !== null ? eq(onlinePayments.checkoutId, report.checkoutId) : sql`false`,
        ),
      )
      .for('update');
    if (!payment) return { outcome: { kind: 'unknown' } };
    const state = report.state;
    const messageId = report.messageId ?? null;
    if (payment.state === 'credited') {
      return { outcome: (state.kind === 'approved' ? { kind: 'already_credited' } : { kind: 'unchanged', state: payment.state }) as SettleOutcome };
    }
    switch (state.kind) {
      case 'approved':
        return credit(tx, payment, state, report.source, messageId, now);
      case 'pending': {
        if (state.stage !== 'transfer_in_progress' || !awaitsCustomer(payment)) return { outcome: { kind: 'unchanged', state: payment.state } as SettleOutcome };
        await tx
          .update(onlinePayments)
          .set({ state: 'pending_transfer', providerPaymentId: state.paymentId ?? payment.providerPaymentId, pendingSince: now, checkoutId: payment.checkoutId ?? report.checkoutId, updatedAt: sql`now()` })
          .where(eq(onlinePayments.id, payment.id));
        await recordEvent(tx, payment.id, 'pending_transfer', report.source, messageId, state.paymentId);
        return { outcome: { kind: 'moved', state: 'pending_transfer' } as SettleOutcome };
      }
      case 'declined':
        // The customer may still try another card on the same checkout: declined is not final.
        if (!awaitsCustomer(payment)) return { outcome: { kind: 'unchanged', state: payment.state } as SettleOutcome };
        await tx.update(onlinePayments).set({ state: 'declined', detail: state.reason.slice(0, 200), updatedAt: sql`now()` }).where(eq(onlinePayments.id, payment.id));
        await recordEvent(tx, payment.id, 'declined', report.source, messageId, state.reason.slice(0, 200));
        return { outcome: { kind: 'moved', state: 'declined' } as SettleOutcome };
      case 'expired': {
        if (payment.state === 'expired') return { outcome: { kind: 'unchanged', state: payment.state } as SettleOutcome };
        return expire(tx, payment, report.source, messageId, state.paymentId, now);
      }
    }
  });
}

/** Still payable on its page: a pending transfer, an expiry or an amount for support is past that. */
function awaitsCustomer(payment: OnlinePayment): boolean {
  return payment.state === 'checkout_open' || payment.state === 'declined' || payment.state === 'created' || (payment.state === 'indeterminate' && payment.detail !== 'amount_mismatch');
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

type Decided = { outcome: SettleOutcome; mismatched?: MismatchedOnlinePayment; credited?: { integration: { id: number; nombre: string }; payment: SettledOnlineTopUp; balanceCentavos: number; amountCentavos: number; row: OnlinePayment; moved: { entry: LedgerEntry; invoiceAwaitsReceptor: boolean } }; expired?: { integration: { id: number; nombre: string }; payment: SettledOnlineTopUp } };

async function credit(tx: Transaction, payment: OnlinePayment, state: Extract<PaymentState, { kind: 'approved' }>, source: SettleSource, messageId: string | null, now: Date): Promise<Decided> {
  // The checkout was opened in quetzales for this amount: a payment of 20,000 in another currency
  // (or of no stated one) is not Q 200.00, whatever its signature.
  const expectedCentavos = payment.amountCentavos + payment.feeCentavos;
  if (state.currency !== CHECKOUT_CURRENCY || state.amountCentavos !== expectedCentavos) {
    if (payment.state === 'indeterminate' && payment.detail === 'amount_mismatch') return { outcome: { kind: 'amount_mismatch' } };
    await tx.update(onlinePayments).set({ state: 'indeterminate', detail: 'amount_mismatch', providerPaymentId: state.paymentId, updatedAt: sql`now()` }).where(eq(onlinePayments.id, payment.id));
    await recordEvent(tx, payment.id, 'indeterminate', source, messageId, `amount_mismatch: paid ${state.amountCentavos} ${state.currency ?? 'no currency'}`);
    const [integration] = await tx.select({ nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, payment.integrationId));
    return {
      outcome: { kind: 'amount_mismatch' },
      mismatched: { topUpId: payment.id, integrationId: payment.integrationId, integrationName: integration?.nombre ?? '', expectedCentavos, paidCentavos: state.amountCentavos, currency: state.currency },
    };
  }
  const [person] = await tx
    .select({ email: portalUsers.email, integrationName: integrations.nombre })
    .from(portalUsers)
    .innerJoin(integrations, eq(integrations.id, payment.integrationId))
    .where(eq(portalUsers.id, payment.startedBy));
  const actor: IntegratorActor = { kind: 'integrator', id: payment.startedBy, email: person!.email, integrationId: payment.integrationId, integrationName: person!.integrationName };
  const method = state.method === 'bank_transfer' ? 'transferencia' : 'tarjeta';
  const moved = await topUpWithin(tx, actor, payment.integrationId, payment.amountCentavos, `Pago en línea (${method}) ${payment.id}, ${payment.provider} ${state.paymentId}`);
  if (!moved.ok) throw new Error(`online top-up ${payment.id} could not be credited: ${moved.error.code}`);
  // A second top-up claiming the same provider payment fails here (the unique index), and its whole
  // transaction with it: one payment credits one top-up.
  const [credited] = await tx
    .update(onlinePayments)
    .set({
      state: 'credited',
      providerPaymentId: state.paymentId,
      ledgerEntryId: moved.value.entry.id,
      settledAt: now,
      detail: null,
      cardNetwork: state.card?.network ?? null,
      cardLast4: state.card?.last4 ?? null,
      updatedAt: sql`now()`,
    })
    .where(eq(onlinePayments.id, payment.id))
    .returning();
  await recordEvent(tx, payment.id, 'credited', source, messageId, state.paymentId);
  await writeAudit(tx, actor, {
    action: 'online_top_up.credit',
    targetType: 'integration',
    targetId: payment.integrationId,
    before: { onlinePaymentId: payment.id, state: payment.state },
    after: { onlinePaymentId: payment.id, state: 'credited', amountCentavos: payment.amountCentavos, provider: payment.provider, providerPaymentId: state.paymentId, source, ledgerEntryId: moved.value.entry.id },
  });
  return {
    outcome: { kind: 'credited', balanceCentavos: moved.value.balanceCentavos },
    credited: {
      integration: moved.value.integration,
      payment: { id: payment.id, method: state.method, amountCentavos: payment.amountCentavos, providerPaymentId: state.paymentId, settledAt: now },
      balanceCentavos: moved.value.balanceCentavos,
      amountCentavos: payment.amountCentavos,
      row: credited!,
      moved: moved.value,
    },
  };
}

async function expire(tx: Transaction, payment: OnlinePayment, source: SettleSource, messageId: string | null, paymentId: string | null, now: Date): Promise<Decided> {
  const wasTransfer = payment.state === 'pending_transfer';
  await tx.update(onlinePayments).set({ state: 'expired', settledAt: now, providerPaymentId: paymentId ?? payment.providerPaymentId, updatedAt: sql`now()` }).where(eq(onlinePayments.id, payment.id));
  await recordEvent(tx, payment.id, 'expired', source, messageId, paymentId);
  if (!wasTransfer) return { outcome: { kind: 'moved', state: 'expired' } };
  // A transfer the integrator started and that never arrived: they are told; an unpaid checkout is not news.
  const [integration] = await tx.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, payment.integrationId));
  return {
    outcome: { kind: 'moved', state: 'expired' },
    expired: { integration: integration!, payment: { id: payment.id, method: 'bank_transfer', amountCentavos: payment.amountCentavos, providerPaymentId: paymentId ?? payment.providerPaymentId, settledAt: now } },
  };
}

async function afterCommit(decided: Decided): Promise<SettleOutcome> {
  if (decided.mismatched) {
    const { topUpId, integrationId, expectedCentavos, paidCentavos, currency } = decided.mismatched;
    log.error({ topUpId, integrationId, expectedCentavos, paidCentavos, currency }, 'a provider payment does not match its checkout (currency or amount); nothing credited');
    await onlinePaymentMismatched.emit(decided.mismatched);
  }
  if (decided.credited) {
    const { integration, payment, balanceCentavos, amountCentavos, moved } = decided.credited;
    await afterBalanceMoved(integration as Parameters<typeof afterBalanceMoved>[0], amountCentavos, moved);
    // After the commit, and never failing the credit: the billing contact and the webhook are told.
    await onlineTopUpCredited.emit({ integration: { id: integration.id, nombre: integration.nombre }, payment, balanceCentavos });
  }
  if (decided.expired) await onlineTopUpExpired.emit(decided.expired);
  return decided.outcome;
}

async function recordEvent(tx: Transaction, onlinePaymentId: string, state: OnlinePaymentState, source: 'start' | SettleSource, providerMessageId: string | null, detail: string | null): Promise<void> {
  await tx.insert(onlinePaymentEvents).values({ onlinePaymentId, state, source, providerMessageId, detail });
}

export type ReadSettleOutcome = SettleOutcome | { kind: 'unavailable' } | { kind: 'not_readable' };

/**
 * Settles a top-up by reading its checkout at the provider (the poller; support's «consultar»). A
 * read that fails changes nothing: the top-up stays where it was until a later read answers.
 */
export async function settleByRead(provider: PaymentProvider, onlinePaymentId: string, now = new Date()): Promise<ReadSettleOutcome> {
  const [payment] = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.id, onlinePaymentId));
  if (!payment) return { kind: 'unknown' };
  if (payment.checkoutId === null) {
    // Its checkout was never known to be created: nobody could pay it. Past its expiry it is closed.
    if (payment.expiresAt.getTime() > now.getTime() || payment.state === 'expired') return { kind: 'not_readable' };
    return settleOnlinePayment(provider, { topUpId: payment.id, checkoutId: null, state: { kind: 'expired', paymentId: null }, source: 'read' }, now);
  }
  const read = await provider.readCheckout(payment.checkoutId);
  if (read.kind === 'unavailable') {
    log.warn({ onlinePaymentId, detail: read.detail }, 'reading an online payment failed; a later read settles it');
    return { kind: 'unavailable' };
  }
  if (read.kind === 'not_found') return { kind: 'not_readable' };
  let state = read.state;
  // Our own limit on a transfer the provider still calls pending a day later.
  if (state.kind === 'pending' && state.stage === 'transfer_in_progress' && payment.pendingSince !== null && now.getTime() - payment.pendingSince.getTime() > TRANSFER_PENDING_LIMIT_MS) {
    state = { kind: 'expired', paymentId: state.paymentId };
  }
  return settleOnlinePayment(provider, { topUpId: payment.id, checkoutId: payment.checkoutId, state, source: 'read' }, now);
}

const OPEN_STATES: OnlinePaymentState[] = ['checkout_open', 'pending_transfer', 'indeterminate', 'declined'];

/**
 * One pass of the poller: every open top-up (oldest first, at most `limit`) read once, then every
 * refund left open. Run on one instance at a time (a job lease), though a settle is safe on many.
 */
export async function pollOpenOnlinePayments(provider: PaymentProvider, now = new Date(), limit = 100): Promise<{ read: number; settled: number; refundsSettled: number }> {
  const open = await (await db())
    .select({ id: onlinePayments.id })
    .from(onlinePayments)
    // One paid another amount than charged waits for support, not for another read.
    .where(and(eq(onlinePayments.provider, provider.name), inArray(onlinePayments.state, OPEN_STATES), sql`${onlinePayments.detail} is distinct from 'amount_mismatch'`))
    .orderBy(asc(onlinePayments.createdAt))
    .limit(limit);
  let settled = 0;
  for (const { id } of open) {
    try {
      const outcome = await settleByRead(provider, id, now);
      if (outcome.kind === 'credited' || (outcome.kind === 'moved' && outcome.state === 'expired')) settled++;
    } catch (error) {
      // One top-up that cannot be settled never holds up the others.
      log.error({ err: error, onlinePaymentId: id }, 'settling an online payment by reading it failed');
    }
  }
  return { read: open.length, settled, refundsSettled: await pollOpenRefunds(provider, now, limit) };
}

/** An online top-up and every state it passed through, for support. */
export async function findOnlinePayment(id: string): Promise<{ payment: OnlinePayment; events: (typeof onlinePaymentEvents.$inferSelect)[] } | undefined> {
  const handle = await db();
  const [payment] = await handle.select().from(onlinePayments).where(eq(onlinePayments.id, id));
  if (!payment) return undefined;
  const events = await handle.select().from(onlinePaymentEvents).where(eq(onlinePaymentEvents.onlinePaymentId, id)).orderBy(asc(onlinePaymentEvents.id));
  return { payment, events };
}

/** One integration's online top-ups, the latest first (the portal's Recargas), each with its refunds summed. */
export async function integrationOnlinePayments(integrationId: number, limit = 20): Promise<(OnlinePayment & { refunds: RefundSummary })[]> {
  const rows = await (await db()).select().from(onlinePayments).where(eq(onlinePayments.integrationId, integrationId)).orderBy(desc(onlinePayments.createdAt)).limit(limit);
  return withRefunds(rows);
}

async function withRefunds<T extends OnlinePayment>(rows: T[]): Promise<(T & { refunds: RefundSummary })[]> {
  const summaries = await refundSummaries(rows.filter((row) => row.state === 'credited').map((row) => row.id));
  return rows.map((row) => ({ ...row, refunds: summaries.get(row.id) ?? NO_REFUNDS }));
}

/**
 * The payer gave up a checkout not paid yet («Cancelar este pago»): it is closed (expired, said as
 * cancelled) and no longer read. Money the provider still takes on its page is credited all the
 * same, as any payment received is. False when it is past cancelling (paid, pending, closed).
 */
export async function cancelOnlineTopUp(starter: Pick<Reporter, 'integrationId' | 'role' | 'actor'>, id: string): Promise<Result<{ cancelled: boolean }, 'forbidden' | 'not_found'>> {
  if (!TOP_UP_REPORTERS.includes(starter.role)) return fail('forbidden', ONLINE_TOP_UP_MESSAGES.forbidden);
  return (await db()).transaction(async (tx) => {
    const [payment] = await tx.select().from(onlinePayments).where(and(eq(onlinePayments.id, id), eq(onlinePayments.integrationId, starter.integrationId))).for('update');
    if (!payment) return fail('not_found', ONLINE_TOP_UP_MESSAGES.notFound);
    if (!CANCELLABLE.includes(payment.state)) return ok({ cancelled: false });
    await tx.update(onlinePayments).set({ state: 'expired', detail: CANCELLED_BY_PAYER, settledAt: sql`now()`, updatedAt: sql`now()` }).where(eq(onlinePayments.id, id));
    await recordEvent(tx, id, 'expired', 'start', null, CANCELLED_BY_PAYER);
    await writeAudit(tx, starter.actor, {
      action: 'online_top_up.cancel',
      targetType: 'integration',
      targetId: starter.integrationId,
      before: { onlinePaymentId: id, state: payment.state },
      after: { onlinePaymentId: id, state: 'expired', detail: CANCELLED_BY_PAYER },
    });
    return ok({ cancelled: true });
  });
}

/** The FEL invoice of a credited online top-up (its top-up's), if one was written. */
export async function invoiceIdOfPayment(payment: Pick<OnlinePayment, 'ledgerEntryId'>): Promise<number | null> {
  if (payment.ledgerEntryId === null) return null;
  const [row] = await (await db()).select({ id: invoices.id }).from(invoices).where(eq(invoices.ledgerEntryId, payment.ledgerEntryId)).orderBy(desc(invoices.id)).limit(1);
  return row?.id ?? null;
}

/** Whether the payer may still give it up (no one paid it). */
export function isCancellable(payment: Pick<OnlinePayment, 'state'>): boolean {
  return CANCELLABLE.includes(payment.state);
}

/** A checkout nobody has paid: the payer may still give it up. */
const CANCELLABLE: OnlinePaymentState[] = ['created', 'checkout_open', 'declined'];

/** An online top-up of this integration; another integration's id is answered as one that does not exist. */
export async function integrationOnlinePayment(integrationId: number, id: string): Promise<OnlinePayment | undefined> {
  const [payment] = await (await db()).select().from(onlinePayments).where(and(eq(onlinePayments.id, id), eq(onlinePayments.integrationId, integrationId)));
  return payment;
}

/** Every integration's latest online top-ups, for the console's Recargas. */
export async function recentOnlinePayments(limit = 50): Promise<(OnlinePayment & { integrationName: string; refunds: RefundSummary })[]> {
  const rows = await (await db())
    .select({ payment: onlinePayments, integrationName: integrations.nombre })
    .from(onlinePayments)
    .innerJoin(integrations, eq(integrations.id, onlinePayments.integrationId))
    .orderBy(desc(onlinePayments.createdAt))
    .limit(limit);
  return withRefunds(rows.map((row) => ({ ...row.payment, integrationName: row.integrationName })));
}

/** The payment provider as a component (Fuentes): its last webhook and last read that reached us, and the payments still open. */
export interface ProviderActivity {
  lastWebhookAt: Date | null;
  lastReadAt: Date | null;
  open: number;
  /** Payments taken and left for a person (another amount or currency). */
  forSupport: number;
}

export async function providerActivity(): Promise<ProviderActivity> {
  const handle = await db();
  const [events] = await handle
    .select({
      webhook: sql<Date | string | null>`max(${onlinePaymentEvents.createdAt}) filter (where ${onlinePaymentEvents.source} = 'webhook')`,
      read: sql<Date | string | null>`max(${onlinePaymentEvents.createdAt}) filter (where ${onlinePaymentEvents.source} = 'read')`,
    })
    .from(onlinePaymentEvents);
  const [payments] = await handle
    .select({
      open: sql<number>`count(*) filter (where ${onlinePayments.state} in ('created', 'checkout_open', 'pending_transfer', 'declined'))::integer`,
      forSupport: sql<number>`count(*) filter (where ${onlinePayments.state} = 'indeterminate' and ${onlinePayments.detail} = 'amount_mismatch')::integer`,
    })
    .from(onlinePayments);
  const at = (value: Date | string | null | undefined) => (value ? new Date(value) : null);
  return { lastWebhookAt: at(events?.webhook), lastReadAt: at(events?.read), open: Number(payments?.open ?? 0), forSupport: Number(payments?.forSupport ?? 0) };
}
