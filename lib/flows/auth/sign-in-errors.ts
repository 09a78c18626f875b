// Why a console sign-in was refused, as a short code in the `error` query parameter next-auth
// carries to the sign-in page, and the Spanish text each code shows. Only these codes ever become
// text on the page: whatever else arrives in `?error=` (next-auth's own codes, a crafted link, an
// exception's message) shows the one generic sentence below, never itself.
// Imported by the sign-in form in the browser: no server-only imports here.

export const SIGN_IN_ERROR_PARAM = 'error';
export const SIGN_IN_LOCK_MINUTES = 15;
/** The longest an account's pace makes a sign-in wait (ACCOUNT_PACE.maxSeconds in lib/flows/auth/throttle.ts). */
export const SIGN_IN_PACE_MAX_SECONDS = 60;

export type SignInRefusal =
  | { kind: 'invalid_credentials' }
  | { kind: 'attempts_left'; left: number }
  | { kind: 'locked_now' }
  | { kind: 'locked'; minutes: number }
  /** The account is being guessed at from elsewhere and takes one attempt at a time (lib/flows/auth/throttle.ts). */
  | { kind: 'paced'; seconds: number }
  | { kind: 'rate_limited' }
  | { kind: 'unavailable' };

export const GENERIC_SIGN_IN_ERROR = 'No se pudo iniciar sesión. Vuelva a intentarlo en un momento.';

export function signInErrorCode(refusal: SignInRefusal): string {
  switch (refusal.kind) {
    case 'attempts_left':
      return `attempts_left_${refusal.left}`;
    case 'locked':
      return `locked_${refusal.minutes}`;
    case 'paced':
      return `paced_${refusal.seconds}`;
    default:
      return refusal.kind;
  }
}

/** The refusal a code stands for; undefined for anything that is not one of ours. */
export function parseSignInErrorCode(code: string): SignInRefusal | undefined {
  const counted = /^(attempts_left|locked|paced)_(\d{1,2})$/.exec(code);
  if (counted) {
    const count = Number(counted[2]);
    if (counted[1] === 'attempts_left') return count >= 1 && count <= 9 ? { kind: 'attempts_left', left: count } : undefined;
    if (counted[1] === 'paced') return count >= 1 && count <= SIGN_IN_PACE_MAX_SECONDS ? { kind: 'paced', seconds: count } : undefined;
    return count >= 1 && count <= SIGN_IN_LOCK_MINUTES ? { kind: 'locked', minutes: count } : undefined;
  }
  const plain: Array<SignInRefusal['kind']> = ['invalid_credentials', 'locked_now', 'rate_limited', 'unavailable'];
  return plain.includes(code as SignInRefusal['kind']) ? ({ kind: code } as SignInRefusal) : undefined;
}

export function signInRefusalMessage(refusal: SignInRefusal): string {
  switch (refusal.kind) {
    case 'invalid_credentials':
      return 'Correo o contraseña incorrectos.';
    case 'attempts_left':
      return `Correo o contraseña incorrectos. Le ${refusal.left === 1 ? 'queda 1 intento' : `quedan ${refusal.left} intentos`} antes de que el acceso desde esta dirección se bloquee durante ${SIGN_IN_LOCK_MINUTES} minutos.`;
    case 'locked_now':
      return `Demasiados intentos fallidos. Por seguridad el acceso desde esta dirección queda bloqueado durante ${SIGN_IN_LOCK_MINUTES} minutos.`;
    case 'locked':
      return `Demasiados intentos fallidos. Por seguridad el acceso desde esta dirección está bloqueado; vuelva a intentarlo en ${refusal.minutes} ${refusal.minutes === 1 ? 'minuto' : 'minutos'}.`;
    case 'paced':
      return `Esta cuenta está recibiendo muchos intentos fallidos de inicio de sesión. Por seguridad solo admite un intento a la vez desde dispositivos que no ha usado antes: vuelva a intentarlo en ${refusal.seconds} ${refusal.seconds === 1 ? 'segundo' : 'segundos'}.`;
    case 'rate_limited':
      return 'Demasiados intentos de inicio de sesión desde esta dirección. Espere un minuto y vuelva a intentarlo.';
    case 'unavailable':
      return GENERIC_SIGN_IN_ERROR;
  }
}

/** What the page shows for an `error` parameter: our codes' texts, one fixed sentence for the rest. */
export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  const refusal = parseSignInErrorCode(code);
  return refusal ? signInRefusalMessage(refusal) : GENERIC_SIGN_IN_ERROR;
}
