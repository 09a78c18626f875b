// The user's own two-factor sign-in (app/admin/(console)/cuenta/two-factor-actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { replaceSessionCookie } from '@/lib/flows/auth/session-cookie';
import { consoleClientIp } from '@/lib/surfaces/console/session';
import { confirmEnrolment, disableOwnTwoFactor, regenerateRecoveryCodes, startEnrolment } from '@/lib/flows/two-factor/service';

// The user's own two-factor sign-in ("Mi cuenta", and the enrolment page an administrator is sent
// to in production). Enrolment is the one thing open to a session whose user must enrol first.

const codeSchema = z.object({ codigo: z.string().trim().min(1, 'Escriba el código.').max(64, 'Ese código es demasiado largo.') });

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
  const result = await regenerateRecoveryCodes(user.actor, codigo, await consoleClientIp());
  return fromResult(result, (value) => ({ message: 'Códigos nuevos generados; los anteriores ya no sirven.', data: value }));
});

export const disableTwoFactorAction = consoleAction({ role: 'support', schema: codeSchema }, async ({ codigo }, user) => {
  const result = await disableOwnTwoFactor(user.actor, user.role, codigo, await consoleClientIp());
  if (result.ok) revalidatePath('/admin/cuenta');
  return fromResult(result, () => ({ message: 'Verificación en dos pasos desactivada.', data: undefined }));
});
