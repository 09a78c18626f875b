// An online payment's refunds and their credit notes
// (app/admin/(console)/recargas/pagos/[pago]/actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { positiveQuetzalesField } from '@/lib/presentation/form-fields';
import { consoleAction } from '@/lib/surfaces/console/action';
import { REFUND_MESSAGES } from '@/lib/flows/online-top-ups/messages';
import { refundOnlinePayment, retryRefundCreditNote } from '@/lib/flows/online-top-ups/refunds';
import { MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';

// Refunding an online payment moves money and speaks to the provider and to SAT: administrators
// only (consoleAction refuses support staff on the server, and the flow checks the role again).

const schema = z.object({
  pago: z.string().trim().min(1).max(100),
  // Absent: all that is left of the payment.
  monto: positiveQuetzalesField.optional(),
  motivo: z.string({ error: REFUND_MESSAGES.reasonInvalid }).trim().min(1, REFUND_MESSAGES.reasonInvalid).max(MAX_VOID_REASON_LENGTH, REFUND_MESSAGES.reasonInvalid),
});

export const refundOnlinePaymentAction = consoleAction({ role: 'admin', schema }, async ({ pago, monto, motivo }, user) => {
  const result = await refundOnlinePayment(configuredPaymentProvider(), user, pago, motivo, monto);
  if (!result.ok) return { ok: false, message: result.error.message };
  revalidatePath(`/admin/recargas/pagos/${pago}`);
  const state = result.value.refund.state;
  return { ok: true, message: REFUND_MESSAGES[state], data: undefined };
});

// Sending a refund's refused credit note again moves no money, but it is a document for SAT: an
// administrator's change, as retrying an invoice is.
export const retryRefundCreditNoteAction = consoleAction({ role: 'admin', schema: z.object({ pago: z.string().trim().min(1).max(100), reembolso: z.coerce.number().int().positive() }) }, async ({ pago, reembolso }, user) => {
  const result = await retryRefundCreditNote(user.actor, reembolso);
  if (!result.ok) return { ok: false, message: result.error.message };
  revalidatePath(`/admin/recargas/pagos/${pago}`);
  return { ok: true, message: result.value.queued ? REFUND_MESSAGES.creditNoteQueued : REFUND_MESSAGES.creditNoteNotToCorrect, data: undefined };
});
