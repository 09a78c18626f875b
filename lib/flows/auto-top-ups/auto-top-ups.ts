import { saleWouldAwaitReceptor } from '@/lib/core/invoices/sales';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, inArray, isNotNull, like, lt, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { autoTopUpCharges, autoTopUps, integrations, ledgerEntries, onlinePaymentEvents, onlinePayments, type AutoTopUp, type AutoTopUpCharge, type PortalRole } from '@/db/schema';
import { writeAudit } from '@/lib/core/audit/audit';
import type { Transaction } from '@/lib/core/billing/ledger';
import { paymentSettings } from '@/lib/providers/payments/settings';
import { autoTopUpSettings } from './settings';
import { logger } from '@/lib/platform/logging/logger';
import { fail, ok, type Result } from '@/lib/platform/result';
import { GUATEMALA_OFFSET_HOURS } from '@/lib/platform/time/guatemala-time';
import type { ChargeOutcome, FindChargeOutcome, PaymentProvider, PaymentState, SavedCard } from '@/lib/providers/payments/provider';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { CHECKOUT_LIFETIME_MS, quoteOnlineTopUp, settleOnlinePayment } from '@/lib/flows/online-top-ups/payments';
import { autoTopUpPaused } from './events';
import { AUTO_TOP_UP_MESSAGES } from './messages';

// Automatic top-up: an owner's saved card is charged when a charge takes the balance under their
// threshold. Nothing here runs on a lookup's path: a periodic job (one instance at a time) finds
// the balances under their threshold and charges. Each attempt's row, with its idempotency key, is
// written before the provider is called, and a unique index lets an integration have one attempt in
// flight, so two instances (or a late answer and a retry) never charge twice at once. A credited
// charge is an online top-up like any other (settleOnlinePayment): ledger, audit, notice, invoice.

const log = logger('auto-top-ups');

/** Who may set it up: the one who answers for the card. */
export const AUTO_TOP_UP_OWNERS: readonly PortalRole[] = ['propietario'];
export const DAILY_MAX_LIMIT = 20;
/**
 * An attempt still in flight this long after its last change lost its answer: it is read by its
 * key. Twice the charge's time-out at least, so a call still under way is never read as not made.
 */
export const IN_FLIGHT_READ_AFTER_MS = 2 * 60_000;

function inFlightReadAfterMs(): number {
  return Math.max(IN_FLIGHT_READ_AFTER_MS, 2 * paymentSettings().RECURRENTE_TIMEOUT_MS);
}

export type AutoTopUpError = 'forbidden' | 'off' | 'invalid' | 'unavailable' | 'not_found';

export interface AutoTopUpChoice {
  /** Our online top-up paid by the card to save (its checkout names the provider's payment method). */
  sourcePaymentId: string;
  thresholdCentavos: number;
  amountCentavos: number;
  dailyMax: number;
}

/** The start of `now`'s day in Guatemala's time: where a daily cap counts from. */
export function guatemalanDayStart(now: Date): Date {
  const offsetMs = GUATEMALA_OFFSET_HOURS * 3_600_000;
  const day = 86_400_000;
  return new Date(Math.floor((now.getTime() + offsetMs) / day) * day - offsetMs);
}

/** The integration's card payments that were credited: the cards an owner may choose. */
export async function cardPaymentsOf(integrationId: number, limit = 10): Promise<{ id: string; amountCentavos: number; settledAt: Date | null; card: SavedCard | null }[]> {
  const rows = await (await db())
    .select({ id: onlinePayments.id, amountCentavos: onlinePayments.amountCentavos, settledAt: onlinePayments.settledAt, network: onlinePayments.cardNetwork, last4: onlinePayments.cardLast4 })
    .from(onlinePayments)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, onlinePayments.ledgerEntryId))
    .where(and(eq(onlinePayments.integrationId, integrationId), eq(onlinePayments.state, 'credited'), isNotNull(onlinePayments.checkoutId), like(ledgerEntries.note, 'Pago en línea (tarjeta)%')))
    .orderBy(desc(onlinePayments.settledAt))
    .limit(limit);
  return rows.map(({ network, last4, ...row }) => ({ ...row, card: network !== null && last4 !== null ? { network, last4 } : null }));
}

