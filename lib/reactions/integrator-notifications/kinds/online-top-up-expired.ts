import { formatQuetzales } from '@/lib/platform/money';
import { onlineTopUpExpired as onlineTopUpExpiredEvent, type SettledOnlineTopUp } from '@/lib/flows/online-top-ups/events';
import { defineNotificationKind, on, type IntegrationNamed } from './notice';
import { onlineTopUpData, samplePayment } from './online-top-up-credited';

/** An online payment that will not be credited: a transfer that never arrived, a checkout unpaid in time. Once per payment. */
export const onlineTopUpExpired = defineNotificationKind({
  kind: 'online_top_up_expired',
  tipo: 'pago_en_linea_expirado',
  contact: 'billing',
  label: 'Pago en línea no completado',
  notice: ({ integration, payment }: { integration: IntegrationNamed; payment: SettledOnlineTopUp }) => ({
    integration,
    key: `pago_en_linea_expirado:${payment.id}`,
    titulo: 'Su pago en línea no se completó',
    mensaje:
      `El pago en línea de ${formatQuetzales(payment.amountCentavos)} para «${integration.nombre}» no se completó a tiempo y no se acreditó. ` +
      'Si el banco debitó el monto, comuníquese con nosotros indicando la fecha y el monto del pago; puede intentarlo de nuevo en el portal (Recargas).',
    datos: onlineTopUpData(payment),
  }),
  docs: {
    when: 'Un pago en línea no se completó a tiempo (una transferencia que no llegó en 24 horas) y no se acreditó. Uno por pago.',
    exampleId: 15,
    example: ({ integration, now }) => ({ integration, payment: { ...samplePayment(now), method: 'bank_transfer' as const, providerPaymentId: 'pa_transferencia01' } }),
  },
  heard: on(onlineTopUpExpiredEvent),
});
