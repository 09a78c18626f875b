import { formatQuetzales } from '@/lib/platform/money';
import { topUpApproved as topUpApprovedEvent, type DecidedTopUp } from '@/lib/flows/top-ups/events';
import { defineNotificationKind, on, type IntegrationNamed, type IntegratorNotification } from './notice';

/** A reported deposit as its decision's notices tell of it (top-up-rejected.ts too). */
export function topUpData(request: DecidedTopUp): IntegratorNotification['datos'] {
  return {
    solicitud_id: request.id,
    banco: request.bankName,
    referencia: request.reference,
    fecha_deposito: request.depositDate,
    monto_centavos: request.amountCentavos,
    // Only when the administrator credited another amount than reported.
    ...(request.reportedAmountCentavos !== request.amountCentavos ? { monto_reportado_centavos: request.reportedAmountCentavos } : {}),
    resuelta: request.decidedAt.toISOString(),
  };
}

/** The documentation's reported deposit. */
export function sampleTopUp(now: Date): DecidedTopUp {
  return { id: 19, bankName: 'Banco Industrial', reference: '88123456', depositDate: '2026-11-23', amountCentavos: 50_000, reportedAmountCentavos: 50_000, approvalNote: null, reason: null, decidedAt: now };
}

/** A reported deposit credited by an administrator, with the balance it left. Once per request. */
export const topUpApproved = defineNotificationKind({
  kind: 'top_up_approved',
  tipo: 'recarga_acreditada',
  contact: 'billing',
  label: 'Recarga acreditada',
  notice: ({ integration, request, balanceCentavos }: { integration: IntegrationNamed; request: DecidedTopUp; balanceCentavos: number }) => ({
    integration,
    key: `recarga_acreditada:${request.id}`,
    titulo: 'Su recarga fue acreditada',
    mensaje:
      `Acreditamos ${formatQuetzales(request.amountCentavos)} a «${integration.nombre}» por el depósito en ${request.bankName} con referencia ${request.reference}. ` +
      (request.amountCentavos !== request.reportedAmountCentavos ? `Se había reportado ${formatQuetzales(request.reportedAmountCentavos)}. ` : '') +
      (request.approvalNote ? `Nota de la administración: ${request.approvalNote}. ` : '') +
      `Su saldo ahora es ${formatQuetzales(balanceCentavos)}.`,
    datos: { ...topUpData(request), ...(request.approvalNote ? { nota: request.approvalNote } : {}), saldo_centavos: balanceCentavos },
  }),
  docs: {
    when: 'La administración aprobó un depósito que su integración reportó en el portal (Recargas): ya está en el saldo (`datos.saldo_centavos`). Uno por solicitud. Si acreditó otro monto que el reportado, `datos.monto_centavos` es el acreditado, `datos.monto_reportado_centavos` el reportado y `datos.nota` dice por qué.',
    exampleId: 13,
    example: ({ integration, now }) => ({ integration, request: sampleTopUp(now), balanceCentavos: 81_250 }),
  },
  heard: on(topUpApprovedEvent),
});