/**
 * Turns automatic top-up on (or changes it, or resumes it after a pause): the card is read back
 * from the provider (the checkout of a card payment of this integration names its saved method).
 */
export async function enableAutoTopUp(provider: PaymentProvider | null, owner: Reporter, choice: AutoTopUpChoice): Promise<Result<AutoTopUp, AutoTopUpError> & { fieldErrors?: Partial<Record<'umbral' | 'monto' | 'maximo' | 'pago', string>> }> {
  if (!AUTO_TOP_UP_OWNERS.includes(owner.role)) return fail('forbidden', AUTO_TOP_UP_MESSAGES.forbidden);
  const quote = quoteOnlineTopUp(choice.amountCentavos);
  if (!quote.ok) return { ...fail('invalid', quote.error.message), fieldErrors: { monto: quote.error.message } };
  // Charges SAT would not let us invoice to consumidor final are not set up to be taken.
  if (await saleWouldAwaitReceptor(await db(), owner.integrationId, quote.value.amountCentavos)) {
    return { ...fail('invalid', AUTO_TOP_UP_MESSAGES.receptorNeeded), fieldErrors: { monto: AUTO_TOP_UP_MESSAGES.receptorNeeded } };
  }
  if (!Number.isSafeInteger(choice.thresholdCentavos) || choice.thresholdCentavos <= 0 || choice.thresholdCentavos > 1_000_000_000) {
    return { ...fail('invalid', AUTO_TOP_UP_MESSAGES.threshold), fieldErrors: { umbral: AUTO_TOP_UP_MESSAGES.threshold } };
  }
  if (!Number.isSafeInteger(choice.dailyMax) || choice.dailyMax < 1 || choice.dailyMax > DAILY_MAX_LIMIT) {
    return { ...fail('invalid', AUTO_TOP_UP_MESSAGES.dailyMax), fieldErrors: { maximo: AUTO_TOP_UP_MESSAGES.dailyMax } };
  }
  const [source] = await (await db())
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.id, choice.sourcePaymentId), eq(onlinePayments.integrationId, owner.integrationId), eq(onlinePayments.state, 'credited')));
  if (!source || source.checkoutId === null) return { ...fail('invalid', AUTO_TOP_UP_MESSAGES.noCard), fieldErrors: { pago: AUTO_TOP_UP_MESSAGES.noCard } };
  if (provider === null) return fail('off', AUTO_TOP_UP_MESSAGES.off);
  const read = await provider.readCheckout(source.checkoutId);
  if (read.kind === 'unavailable') return fail('unavailable', AUTO_TOP_UP_MESSAGES.unavailable);
  if (read.kind !== 'found' || read.state.kind !== 'approved' || read.state.method !== 'card' || read.state.paymentMethodId === null) {
    return { ...fail('invalid', AUTO_TOP_UP_MESSAGES.notACard), fieldErrors: { pago: AUTO_TOP_UP_MESSAGES.notACard } };
  }
  const { paymentMethodId, card } = read.state;
  const saved = await (await db()).transaction(async (tx) => {
    const [before] = await tx.select().from(autoTopUps).where(eq(autoTopUps.integrationId, owner.integrationId)).for('update');
    const values = {
      state: 'active' as const,
      paymentMethodId,
      cardNetwork: card?.network ?? source.cardNetwork,
      cardLast4: card?.last4 ?? source.cardLast4,
      sourcePaymentId: source.id,
      thresholdCentavos: choice.thresholdCentavos,
      amountCentavos: choice.amountCentavos,
      dailyMax: choice.dailyMax,
      pausedReason: null,
      pausedAt: null,
      configuredBy: owner.id,
    };
    const [row] = before
      ? await tx.update(autoTopUps).set({ ...values, updatedAt: sql`now()` }).where(eq(autoTopUps.integrationId, owner.integrationId)).returning()
      : await tx.insert(autoTopUps).values({ integrationId: owner.integrationId, ...values }).returning();
    await writeAudit(tx, owner.actor, {
      action: before?.state === 'paused' ? 'auto_top_up.resume' : 'auto_top_up.enable',
      targetType: 'integration',
      targetId: owner.integrationId,
      before: before ? auditView(before) : null,
      after: auditView(row!),
    });
    return row!;
  });
  return ok(saved);
}

