// «Fuentes» below the lookup sources: the certifier of invoices and the payment provider, how they
// answered lately and whether the console shows them at all.
import { publishedInvoicing } from '@/lib/core/invoices/decision';
import { certifierHealth } from '@/lib/core/invoices/health';
import { PAYMENT_PROVIDER_NAMES } from '@/lib/flows/online-top-ups/labels';
import { providerActivity } from '@/lib/flows/online-top-ups/payments';
import { providerHealth } from '@/lib/flows/online-top-ups/provider-health';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';

export async function outsidePartiesView() {
  const [certifier, invoicing, payments, paymentsHealth] = await Promise.all([certifierHealth(), publishedInvoicing(), providerActivity(), providerHealth()]);
  const provider = configuredPaymentProvider();
  return {
    certifier,
    invoicing,
    payments,
    paymentsHealth,
    paymentsConfigured: provider !== null,
    /** The configured provider as people call it; null when none is. */
    providerName: provider === null ? null : (PAYMENT_PROVIDER_NAMES[provider.name] ?? provider.name),
  };
}
