import { SIGN_IN_LOCK_MINUTES } from './sign-in-errors';
import type { ThrottleRefusal } from './throttle';

// What "Cambiar contraseña" says when the current password is wrong or the changes are locked
// (lib/flows/auth/throttle.ts, scopes password_change_*). The lock covers password changes only:
// signing in is throttled on its own (docs/decisions.md).

export const WRONG_CURRENT_PASSWORD = 'La contraseña actual no es correcta.';

export function passwordChangeRefusalMessage(refusal: ThrottleRefusal): string {
  switch (refusal.kind) {
    case 'invalid_credentials':
      return WRONG_CURRENT_PASSWORD;
    case 'attempts_left':
      return `${WRONG_CURRENT_PASSWORD} Le ${refusal.left === 1 ? 'queda 1 intento' : `quedan ${refusal.left} intentos`} antes de que el cambio de contraseña de su cuenta se bloquee durante ${SIGN_IN_LOCK_MINUTES} minutos.`;
    case 'locked_now':
      return `Demasiados intentos con una contraseña actual incorrecta. Por seguridad el cambio de contraseña de su cuenta queda bloqueado durante ${SIGN_IN_LOCK_MINUTES} minutos.`;
    case 'locked':
      return `Demasiados intentos con una contraseña actual incorrecta. Por seguridad el cambio de contraseña está bloqueado; vuelva a intentarlo en ${refusal.minutes} ${refusal.minutes === 1 ? 'minuto' : 'minutos'}.`;
  }
}
