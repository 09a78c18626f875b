'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/portal/action';
import { portalAction } from '@/lib/surfaces/portal/action';
import { confirmPortalEnrolment, disableOwnPortalTwoFactor, regeneratePortalRecoveryCodes, startPortalEnrolment } from '@/lib/surfaces/portal/account';

// The portal user's own two-factor sign-in ("Mi cuenta", and the page a user who must enrol is
// sent to). Enrolment is the one thing open to a session that must enrol first.

const codeSchema = z.object({ codigo: z.string().trim().min(1, 'Escriba el código.').max(64, 'Ese código es demasiado largo.') });

export const startPortalEnrolmentAction = portalAction({ allowPending: 'two_factor_enrolment', schema: z.object({}) }, async (_input, user) =>
  fromResult(await startPortalEnrolment(user), (enrolment) => ({ data: enrolment })),
);

export const confirmPortalEnrolmentAction = portalAction({ allowPending: 'two_factor_enrolment', schema: codeSchema }, async ({ codigo }, user) => {
  // No revalidation: the recovery codes stay on screen until the person says they saved them.
  // Enrolled, this session is verified: it continues as a new one (the half-signed one ends).
  const result = await confirmPortalEnrolment(user, codigo);
  return fromResult(result, ({ recoveryCodes }) => ({ message: 'Verificación en dos pasos activada.', data: { recoveryCodes } }));
});

export const regeneratePortalRecoveryCodesAction = portalAction({ schema: codeSchema }, async ({ codigo }, user) => {
  const result = await regeneratePortalRecoveryCodes(user, codigo);
  return fromResult(result, (value) => ({ message: 'Códigos nuevos generados; los anteriores ya no sirven.', data: value }));
});

export const disablePortalTwoFactorAction = portalAction({ schema: codeSchema }, async ({ codigo }, user) => {
  const result = await disableOwnPortalTwoFactor(user, codigo);
  if (result.ok) revalidatePath('/portal/cuenta');
  return fromResult(result, () => ({ message: 'Verificación en dos pasos desactivada.', data: undefined }));
});
