// Signing in's second step (app/admin/verificacion/actions.ts is its entry point).
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { replaceSessionCookie } from '@/lib/flows/auth/session-cookie';
import { consoleClientIp } from '@/lib/surfaces/console/session';
import { verifySignInSecondFactor } from '@/lib/flows/two-factor/service';

// The second step of signing in: the one action open to a session whose user has two-factor
// sign-in and has not typed a code yet. Throttled and audited like the password (lib/flows/two-factor).
export const verifySecondFactorAction = consoleAction(
  {
    role: 'support',
    allowPending: 'second_factor',
    schema: z.object({ codigo: z.string().trim().min(1, 'Escriba el código.').max(64, 'Ese código es demasiado largo.') }),
  },
  async ({ codigo }, user) => {
    if (user.pendingStep !== 'second_factor') return { ok: true, data: { recoveryCodesLeft: null } };
    const result = await verifySignInSecondFactor(user, user.sessionPublicId, codigo, await consoleClientIp());
    // The half-signed session ends; the browser continues in a new one.
    if (result.ok && result.value.sessionId) await replaceSessionCookie(result.value.sessionId);
    return fromResult(result, ({ method, recoveryCodesLeft }) => ({
      message: method === 'recovery_code' ? recoveryCodeUsedMessage(recoveryCodesLeft) : 'Código correcto.',
      data: { recoveryCodesLeft: method === 'recovery_code' ? recoveryCodesLeft : null },
    }));
  },
);

function recoveryCodeUsedMessage(left: number): string {
  const remaining = left === 1 ? 'le queda 1' : `le quedan ${left}`;
  return `Usó un código de recuperación: ya no sirve, ${remaining}. Genere códigos nuevos en «Mi cuenta» si le quedan pocos.`;
}
