// An online top-up that ended, for whoever reacts (lib/root/reactions.ts: the integrator's billing
// contact and webhook are told, once per payment).
import { domainEvent } from '@/lib/platform/events/domain-event';

export interface SettledOnlineTopUp {
  /** Ours: the id the checkout's metadata carries. */
  id: string;
  method: 'card' | 'bank_transfer';
  amountCentavos: number;
  providerPaymentId: string | null;
  settledAt: Date;
}

interface IntegrationNamed {
  id: number;
  nombre: string;
}

export const onlineTopUpCredited = domainEvent<{ integration: IntegrationNamed; payment: SettledOnlineTopUp; balanceCentavos: number }>('online-top-ups.credited');
export const onlineTopUpExpired = domainEvent<{ integration: IntegrationNamed; payment: SettledOnlineTopUp }>('online-top-ups.expired');

/** A payment the provider reported in another currency or amount than its checkout: nothing was credited. */
export interface MismatchedOnlinePayment {
  topUpId: string;
  integrationId: number;
  integrationName: string;
  expectedCentavos: number;
  paidCentavos: number;
  currency: string | null;
}

export const onlinePaymentMismatched = domainEvent<MismatchedOnlinePayment>('online-top-ups.mismatched');
