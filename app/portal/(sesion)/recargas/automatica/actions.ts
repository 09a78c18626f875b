'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { positiveQuetzalesField } from '@/lib/presentation/form-fields';
import { portalAction } from '@/lib/surfaces/portal/action';
import type { ActionResult } from '@/lib/surfaces/portal/action';
import { AUTO_TOP_UP_MESSAGES, AUTO_TOP_UP_OWNERS, DAILY_MAX_LIMIT, disablePortalAutoTopUp, enablePortalAutoTopUp } from '@/lib/surfaces/portal/auto-top-ups';

// "Recarga automática": an owner saves a card (one already paid with online), a threshold, an
// amount and a daily maximum; or turns it off. Only the session's integration is touched: a payment
// id of another integration is answered as no card at all (lib/flows/auto-top-ups).

const enableSchema = z.object({
  pago: z.string().trim().min(1, AUTO_TOP_UP_MESSAGES.noCard).max(100, AUTO_TOP_UP_MESSAGES.noCard),
  umbral: positiveQuetzalesField,
  monto: positiveQuetzalesField,
  maximo: z.coerce.number({ error: AUTO_TOP_UP_MESSAGES.dailyMax }).int(AUTO_TOP_UP_MESSAGES.dailyMax).min(1, AUTO_TOP_UP_MESSAGES.dailyMax).max(DAILY_MAX_LIMIT, AUTO_TOP_UP_MESSAGES.dailyMax),
});

/** «Activar»: also what changes it, and what resumes it after a pause. */
export const enableAutoTopUpAction = portalAction({ roles: AUTO_TOP_UP_OWNERS, schema: enableSchema }, async ({ pago, umbral, monto, maximo }, user): Promise<ActionResult<undefined>> => {
  const result = await enablePortalAutoTopUp(user, { sourcePaymentId: pago, thresholdCentavos: umbral, amountCentavos: monto, dailyMax: maximo });
  if (!result.ok) return { ok: false, message: result.message, fieldErrors: result.fieldErrors };
  revalidatePath('/portal/recargas/automatica');
  return { ok: true, message: result.message, data: undefined };
});

export const disableAutoTopUpAction = portalAction({ roles: AUTO_TOP_UP_OWNERS, schema: z.object({}) }, async (_input, user): Promise<ActionResult<undefined>> => {
  const result = await disablePortalAutoTopUp(user);
  if (!result.ok) return { ok: false, message: result.error.message };
  revalidatePath('/portal/recargas/automatica');
  return { ok: true, message: AUTO_TOP_UP_MESSAGES.disabled, data: undefined };
});
