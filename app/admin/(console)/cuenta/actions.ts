'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { consoleAction, fromResult } from '@/lib/auth/action';
import { env } from '@/lib/env';
import { requestClientIp } from '@/lib/limits/client-ip';
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
    const requestHeaders = await headers();
    // The client's address as the sign-in throttle sees it: wrong current passwords are counted per address too.
    const clientIp = requestClientIp((name) => requestHeaders.get(name), env());
    const result = await changeOwnPassword(user.actor, actual, nueva, clientIp);
    return fromResult(result, () => ({ message: 'Contraseña cambiada. Vuelve a iniciar sesión con la nueva.', data: undefined }));
  },
);
