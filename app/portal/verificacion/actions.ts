'use server';

import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/portal/action';
import { portalAction } from '@/lib/surfaces/portal/action';
import { verifyPortalSignInCode } from '@/lib/surfaces/portal/sign-in';

// The second step of a portal sign-in: the one action open to a session whose user has two-factor
// sign-in and has not typed a code yet. Throttled and audited like the password.
export const verifyPortalSecondFactorAction = portalAction(
  { allowPending: 'second_factor', schema: z.object({ codigo: z.string().trim().min(1, 'Escriba el código.').max(64, 'Ese código es demasiado largo.') }) },
  async ({ codigo }, user) => {
    if (user.pendingStep !== 'second_factor') return { ok: true, data: { recoveryCodesLeft: null } };
    // The half-signed session ends; the browser continues in a new one.
    const result = await verifyPortalSignInCode(user, codigo);
    return fromResult(result, ({ method, recoveryCodesLeft }) => ({
      message: 'Código correcto.',
      data: { recoveryCodesLeft: method === 'recovery_code' ? recoveryCodesLeft : null },
    }));
  },
);
