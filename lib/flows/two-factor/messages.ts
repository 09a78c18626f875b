import { SIGN_IN_LOCK_MINUTES } from '@/lib/flows/auth/sign-in-errors';
import type { ThrottleRefusal } from '@/lib/flows/auth/throttle';

// What the console says about second-factor codes. Imported by code and tests alike.

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'El código no es correcto o ya se usó.',
  wrongEnrolmentCode: 'El código no coincide. Revise que la aplicación muestre la cuenta recién agregada y escriba el código que aparece ahora.',
  codeFormat: 'Escriba los 6 dígitos de la aplicación o uno de sus códigos de recuperación.',
  alreadyEnrolled: 'La verificación en dos pasos ya está activada en su cuenta.',
  noEnrolmentInProgress: 'La activación no está en curso: vuelva a empezar con «Activar verificación en dos pasos».',
  notEnrolled: 'Ese usuario no tiene la verificación en dos pasos activada.',
  requiredCannotDisable: 'Los administradores deben usar la verificación en dos pasos: no se puede desactivar.',
  resetSelf: 'Su propia verificación en dos pasos se gestiona desde «Mi cuenta».',
} as const;

export function secondFactorRefusalMessage(refusal: ThrottleRefusal): string {
  switch (refusal.kind) {
    case 'invalid_credentials':
      return TWO_FACTOR_MESSAGES.wrongCode;
    case 'attempts_left':
      return `${TWO_FACTOR_MESSAGES.wrongCode} Le ${refusal.left === 1 ? 'queda 1 intento' : `quedan ${refusal.left} intentos`} antes de que los códigos de su cuenta se bloqueen durante ${SIGN_IN_LOCK_MINUTES} minutos.`;
    case 'locked_now':
      return `Demasiados códigos incorrectos. Por seguridad la verificación de su cuenta queda bloqueada durante ${SIGN_IN_LOCK_MINUTES} minutos.`;
    case 'locked':
      return `Demasiados códigos incorrectos. Por seguridad la verificación está bloqueada; vuelva a intentarlo en ${refusal.minutes} ${refusal.minutes === 1 ? 'minuto' : 'minutos'}.`;
  }
}
