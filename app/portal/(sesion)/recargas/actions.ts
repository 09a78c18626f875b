'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { OnlineTopUpQuote } from '@/lib/flows/online-top-ups/payments';
import { idField, positiveQuetzalesField } from '@/lib/presentation/form-fields';
import { formatQuetzales } from '@/lib/platform/money';
import { portalAction } from '@/lib/surfaces/portal/action';
import { TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { bankName } from '@/lib/platform/guatemala/banks';
import {
  cancelPortalOnlineTopUp,
  cancelPortalTopUpRequest,
  ONLINE_TOP_UP_MESSAGES,
  PORTAL_SLIP_RULES,
  quotePortalOnlineTopUp,
  reportPortalTopUp,
  startPortalOnlineTopUp,
} from '@/lib/surfaces/portal/top-ups';
import type { ActionResult } from '@/lib/surfaces/portal/action';

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
    .custom<Blob>((value) => value instanceof Blob, PORTAL_SLIP_RULES.messages.wrongType)
    .refine((blob) => blob.size <= PORTAL_SLIP_RULES.maxBytes, PORTAL_SLIP_RULES.messages.tooLarge)
    .optional(),
});

export const reportTopUpAction = portalAction({ roles: TOP_UP_REPORTERS, schema: reportSchema }, async ({ banco, referencia, fecha, monto, boleta }, user) => {
  const slip = boleta ? new Uint8Array(await boleta.arrayBuffer()) : undefined;
  const result = await reportPortalTopUp(user, { bank: banco, reference: referencia, depositDate: fecha, amountCentavos: monto, slip });
  if (!result.ok) return { ok: false, message: result.message, fieldErrors: result.fieldErrors };
  revalidatePath('/portal/recargas');
  return { ok: true, message: result.message, data: undefined };
});

/** "Cancelar reporte": a pending report withdrawn by its reporter or an owner (lib/flows/top-ups/requests.ts). */
export const cancelTopUpRequestAction = portalAction(
  { roles: TOP_UP_REPORTERS, schema: z.object({ solicitud: idField.max(2_147_483_647, 'Identificador inválido.') }) },
  async ({ solicitud }, user) => {
    const result = await cancelPortalTopUpRequest(user, solicitud);
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
  const quoted = await quotePortalOnlineTopUp(user, monto);
  if (!quoted.ok) return quoted;
  return { ok: true, message: quoted.message, data: quoted.quote };
});

/**
 * "Pagar en línea", confirmed: the top-up and its hosted checkout; the browser goes to its URL. The
 * return addresses carry only our top-up's id, and the page there reads our own row, never the
 * browser's word.
 */
export const startOnlineTopUpAction = portalAction({ roles: TOP_UP_REPORTERS, schema: onlineSchema }, async ({ monto }, user): Promise<ActionResult<{ checkoutUrl: string }>> => {
  const started = await startPortalOnlineTopUp(user, monto);
  if (!started.ok) return { ok: false, message: started.error.message };
  revalidatePath('/portal/recargas');
  return { ok: true, message: 'Abriendo la página de pago…', data: { checkoutUrl: started.value.checkoutUrl } };
});

/** «Cancelar este pago»: a checkout of the caller's own integration that nobody paid is given up (lib/flows/online-top-ups/payments.ts). */
export const cancelOnlineTopUpAction = portalAction(
  { roles: TOP_UP_REPORTERS, schema: z.object({ pago: z.string().regex(/^recarga-[0-9a-f-]{36}$/, ONLINE_TOP_UP_MESSAGES.notFound) }) },
  async ({ pago }, user) => {
    const result = await cancelPortalOnlineTopUp(user, pago);
    if (!result.ok) return { ok: false, message: result.error.message };
    revalidatePath('/portal/recargas');
    return result.value.cancelled ? { ok: true, message: ONLINE_TOP_UP_MESSAGES.cancelled, data: undefined } : { ok: false, message: ONLINE_TOP_UP_MESSAGES.notCancellable };
  },
);
