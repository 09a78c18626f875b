// An invoice's void, credit note, receptor correction and retry (app/admin/(console)/facturas/[id]/actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requestCreditNote, requestReceptorCorrection, requestVoid } from '@/lib/core/billing/invoice-reversals';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { CORRECTION_MESSAGES, retryInvoice } from '@/lib/flows/invoicing/corrections';
import { MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';
import { idField } from '@/lib/presentation/form-fields';
import { receptorText } from '@/lib/presentation/invoice-labels';
import { REVERSAL_MESSAGES, wordedReversal } from '@/lib/presentation/invoice-messages';

// Voiding an invoice and issuing its credit note move money and speak to SAT: administrators
// only (consoleAction refuses support staff on the server, whatever their browser sends).

const reasonField = z.string({ error: REVERSAL_MESSAGES.reasonInvalid }).trim().min(1, REVERSAL_MESSAGES.reasonInvalid).max(MAX_VOID_REASON_LENGTH, REVERSAL_MESSAGES.reasonInvalid);
const schema = z.object({ invoiceId: idField, motivo: reasonField });

export const voidInvoiceAction = consoleAction({ role: 'admin', schema }, async ({ invoiceId, motivo }, user) => {
  const result = wordedReversal(await requestVoid(user.actor, invoiceId, motivo));
  if (result.ok) revalidatePath(`/admin/facturas/${invoiceId}`);
  return fromResult(result, ({ created, reversal }) => ({ message: created ? REVERSAL_MESSAGES.voidRequested(reversal.amountCentavos) : REVERSAL_MESSAGES.alreadyRequested, data: undefined }));
});

export const creditNoteAction = consoleAction({ role: 'admin', schema }, async ({ invoiceId, motivo }, user) => {
  const result = wordedReversal(await requestCreditNote(user.actor, invoiceId, motivo));
  if (result.ok) revalidatePath(`/admin/facturas/${invoiceId}`);
  return fromResult(result, ({ created, reversal }) => ({ message: created ? REVERSAL_MESSAGES.creditNoteRequested(reversal.amountCentavos) : REVERSAL_MESSAGES.alreadyRequested, data: undefined }));
});

// «Corregir receptor»: the invoice voided or credited back and reissued to the integration's receptor
// as it is now, the balance untouched; administrators only, and once however often it is sent.
export const correctReceptorAction = consoleAction({ role: 'admin', schema }, async ({ invoiceId, motivo }, user) => {
  const result = wordedReversal(await requestReceptorCorrection(user.actor, invoiceId, motivo));
  if (result.ok) {
    revalidatePath(`/admin/facturas/${invoiceId}`);
    revalidatePath('/admin/facturas');
  }
  return fromResult(result, ({ created, reversal }) => ({
    message: created ? REVERSAL_MESSAGES.correctionRequested(reversal.kind, receptorText({ receptorKind: reversal.correctionReceptorKind!, receptorId: reversal.correctionReceptorId!, receptorName: reversal.correctionReceptorName })) : REVERSAL_MESSAGES.correctionAlreadyRequested,
    data: undefined,
  }));
});

// "Reintentar con el mismo identificador" on an invoice to correct (lib/flows/invoicing/corrections.ts):
// administrators only; a second sending of the form, or a click on another instance, changes nothing.
export const retryInvoiceAction = consoleAction({ role: 'admin', schema: z.object({ invoiceId: idField }) }, async ({ invoiceId }, user) => {
  const result = await retryInvoice(user.actor, invoiceId);
  if (!result.ok) return { ok: false, message: result.error.message };
  revalidatePath(`/admin/facturas/${invoiceId}`);
  revalidatePath('/admin/facturas');
  return { ok: true, message: result.value.queued ? CORRECTION_MESSAGES.queued : CORRECTION_MESSAGES.notToCorrect, data: undefined };
});
