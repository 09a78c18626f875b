'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { portalAction } from '@/lib/surfaces/portal/action';
import { changeOwnPortalPassword, endOtherPortalSession, PORTAL_PASSWORD_MAX_LENGTH } from '@/lib/surfaces/portal/account';

// The portal user's own account: the password (every session ends, this one too) and "Sesiones
// activas". Open to every role.

export const changePortalPasswordAction = portalAction(
  {
    schema: z
      .object({
        actual: z.string().min(1, 'Escriba su contraseña actual.').max(PORTAL_PASSWORD_MAX_LENGTH),
        nueva: z.string().min(1, 'Escriba la nueva contraseña.').max(PORTAL_PASSWORD_MAX_LENGTH),
        confirmacion: z.string().max(PORTAL_PASSWORD_MAX_LENGTH),
      })
      .refine((input) => input.nueva === input.confirmacion, { path: ['confirmacion'], message: 'La confirmación no coincide con la nueva contraseña.' }),
  },
  async ({ actual, nueva }, user) => {
    const result = await changeOwnPortalPassword(user, actual, nueva);
    if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.error.code === 'invalid' ? { nueva: result.error.message } : undefined };
    // Its row is gone, so the cookie opens nothing; clearing it here would make Next render this
    // page again in the answer, signed out, before the form shows where to go.
    return { ok: true, message: 'Contraseña cambiada. Vuelva a iniciar sesión con la nueva.', data: undefined };
  },
);

export const endOwnPortalSessionAction = portalAction({ schema: z.object({ sesion: z.string().min(1).max(64) }) }, async ({ sesion }, user) => {
  if (sesion === user.sessionPublicId) return { ok: false, message: 'Para cerrar esta sesión use «Cerrar sesión».' };
  const ended = await endOtherPortalSession(user, sesion);
  revalidatePath('/portal/cuenta');
  return ended ? { ok: true, data: undefined } : { ok: false, message: 'Esa sesión ya había terminado.' };
});
