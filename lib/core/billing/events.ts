// Balances as billing sees them, for whoever reacts (the low-balance and exhausted alerts and the
// integrator's low-balance notice: lib/root/reactions.ts subscribes lib/reactions/alerts).
import type { Integration } from '@/db/schema';
import { domainEvent } from '@/lib/platform/events/domain-event';

export interface BalanceSnapshot {
  integrationId: number;
  nombre: string;
  balanceCentavos: number;
  tariffCentavos: number;
  /** The integration's own threshold; null uses ALERT_LOW_BALANCE_DEFAULT_CENTAVOS. */
  lowBalanceAlertCentavos: number | null;
}

/** A lookup's charge left this balance: told on the request path, so its listeners never wait or throw. */
export const balanceSeen = domainEvent<BalanceSnapshot>('billing.balance-seen');

/** A balance lowered by hand, or a tariff it may no longer pay: awaited, so the alert is written before the answer. */
export const balanceMayBeShort = domainEvent<Pick<Integration, 'id' | 'nombre' | 'balanceCentavos' | 'tariffCentavos' | 'lowBalanceAlertCentavos'>>('billing.balance-may-be-short');

export interface SaleAwaitingReceptor {
  integration: Pick<Integration, 'id' | 'nombre'>;
  /** The credited top-up's ledger entry, whose invoice waits. */
  ledgerEntryId: number;
  amountCentavos: number;
}

/**
 * A top-up was credited whose invoice waits for the integration's NIT (consumidor final from
 * Q 2,500.00): its billing contact and the administrators are told, once the credit committed.
 */
export const saleAwaitsReceptor = domainEvent<SaleAwaitingReceptor>('billing.sale-awaits-receptor');

export interface BooksDoNotClose {
  /** The reconciliation run that found it (ledger_verifications). */
  runId: number;
  /** Per integration: what does not add up, by its kind (a code: the alert words it). */
  findings: Array<{ integrationId: number; kind: string; count: number }>;
}

/** The reconciliation found money received, credited, invoiced or given back that does not agree. */
export const booksDoNotClose = domainEvent<BooksDoNotClose>('billing.books-do-not-close');
