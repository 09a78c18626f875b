// The payment provider the settings choose (PAYMENTS_PROVIDER), one per process; null while online
// payments are off. Tests put their own (an adapter on the simulator's clock) with usePaymentProvider.
import { env, type Env } from '@/lib/platform/env';
import { processSlot } from '@/lib/platform/runtime/process-state';
import type { PaymentProvider } from './provider';
import { createRecurrenteProvider } from './recurrente';

const slot = processSlot<{ provider: PaymentProvider | null | undefined }>('paymentProvider', () => ({ provider: undefined }));

/** Whether the settings name a payment provider with every setting it needs. */
export function paymentsConfigured(settings: Pick<Env, 'PAYMENTS_PROVIDER' | 'RECURRENTE_API_URL' | 'RECURRENTE_PUBLIC_KEY' | 'RECURRENTE_SECRET_KEY' | 'RECURRENTE_WEBHOOK_SECRET'>): boolean {
  return settings.PAYMENTS_PROVIDER === 'recurrente' && Boolean(settings.RECURRENTE_API_URL && settings.RECURRENTE_PUBLIC_KEY && settings.RECURRENTE_SECRET_KEY && settings.RECURRENTE_WEBHOOK_SECRET);
}

export function configuredPaymentProvider(): PaymentProvider | null {
  if (slot.provider !== undefined) return slot.provider;
  const settings = env();
  slot.provider =
    paymentsConfigured(settings)
      ? createRecurrenteProvider({
          apiUrl: settings.RECURRENTE_API_URL!,
          publicKey: settings.RECURRENTE_PUBLIC_KEY!,
          secretKey: settings.RECURRENTE_SECRET_KEY!,
          webhookSecret: settings.RECURRENTE_WEBHOOK_SECRET!,
          webhookToleranceSeconds: settings.RECURRENTE_WEBHOOK_TOLERANCE_SECONDS,
          timeoutMs: settings.RECURRENTE_TIMEOUT_MS,
          partialRefunds: settings.RECURRENTE_PARTIAL_REFUNDS,
        })
      : null;
  return slot.provider;
}

/** Replaces the process's provider (tests); undefined goes back to the settings'. */
export function usePaymentProvider(provider: PaymentProvider | null | undefined): void {
  slot.provider = provider;
}