/** Turns it off: no further charges. An attempt already in flight still settles (its money may have moved). */
export async function disableAutoTopUp(owner: Reporter): Promise<Result<AutoTopUp, AutoTopUpError>> {
  if (!AUTO_TOP_UP_OWNERS.includes(owner.role)) return fail('forbidden', AUTO_TOP_UP_MESSAGES.forbidden);
  return (await db()).transaction(async (tx) => {
    const [before] = await tx.select().from(autoTopUps).where(eq(autoTopUps.integrationId, owner.integrationId)).for('update');
    if (!before || before.state === 'off') return fail('not_found', AUTO_TOP_UP_MESSAGES.notConfigured);
    const [row] = await tx.update(autoTopUps).set({ state: 'off', pausedReason: null, pausedAt: null, updatedAt: sql`now()` }).where(eq(autoTopUps.integrationId, owner.integrationId)).returning();
    await writeAudit(tx, owner.actor, { action: 'auto_top_up.disable', targetType: 'integration', targetId: owner.integrationId, before: auditView(before), after: auditView(row!) });
    return ok(row!);
  });
}

function auditView(row: AutoTopUp) {
  return { state: row.state, sourcePaymentId: row.sourcePaymentId, thresholdCentavos: row.thresholdCentavos, amountCentavos: row.amountCentavos, dailyMax: row.dailyMax, pausedReason: row.pausedReason };
}

export interface AutoTopUpView {
  setting: AutoTopUp | undefined;
  /** Attempts the threshold triggered today (Guatemala's day): what the daily cap counts. */
  chargesToday: number;
  recent: AutoTopUpCharge[];
}

/** The portal's view of one integration's automatic top-up. */
export async function autoTopUpOf(integrationId: number, now = new Date()): Promise<AutoTopUpView> {
  const handle = await db();
  const [setting] = await handle.select().from(autoTopUps).where(eq(autoTopUps.integrationId, integrationId));
  const recent = await handle.select().from(autoTopUpCharges).where(eq(autoTopUpCharges.integrationId, integrationId)).orderBy(desc(autoTopUpCharges.id)).limit(10);
  return { setting, chargesToday: await countToday(handle, integrationId, now), recent };
}

async function countToday(handle: Pick<Transaction, 'select'>, integrationId: number, now: Date): Promise<number> {
  const [row] = await handle
    .select({ count: sql<number>`count(*)::int` })
    .from(autoTopUpCharges)
    .where(and(eq(autoTopUpCharges.integrationId, integrationId), eq(autoTopUpCharges.attempt, 1), gte(autoTopUpCharges.createdAt, guatemalanDayStart(now))));
  return Number(row?.count ?? 0);
}

/** Every integration that has it on or paused, for the console. */
export async function autoTopUpsInUse(): Promise<(AutoTopUp & { integrationName: string; balanceCentavos: number })[]> {
  const rows = await (await db())
    .select({ setting: autoTopUps, integrationName: integrations.nombre, balanceCentavos: integrations.balanceCentavos })
    .from(autoTopUps)
    .innerJoin(integrations, eq(integrations.id, autoTopUps.integrationId))
    .where(sql`${autoTopUps.state} <> 'off'`)
    .orderBy(integrations.nombre);
  return rows.map((row) => ({ ...row.setting, integrationName: row.integrationName, balanceCentavos: row.balanceCentavos }));
}

