// «Mi cuenta»'s changes: the user's own password and their other sessions (app/admin/(console)/cuenta/actions.ts
// is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { endOwnSession } from '@/lib/flows/auth/sessions';
import { consoleClientIp } from '@/lib/surfaces/console/session';
import { changeOwnPassword, passwordSchema } from '@/lib/flows/auth/users';

// Any signed-in user may change their own password (support included): it changes nothing else.
// It is the one action open to a user who must still replace an initial or reset password.
export const changePasswordAction = consoleAction(
  {
    role: 'support',
    allowPending: 'password_change',
    schema: z
      .object({
        actual: z.string().min(1, 'Escriba su contraseña actual.'),
        nueva: passwordSchema,
        confirmacion: z.string(),
      })
      .refine((input) => input.nueva === input.confirmacion, { path: ['confirmacion'], message: 'La confirmación no coincide con la nueva contraseña.' }),
  },
  async ({ actual, nueva }, user) => {
    // Wrong current passwords are counted per address too.
    const result = await changeOwnPassword(user.actor, actual, nueva, await consoleClientIp());
    return fromResult(result, () => ({ message: 'Contraseña cambiada. Vuelva a iniciar sesión con la nueva.', data: undefined }));
  },
);

// Ending one of one's own other sessions ("Sesiones activas"): that browser is signed out at its
// next request. Only the user's own sessions can match the id.
export const endOwnSessionAction = consoleAction(
  { role: 'support', schema: z.object({ sesion: z.string().min(1).max(64) }) },
  async ({ sesion }, user) => {
    if (sesion === user.sessionPublicId) return { ok: false, message: 'Para cerrar esta sesión use «Cerrar sesión».' };
    const ended = await endOwnSession(user.actor, sesion);
    revalidatePath('/admin/cuenta');
    return ended
      ? // The list says so above itself: this row goes away with the refreshed page.
        { ok: true, data: undefined }
      : { ok: false, message: 'Esa sesión ya había terminado.' };
  },
);
