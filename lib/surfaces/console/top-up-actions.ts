// Deciding a reported top-up: approving or rejecting it (app/admin/(console)/recargas/actions.ts is
// their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField, positiveQuetzalesField } from '@/lib/presentation/form-fields';
import { formatQuetzales } from '@/lib/platform/money';
import { bankName } from '@/lib/platform/guatemala/banks';
import { approveTopUpRequest, creditedCentavos, rejectTopUpRequest } from '@/lib/flows/top-ups/requests';
import { INVOICE_MESSAGES } from '@/lib/presentation/invoice-messages';

// An administrator decides a reported deposit. Approval credits through the console's top-up in
// one transaction with the request (lib/flows/top-ups/requests.ts), the amount reported or another one
// with a note; a rejection moves nothing.

const requestId = idField.max(2_147_483_647, 'Identificador inválido.');

const refresh = () => revalidatePath('/admin', 'layout');

const approveSchema = z.object({
  solicitud: requestId,
  // Absent (a form of before, the CLI's way) or as reported: the reported amount.
  monto: positiveQuetzalesField.optional(),
  nota: z.string().max(1_000).optional(),
});

export const approveTopUpRequestAction = consoleAction({ role: 'admin', schema: approveSchema }, async ({ solicitud, monto, nota }, user) => {
  const result = await approveTopUpRequest(user.actor, solicitud, { amountCentavos: monto, note: nota });
  if (result.ok) refresh();
  if (!result.ok && result.fieldErrors) return { ok: false, message: result.error.message, fieldErrors: result.fieldErrors };
  return fromResult(result, ({ request, balanceCentavos, invoiceAwaitsReceptor }) => {
    const credited = creditedCentavos(request);
    const other = credited !== request.amountCentavos ? ` en lugar de los ${formatQuetzales(request.amountCentavos)} reportados` : '';
    const invoice = invoiceAwaitsReceptor ? ` ${INVOICE_MESSAGES.awaitingReceptor}` : '';
    const notice = `Recarga de ${formatQuetzales(credited)} acreditada${other} (${bankName(request.bank)}, referencia ${request.reference}). Saldo de la integración: ${formatQuetzales(balanceCentavos)}.${invoice}`;
    // Also as data: the request leaves the list with its form, so the page shows it (decision-forms.tsx).
    return { message: notice, data: { notice } };
  });
});

export const rejectTopUpRequestAction = consoleAction(
  { role: 'admin', schema: z.object({ solicitud: requestId, motivo: z.string().max(1_000) }) },
  async ({ solicitud, motivo }, user) => {
    const result = await rejectTopUpRequest(user.actor, solicitud, motivo);
    if (result.ok) refresh();
    if (!result.ok && result.error.code === 'invalid') return { ok: false, message: result.error.message, fieldErrors: { motivo: result.error.message } };
    return fromResult(result, (request) => {
      const notice = `Solicitud de ${formatQuetzales(request.amountCentavos)} rechazada; la integración verá el motivo.`;
      return { message: notice, data: { notice } };
    });
  },
);
