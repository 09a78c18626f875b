'use server';

import { z } from 'zod';
import { consoleAction, fromResult } from '@/lib/auth/action';
import { changeOwnPassword, passwordSchema } from '@/lib/users/service';

// Any signed-in user may change their own password (support included): it changes nothing else.
export const changePasswordAction = consoleAction(
  {
    role: 'support',
    schema: z
      .object({
        actual: z.string().min(1, 'Escribe tu contraseña actual.'),
        nueva: passwordSchema,
        confirmacion: z.string(),
      })
      .refine((input) => input.nueva === input.confirmacion, { path: ['confirmacion'], message: 'La confirmación no coincide con la nueva contraseña.' }),
  },
  async ({ actual, nueva }, user) => {
    const result = await changeOwnPassword(user.actor, actual, nueva);
    return fromResult(result, () => ({ message: 'Contraseña cambiada. Vuelve a iniciar sesión con la nueva.', data: undefined }));
  },
);