export interface AutoTopUpRun {
  /** Attempts sent to the provider. */
  charged: number;
  credited: number;
  failed: number;
  paused: number;
}

export interface RunOptions {
  now?: Date;
  /** How long a failed attempt waits for its retry (AUTO_TOP_UP_RETRY_AFTER_MS). */
  retryAfterMs?: number;
}

/**
 * One pass of the job: attempts whose answer was lost are settled by reading them back by their
 * key, then every active integration under its threshold gets its charge (or its retry), within
 * its daily cap. Safe on many instances at once; one integration's failure never holds up another.
 */
export async function runAutoTopUps(provider: PaymentProvider, options: RunOptions = {}): Promise<AutoTopUpRun> {
  const now = options.now ?? new Date();
  const retryAfterMs = options.retryAfterMs ?? autoTopUpSettings().AUTO_TOP_UP_RETRY_AFTER_MS;
  const run: AutoTopUpRun = { charged: 0, credited: 0, failed: 0, paused: 0 };
  const handle = await db();
  const stale = await handle
    .select()
    .from(autoTopUpCharges)
    .where(and(eq(autoTopUpCharges.state, 'in_flight'), lt(autoTopUpCharges.updatedAt, new Date(now.getTime() - inFlightReadAfterMs()))));
  for (const charge of stale) {
    try {
      const found = await provider.findCharge(charge.idempotencyKey);
      await settleAttempt(provider, charge, found, run, now);
    } catch (error) {
      log.error({ err: error, integrationId: charge.integrationId, chargeId: charge.id }, 'settling an automatic charge by reading it failed');
    }
  }
  const under = await handle
    .select({ integrationId: autoTopUps.integrationId })
    .from(autoTopUps)
    .innerJoin(integrations, eq(integrations.id, autoTopUps.integrationId))
    .where(and(eq(autoTopUps.state, 'active'), lt(integrations.balanceCentavos, autoTopUps.thresholdCentavos)));
  for (const { integrationId } of under) {
    try {
      const claimed = await claimAttempt(provider, integrationId, now, retryAfterMs);
      if (claimed === null) continue;
      run.charged++;
      const answer = await provider.chargeSavedMethod({
        paymentMethodId: claimed.paymentMethodId,
        amountCentavos: claimed.totalCentavos,
        currency: 'GTQ',
        description: 'Recarga automática',
        topUpId: claimed.charge.onlinePaymentId,
        idempotencyKey: claimed.charge.idempotencyKey,
      });
      await settleAttempt(provider, claimed.charge, answerAsFound(answer), run, now);
    } catch (error) {
      log.error({ err: error, integrationId }, 'an automatic top-up failed');
    }
  }
  return run;
}

/** A charge's answer in the words of a read: both settle an attempt alike. */
function answerAsFound(answer: ChargeOutcome): FindChargeOutcome | { kind: 'failed'; detail: string } | { kind: 'indeterminate'; detail: string } {
  switch (answer.kind) {
    case 'charged':
      return { kind: 'found', state: answer.state };
    case 'indeterminate':
      return { kind: 'indeterminate', detail: `${answer.reason}` };
    case 'retry_later':
      return { kind: 'failed', detail: `retry_later: ${answer.reason}` };
    default:
      return { kind: 'failed', detail: answer.kind };
  }
}

interface Claimed {
  charge: AutoTopUpCharge;
  paymentMethodId: string;
  totalCentavos: number;
}

/**
 * Decides, under the setting's row lock, whether this integration gets an attempt now, and writes
 * it (its online top-up, its key) before anything is sent. null: nothing to do (balance back over
 * the threshold, an attempt in flight, a retry not yet due, the daily cap reached, or another
 * instance got there first).
 */
