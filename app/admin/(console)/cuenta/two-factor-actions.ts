'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { replaceSessionCookie } from '@/lib/flows/auth/session-cookie';
import { env } from '@/lib/platform/settings/env';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { confirmEnrolment, disableOwnTwoFactor, regenerateRecoveryCodes, startEnrolment } from '@/lib/flows/two-factor/service';

// The user's own two-factor sign-in ("Mi cuenta", and the enrolment page an administrator is sent
// to in production). Enrolment is the one thing open to a session whose user must enrol first.

const codeSchema = z.object({ codigo: z.string().trim().min(1, 'Escriba el código.').max(64, 'Ese código es demasiado largo.') });

async function clientIp(): Promise<string> {
  const requestHeaders = await headers();
  return requestClientIp((name) => requestHeaders.get(name), env());
}

export const startTwoFactorEnrolmentAction = consoleAction(
  { role: 'support', allowPending: 'two_factor_enrolment', schema: z.object({}) },
  async (_input, user) => fromResult(await startEnrolment(user), (enrolment) => ({ data: enrolment })),
);

export const confirmTwoFactorEnrolmentAction = consoleAction(
  { role: 'support', allowPending: 'two_factor_enrolment', schema: codeSchema },
  async ({ codigo }, user) => {
    // No revalidation here: a refreshed "Mi cuenta" would replace the form before it shows the
    // recovery codes. The page refreshes when the user says they saved them.
    const result = await confirmEnrolment(user.actor, user.sessionPublicId, codigo);
    // Enrolled, this session is verified: it continues as a new one (the half-signed one ends).
    if (result.ok && result.value.sessionId) await replaceSessionCookie(result.value.sessionId);
    return fromResult(result, ({ recoveryCodes }) => ({ message: 'Verificación en dos pasos activada.', data: { recoveryCodes } }));
  },
);

export const regenerateRecoveryCodesAction = consoleAction({ role: 'support', schema: codeSchema }, async ({ codigo }, user) => {
  const result = await regenerateRecoveryCodes(user.actor, codigo, await clientIp());
  return fromResult(result, (value) => ({ message: 'Códigos nuevos generados; los anteriores ya no sirven.', data: value }));
});

export const disableTwoFactorAction = consoleAction({ role: 'support', schema: codeSchema }, async ({ codigo }, user) => {
  const result = await disableOwnTwoFactor(user.actor, user.role, codigo, await clientIp());
  if (result.ok) revalidatePath('/admin/cuenta');
  return fromResult(result, () => ({ message: 'Verificación en dos pasos desactivada.', data: undefined }));
});
