'use server';

import { redirect } from 'next/navigation';
import { after } from 'next/server';
import { z } from 'zod';
import { logger } from '@/lib/platform/logging/logger';
import { PORTAL_PASSWORD_MAX_LENGTH } from '@/lib/surfaces/portal/account';
import { completePortalPasswordResetWithLink, portalSignInLimitAllows, sendPortalPasswordReset } from '@/lib/surfaces/portal/links';

export interface ResetRequestState {
  sent: boolean;
  error: string | null;
}

// POST /portal/restablecer - "¿Olvidaste tu contraseña?": spends from the per-IP sign-in limit, as a
// sign-in does, and answers the same for any address.
export async function requestResetAction(_previous: ResetRequestState, form: FormData): Promise<ResetRequestState> {
  if (!(await portalSignInLimitAllows())) {
    return { sent: false, error: 'Demasiadas solicitudes desde esta dirección. Espere un minuto y vuelva a intentarlo.' };
  }
  // The answer leaves at once, the same for any address; looking the address up, the cap and the
  // e-mail come after it, so the time to answer does not tell which addresses have an account.
  const email = form.get('email');
  after(() => sendPortalPasswordReset(email).catch((error: unknown) => logger('portal').error({ err: error }, 'a portal password reset request failed')));
  return { sent: true, error: null };
}

export interface NewPasswordState {
  error: string | null;
  fieldErrors: Record<string, string>;
}

const newPasswordSchema = z
  .object({ clave: z.string().max(PORTAL_PASSWORD_MAX_LENGTH), repetida: z.string().max(PORTAL_PASSWORD_MAX_LENGTH) })
  .refine((value) => value.clave === value.repetida, { message: 'Las dos contraseñas no coinciden.', path: ['repetida'] });

// POST /portal/restablecer/clave - a new password through the link's code (posted, not in the
// address); every session of the account ends and the person signs in with it.
export async function completeResetAction(_previous: NewPasswordState, form: FormData): Promise<NewPasswordState> {
  if (!(await portalSignInLimitAllows())) {
    return { error: 'Demasiadas solicitudes desde esta dirección. Espere un minuto y vuelva a intentarlo.', fieldErrors: {} };
  }
  const parsed = newPasswordSchema.safeParse({ clave: form.get('clave') ?? '', repetida: form.get('repetida') ?? '' });
  if (!parsed.success) return { error: 'Revise los campos marcados y vuelva a enviar.', fieldErrors: { repetida: parsed.error.issues[0]!.message } };
  const result = await completePortalPasswordResetWithLink(form.get('codigo'), parsed.data.clave);
  if (!result.ok) return { error: result.error.message, fieldErrors: result.error.code === 'invalid' ? { clave: result.error.message } : {} };
  redirect('/portal/ingresar?motivo=clave-restablecida');
}