async function claimAttempt(provider: PaymentProvider, integrationId: number, now: Date, retryAfterMs: number): Promise<Claimed | null> {
  try {
    return await (await db()).transaction(async (tx): Promise<Claimed | null> => {
      const [setting] = await tx.select().from(autoTopUps).where(eq(autoTopUps.integrationId, integrationId)).for('update');
      if (!setting || setting.state !== 'active') return null;
      const [integration] = await tx.select({ balance: integrations.balanceCentavos }).from(integrations).where(eq(integrations.id, integrationId));
      if (!integration || integration.balance >= setting.thresholdCentavos) return null;
      const [last] = await tx.select().from(autoTopUpCharges).where(eq(autoTopUpCharges.integrationId, integrationId)).orderBy(desc(autoTopUpCharges.id)).limit(1);
      if (last?.state === 'in_flight') return null;
      let attempt: 1 | 2 = 1;
      // A first attempt that failed since the setting last changed gets its one retry, once due.
      if (last && last.state === 'failed' && last.attempt === 1 && last.createdAt.getTime() >= setting.updatedAt.getTime()) {
        if (now.getTime() - (last.settledAt ?? last.updatedAt).getTime() < retryAfterMs) return null;
        attempt = 2;
      } else if ((await countToday(tx, integrationId, now)) >= setting.dailyMax) {
        return null;
      }
      const quote = quoteOnlineTopUp(setting.amountCentavos);
      if (!quote.ok) {
        log.warn({ integrationId }, 'an automatic top-up’s amount is outside the online top-up limits now; nothing charged');
        return null;
      }
      const onlinePaymentId = `recarga-auto-${randomUUID()}`;
      await tx.insert(onlinePayments).values({
        id: onlinePaymentId,
        integrationId,
        startedBy: setting.configuredBy,
        amountCentavos: quote.value.amountCentavos,
        feeCentavos: quote.value.feeCentavos,
        provider: provider.name,
        // Nothing to pay on a page: the charge is ours to make.
        expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      });
      await tx.insert(onlinePaymentEvents).values({ onlinePaymentId, state: 'created', source: 'start', providerMessageId: null, detail: `automatic charge, attempt ${attempt}` });
      const [charge] = await tx.insert(autoTopUpCharges).values({ integrationId, onlinePaymentId, idempotencyKey: `auto-${randomUUID()}`, attempt }).returning();
      return { charge: charge!, paymentMethodId: setting.paymentMethodId, totalCentavos: quote.value.totalCentavos };
    });
  } catch (error) {
    // The in-flight index: another instance claimed this integration's attempt a moment ago.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

type Settlement = FindChargeOutcome | { kind: 'failed'; detail: string } | { kind: 'indeterminate'; detail: string };

/** Applies what the provider said (its answer, or a read by the key) to an attempt still in flight. */
async function settleAttempt(provider: PaymentProvider, charge: AutoTopUpCharge, settlement: Settlement, run: AutoTopUpRun, now: Date): Promise<void> {
  switch (settlement.kind) {
    case 'unavailable':
      return;
    case 'indeterminate':
      // Maybe charged: settled later by reading it back by its key, never by charging again.
      await (await db()).update(autoTopUpCharges).set({ detail: `indeterminate: ${settlement.detail}`, updatedAt: sql`now()` }).where(and(eq(autoTopUpCharges.id, charge.id), eq(autoTopUpCharges.state, 'in_flight')));
      return;
    case 'not_found':
      return failAttempt(charge, 'not made', run, now);
    case 'failed':
      return failAttempt(charge, settlement.detail, run, now);
    case 'found':
      return settleFound(provider, charge, settlement.state, run, now);
  }
}

async function settleFound(provider: PaymentProvider, charge: AutoTopUpCharge, state: PaymentState, run: AutoTopUpRun, now: Date): Promise<void> {
  if (state.kind === 'declined') return failAttempt(charge, `declined: ${state.reason.slice(0, 150)}`, run, now);
  if (state.kind === 'expired') return failAttempt(charge, 'expired', run, now);
  if (state.kind === 'pending') {
    await (await db()).update(autoTopUpCharges).set({ detail: 'pending', updatedAt: sql`now()` }).where(and(eq(autoTopUpCharges.id, charge.id), eq(autoTopUpCharges.state, 'in_flight')));
    return;
  }
  const settled = await settleOnlinePayment(provider, { topUpId: charge.onlinePaymentId, checkoutId: null, state, source: 'read' }, now);
  if (settled.kind === 'credited' || settled.kind === 'already_credited') {
    const [moved] = await (await db())
      .update(autoTopUpCharges)
      .set({ state: 'credited', detail: state.paymentId, settledAt: now, updatedAt: sql`now()` })
      .where(and(eq(autoTopUpCharges.id, charge.id), eq(autoTopUpCharges.state, 'in_flight')))
      .returning({ id: autoTopUpCharges.id });
    if (moved) run.credited++;
    return;
  }
  // Charged but not credited (an amount support must look at, an invoice that cannot be made yet):
  // the attempt stays in flight, so nothing else is charged until it is settled.
  log.warn({ integrationId: charge.integrationId, chargeId: charge.id, outcome: settled.kind }, 'an automatic charge was approved but not credited; it stays in flight');
  await (await db()).update(autoTopUpCharges).set({ detail: `approved, ${settled.kind}`, updatedAt: sql`now()` }).where(and(eq(autoTopUpCharges.id, charge.id), eq(autoTopUpCharges.state, 'in_flight')));
}

/**
 * An attempt that charged nothing: its online top-up closes uncredited; after a retry that failed
 * too, automatic top-up pauses until an owner acts, and the owner and billing contacts are told.
 */
async function failAttempt(charge: AutoTopUpCharge, detail: string, run: AutoTopUpRun, now: Date): Promise<void> {
  const paused = await (await db()).transaction(async (tx) => {
    const [moved] = await tx
      .update(autoTopUpCharges)
      .set({ state: 'failed', detail, settledAt: now, updatedAt: sql`now()` })
      .where(and(eq(autoTopUpCharges.id, charge.id), eq(autoTopUpCharges.state, 'in_flight')))
      .returning({ id: autoTopUpCharges.id });
    if (!moved) return null;
    run.failed++;
    await tx.update(onlinePayments).set({ state: 'expired', detail: `automatic: ${detail}`.slice(0, 200), settledAt: now, updatedAt: sql`now()` }).where(and(eq(onlinePayments.id, charge.onlinePaymentId), inArray(onlinePayments.state, ['created', 'declined'])));
    await tx.insert(onlinePaymentEvents).values({ onlinePaymentId: charge.onlinePaymentId, state: 'expired', source: 'read', providerMessageId: null, detail: `automatic: ${detail}`.slice(0, 200) });
    if (charge.attempt !== 2) return null;
    const [before] = await tx.select().from(autoTopUps).where(eq(autoTopUps.integrationId, charge.integrationId)).for('update');
    if (!before || before.state !== 'active') return null;
    const [after] = await tx.update(autoTopUps).set({ state: 'paused', pausedReason: detail.slice(0, 200), pausedAt: now, updatedAt: sql`now()` }).where(eq(autoTopUps.integrationId, charge.integrationId)).returning();
    await writeAudit(tx, { kind: 'system', name: 'auto-top-ups' }, { action: 'auto_top_up.pause', targetType: 'integration', targetId: charge.integrationId, before: auditView(before), after: auditView(after!) });
    const [integration] = await tx.select({ id: integrations.id, nombre: integrations.nombre }).from(integrations).where(eq(integrations.id, charge.integrationId));
    return { integration: integration!, chargeId: charge.id, reason: detail, pausedAt: now };
  });
  if (!paused) return;
  run.paused++;
  log.warn({ integrationId: paused.integration.id, chargeId: paused.chargeId }, 'automatic top-up paused after a charge and its retry failed');
  // After the commit, and never failing it: the owner and billing contacts are told.
  await autoTopUpPaused.emit(paused);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
