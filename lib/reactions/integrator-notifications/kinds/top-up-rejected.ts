import { formatQuetzales } from '@/lib/platform/money';
import { topUpRejected as topUpRejectedEvent, type DecidedTopUp } from '@/lib/flows/top-ups/events';
import { defineNotificationKind, on, type IntegrationNamed } from './notice';
import { sampleTopUp, topUpData } from './top-up-approved';

/** A reported deposit the administration rejected, with its reason. Once per request. */
export const topUpRejected = defineNotificationKind({
  kind: 'top_up_rejected',
  tipo: 'recarga_rechazada',
  contact: 'billing',
  label: 'Recarga rechazada',
  notice: ({ integration, request }: { integration: IntegrationNamed; request: DecidedTopUp }) => ({
    integration,
    key: `recarga_rechazada:${request.id}`,
    titulo: 'Su recarga no fue acreditada',
    mensaje:
      `No acreditamos el depósito de ${formatQuetzales(request.amountCentavos)} en ${request.bankName} con referencia ${request.reference} a «${integration.nombre}». ` +
      `Motivo: ${request.reason ?? 'sin motivo'}. Puede reportarlo de nuevo, corregido, en el portal (Recargas).`,
    datos: { ...topUpData(request), motivo: request.reason },
  }),
  docs: {
    when: 'La administración rechazó un depósito reportado en el portal, con su motivo (`datos.motivo`); puede reportarlo de nuevo, corregido. Uno por solicitud.',
    exampleId: 18,
    example: ({ integration, now }) => ({
      integration,
      request: { ...sampleTopUp(now), id: 20, reference: '88123457', reason: 'El depósito no aparece en el estado de cuenta del banco.' },
    }),
  },
  heard: on(topUpRejectedEvent),
});
