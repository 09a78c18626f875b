// The payment provider the settings choose (PAYMENTS_PROVIDER), one per process; null while online
// payments are off. Tests put their own (an adapter on the simulator's clock) with usePaymentProvider.
import { processSlot } from '@/lib/platform/runtime/process-state';
import type { PaymentProvider } from './provider';
import { createRecurrenteProvider } from './recurrente';
import { paymentSettings, type PaymentSettings } from './settings';

const slot = processSlot<{ provider: PaymentProvider | null | undefined }>('paymentProvider', () => ({ provider: undefined }));

/** Whether the settings name a payment provider with every setting it needs. */
export function paymentsConfigured(settings: Pick<PaymentSettings, 'PAYMENTS_PROVIDER' | 'RECURRENTE_API_URL' | 'RECURRENTE_PUBLIC_KEY' | 'RECURRENTE_SECRET_KEY' | 'RECURRENTE_WEBHOOK_SECRET'>): boolean {
  return settings.PAYMENTS_PROVIDER === 'recurrente' && Boolean(settings.RECURRENTE_API_URL && settings.RECURRENTE_PUBLIC_KEY && settings.RECURRENTE_SECRET_KEY && settings.RECURRENTE_WEBHOOK_SECRET);
}

/** What one call to the provider answered, for whoever watches its health (subscribed at start-up). */
export interface PaymentProviderCallOutcome {
  provider: string;
  call: 'create_checkout' | 'read_checkout' | 'read_payment' | 'refund' | 'charge' | 'find_charge';
  outcome: string;
  durationMs: number;
}

const watchers = processSlot<{ listeners: Array<(call: PaymentProviderCallOutcome) => void> }>('paymentProviderWatchers', () => ({ listeners: [] }));

/** Subscribes to every call the configured provider makes (its outcome's kind and duration). */
export function onPaymentProviderCall(listener: (call: PaymentProviderCallOutcome) => void): void {
  watchers.listeners.push(listener);
}

/** The provider, telling each call's outcome to the watchers; a watcher that throws never fails the call. */
function watched(provider: PaymentProvider): PaymentProvider {
  const told = <T extends { kind: string }>(call: PaymentProviderCallOutcome['call'], run: () => Promise<T>) => async (): Promise<T> => {
    const started = Date.now();
    const outcome = await run();
    for (const listener of watchers.listeners) {
      try {
        listener({ provider: provider.name, call, outcome: outcome.kind, durationMs: Date.now() - started });
      } catch {
        // A watcher's failure is its own: the payment goes on.
      }
    }
    return outcome;
  };
  return {
    name: provider.name,
    partialRefunds: provider.partialRefunds,
    createCheckout: (request) => told('create_checkout', () => provider.createCheckout(request))(),
    readCheckout: (checkoutId) => told('read_checkout', () => provider.readCheckout(checkoutId))(),
    readPayment: (paymentId) => told('read_payment', () => provider.readPayment(paymentId))(),
    verifyWebhook: (input) => provider.verifyWebhook(input),
    refund: (request) => told('refund', () => provider.refund(request))(),
    chargeSavedMethod: (request) => told('charge', () => provider.chargeSavedMethod(request))(),
    findCharge: (key) => told('find_charge', () => provider.findCharge(key))(),
  };
}

export function configuredPaymentProvider(): PaymentProvider | null {
  if (slot.provider !== undefined) return slot.provider;
  const settings = paymentSettings();
  slot.provider =
    paymentsConfigured(settings)
      ? watched(createRecurrenteProvider({
          apiUrl: settings.RECURRENTE_API_URL!,
          publicKey: settings.RECURRENTE_PUBLIC_KEY!,
          secretKey: settings.RECURRENTE_SECRET_KEY!,
          webhookSecret: settings.RECURRENTE_WEBHOOK_SECRET!,
          webhookToleranceSeconds: settings.RECURRENTE_WEBHOOK_TOLERANCE_SECONDS,
          timeoutMs: settings.RECURRENTE_TIMEOUT_MS,
          partialRefunds: settings.RECURRENTE_PARTIAL_REFUNDS,
        }))
      : null;
  return slot.provider;
}

/** Replaces the process's provider (tests); undefined goes back to the settings'. */
export function usePaymentProvider(provider: PaymentProvider | null | undefined): void {
  slot.provider = provider;
}
