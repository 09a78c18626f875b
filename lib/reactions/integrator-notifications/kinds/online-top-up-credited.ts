import { formatQuetzales } from '@/lib/platform/money';
import { onlineTopUpCredited as onlineTopUpCreditedEvent, type SettledOnlineTopUp } from '@/lib/flows/online-top-ups/events';
import { defineNotificationKind, on, type IntegrationNamed, type IntegratorNotification } from './notice';

/** An online payment as its notices tell of it (online-top-up-expired.ts too). */
export function onlineTopUpData(payment: SettledOnlineTopUp): IntegratorNotification['datos'] {
  return {
    pago_id: payment.id,
    medio: payment.method === 'bank_transfer' ? 'transferencia' : 'tarjeta',
    monto_centavos: payment.amountCentavos,
    pago_proveedor_id: payment.providerPaymentId,
    resuelto: payment.settledAt.toISOString(),
  };
}

/** The documentation's payment. */
export function samplePayment(now: Date): SettledOnlineTopUp {
  return { id: 'recarga-0f3c2a9b-5d1e-4c7a-9e21-3b8d6f0a1c55', method: 'card', amountCentavos: 10_000, providerPaymentId: 'pa_tarjeta0001', settledAt: now };
}

/** An online payment (card or transfer) credited, with the balance it left. Once per payment. */
export const onlineTopUpCredited = defineNotificationKind({
  kind: 'online_top_up_credited',
  tipo: 'pago_en_linea_acreditado',
  contact: 'billing',
  label: 'Pago en línea acreditado',
  notice: ({ integration, payment, balanceCentavos }: { integration: IntegrationNamed; payment: SettledOnlineTopUp; balanceCentavos: number }) => ({
    integration,
    key: `pago_en_linea_acreditado:${payment.id}`,
    titulo: 'Su pago en línea fue acreditado',
    mensaje:
      `Acreditamos ${formatQuetzales(payment.amountCentavos)} a «${integration.nombre}» por su pago en línea ` +
      `(${payment.method === 'bank_transfer' ? 'transferencia bancaria' : 'tarjeta'}). Su saldo ahora es ${formatQuetzales(balanceCentavos)}.`,
    datos: { ...onlineTopUpData(payment), saldo_centavos: balanceCentavos },
  }),
  docs: {
    when: 'Un pago en línea (tarjeta o transferencia) desde el portal se acreditó al saldo (`datos.saldo_centavos`), con el identificador del pago (`datos.pago_id`) y el del proveedor (`datos.pago_proveedor_id`). Uno por pago.',
    exampleId: 14,
    example: ({ integration, now }) => ({ integration, payment: samplePayment(now), balanceCentavos: 91_250 }),
  },
  heard: on(onlineTopUpCreditedEvent),
});
