'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { z } from 'zod';
import { idField, positiveQuetzalesField } from '@/lib/presentation/form-fields';
import { formatQuetzales } from '@/lib/platform/money';
import { portalAction } from '@/lib/surfaces/portal/action';
import { TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { bankName } from '@/lib/platform/guatemala/banks';
import { cancelTopUpRequest, reportTopUp } from '@/lib/flows/top-ups/requests';
import { TOP_UP_MESSAGES } from '@/lib/flows/top-ups/messages';
import { MAX_SLIP_BYTES, SLIP_MESSAGES } from '@/lib/flows/top-ups/slips';
import { cancelOnlineTopUp, onlineTopUpNeedsReceptor, quoteOnlineTopUp, startOnlineTopUp, type OnlineTopUpQuote } from '@/lib/flows/online-top-ups/payments';
import { ONLINE_TOP_UP_MESSAGES, onlineTopUpQuoteMessage } from '@/lib/flows/online-top-ups/messages';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { publicOrigin } from '@/lib/platform/http/base-url';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';

// "Recargas": an owner or a billing person reports a deposit or transfer for the session's
// integration, and its reporter (or an owner) cancels one while it is pending. Nothing moves money
// here: an administrator approves it in the console.

const reportSchema = z.object({
  banco: z.string().max(40),
  referencia: z.string().max(200),
  fecha: z.string().max(20),
  monto: positiveQuetzalesField,
  // A File from the browser; its size is refused before its bytes are read.
  boleta: z
    .custom<Blob>((value) => value instanceof Blob, SLIP_MESSAGES.wrongType)
    .refine((blob) => blob.size <= MAX_SLIP_BYTES, SLIP_MESSAGES.tooLarge)
    .optional(),
});

export const reportTopUpAction = portalAction({ roles: TOP_UP_REPORTERS, schema: reportSchema }, async ({ banco, referencia, fecha, monto, boleta }, user) => {
  const slip = boleta ? new Uint8Array(await boleta.arrayBuffer()) : undefined;
  const result = await reportTopUp(user, { bank: banco, reference: referencia, depositDate: fecha, amountCentavos: monto, slip });
  if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.fieldErrors };
  revalidatePath('/portal/recargas');
  return {
    ok: true,
    message: `Reportó el depósito de ${formatQuetzales(result.value.amountCentavos)} en ${bankName(result.value.bank)}, referencia ${result.value.reference}. La administración lo revisará; el saldo cambia cuando lo apruebe.${
      (await onlineTopUpNeedsReceptor(user.integrationId, result.value.amountCentavos)) ? ` ${TOP_UP_MESSAGES.receptorMissing}` : ''
    }`,
    data: undefined,
  };
});

/** "Cancelar reporte": a pending report withdrawn by its reporter or an owner (lib/flows/top-ups/requests.ts). */
export const cancelTopUpRequestAction = portalAction(
  { roles: TOP_UP_REPORTERS, schema: z.object({ solicitud: idField.max(2_147_483_647, 'Identificador inválido.') }) },
  async ({ solicitud }, user) => {
    const result = await cancelTopUpRequest(user, solicitud);
    if (!result.ok) return { ok: false, message: result.error.message };
    revalidatePath('/portal/recargas');
    return {
      ok: true,
      message: `Canceló el reporte del depósito de ${formatQuetzales(result.value.amountCentavos)} en ${bankName(result.value.bank)}, referencia ${result.value.reference}: ya no se revisará. Si el depósito existe, puede reportarlo de nuevo con los datos correctos.`,
      data: undefined,
    };
  },
);

const onlineSchema = z.object({ monto: positiveQuetzalesField });

/** "Pagar en línea", first step: what will be credited, the fee and the total, before paying. */
export const quoteOnlineTopUpAction = portalAction({ roles: TOP_UP_REPORTERS, schema: onlineSchema }, async ({ monto }, user): Promise<ActionResult<OnlineTopUpQuote>> => {
  if (configuredPaymentProvider() === null) return { ok: false, message: ONLINE_TOP_UP_MESSAGES.off };
  const quote = quoteOnlineTopUp(monto);
  if (!quote.ok) return { ok: false, message: quote.error.message, fieldErrors: { monto: quote.error.message } };
  // Said before the person goes on to pay: such a payment would not be started.
  if (await onlineTopUpNeedsReceptor(user.integrationId, quote.value.amountCentavos)) {
    return { ok: false, message: ONLINE_TOP_UP_MESSAGES.receptorNeeded, fieldErrors: { monto: ONLINE_TOP_UP_MESSAGES.receptorNeeded } };
  }
  return { ok: true, message: onlineTopUpQuoteMessage(quote.value), data: quote.value };
});

/**
 * "Pagar en línea", confirmed: the top-up and its hosted checkout; the browser goes to its URL. The
 * return addresses carry only our top-up's id, and the page there reads our own row, never the
 * browser's word.
 */
export const startOnlineTopUpAction = portalAction({ roles: TOP_UP_REPORTERS, schema: onlineSchema }, async ({ monto }, user): Promise<ActionResult<{ checkoutUrl: string }>> => {
  const origin = publicOrigin(await headers());
  const returnPage = (id: string) => `${origin}/portal/recargas/pagos/${id}`;
  const started = await startOnlineTopUp(configuredPaymentProvider(), user, monto, { successUrl: returnPage, cancelUrl: (id) => `${returnPage(id)}?cancelado=1` });
  if (!started.ok) return { ok: false, message: started.error.message };
  revalidatePath('/portal/recargas');
  return { ok: true, message: 'Abriendo la página de pago…', data: { checkoutUrl: started.value.checkoutUrl } };
});

/** «Cancelar este pago»: a checkout of the caller's own integration that nobody paid is given up (lib/flows/online-top-ups/payments.ts). */
export const cancelOnlineTopUpAction = portalAction(
  { roles: TOP_UP_REPORTERS, schema: z.object({ pago: z.string().regex(/^recarga-[0-9a-f-]{36}$/, ONLINE_TOP_UP_MESSAGES.notFound) }) },
  async ({ pago }, user) => {
    const result = await cancelOnlineTopUp(user, pago);
    if (!result.ok) return { ok: false, message: result.error.message };
    revalidatePath('/portal/recargas');
    return result.value.cancelled ? { ok: true, message: ONLINE_TOP_UP_MESSAGES.cancelled, data: undefined } : { ok: false, message: ONLINE_TOP_UP_MESSAGES.notCancellable };
  },
);
