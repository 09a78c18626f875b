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
  | { kind: 'unavailable' }
  /** The password was right, and this account signs in through the identity provider only (docs/sso.md). */
  | { kind: 'use_identity_provider' }
  /** A sign-in through the identity provider, refused (lib/flows/auth/sso.ts). */
  | { kind: SsoRefusal };

/** Why a sign-in through the identity provider was refused: the audit's reason and the page's code alike. */
export const SSO_REFUSALS = [
  'sso_no_role',
  'sso_wrong_tenant',
  'sso_wrong_domain',
  'sso_no_email',
  'sso_not_linked',
  'sso_deactivated',
  'sso_expired_token',
  'sso_invalid_token',
  'sso_unavailable',
  'sso_cancelled',
] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];

/** next-auth's own codes for a failed exchange with the provider, as the refusal each stands for. */
const NEXT_AUTH_PROVIDER_CODES: Record<string, SsoRefusal> = {
  // The sign-in could not start: the discovery document did not come.
  OAuthSignin: 'sso_unavailable',
  // The provider's answer failed a check (its token, its state) or its token endpoint did not answer.
  OAuthCallback: 'sso_invalid_token',
  AccessDenied: 'sso_cancelled',
};

/** The reasons as the audit log and the sign-in page say them. */
export const SSO_REFUSAL_WORDS: Record<SsoRefusal, string> = {
  sso_no_role: 'su cuenta no pertenece a ningún grupo con acceso',
  sso_wrong_tenant: 'la cuenta es de otra organización (otro inquilino de Entra ID)',
  sso_wrong_domain: 'la cuenta no es del dominio de la empresa',
  sso_no_email: 'el proveedor no informó el correo de la cuenta',
  sso_not_linked: 'ya existe una cuenta con contraseña con ese correo, y nadie la pasó todavía al proveedor de identidad',
  sso_deactivated: 'la cuenta está desactivada aquí',
  sso_expired_token: 'la respuesta del proveedor venció',
  sso_invalid_token: 'la respuesta del proveedor no era válida',
  sso_unavailable: 'el proveedor de identidad no respondió',
  sso_cancelled: 'la persona canceló el inicio de sesión en el proveedor',
};

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
  const plain: Array<SignInRefusal['kind']> = ['invalid_credentials', 'locked_now', 'rate_limited', 'unavailable', 'use_identity_provider', ...SSO_REFUSALS];
  if (plain.includes(code as SignInRefusal['kind'])) return { kind: code } as SignInRefusal;
  return Object.hasOwn(NEXT_AUTH_PROVIDER_CODES, code) ? { kind: NEXT_AUTH_PROVIDER_CODES[code]! } : undefined;
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
    case 'use_identity_provider':
      return 'Esta cuenta entra con el proveedor de identidad de la empresa: use el botón «Entrar con …» de arriba.';
    case 'sso_no_role':
    case 'sso_wrong_tenant':
    case 'sso_wrong_domain':
    case 'sso_not_linked':
    case 'sso_deactivated':
      return `No puede entrar: ${SSO_REFUSAL_WORDS[refusal.kind]}. Si debería tener acceso, pídalo a quien administra los accesos de su empresa.`;
    case 'sso_no_email':
    case 'sso_expired_token':
    case 'sso_invalid_token':
      return `No se pudo confirmar su identidad: ${SSO_REFUSAL_WORDS[refusal.kind]}. Vuelva a intentarlo; si se repite, avise al administrador.`;
    case 'sso_unavailable':
      return 'El proveedor de identidad no responde en este momento. Vuelva a intentarlo en unos minutos; si la consola urge, un administrador puede entrar con su cuenta de emergencia.';
    case 'sso_cancelled':
      return 'Se canceló el inicio de sesión en el proveedor de identidad.';
  }
}

/** What the page shows for an `error` parameter: our codes' texts, one fixed sentence for the rest. */
export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  const refusal = parseSignInErrorCode(code);
  return refusal ? signInRefusalMessage(refusal) : GENERIC_SIGN_IN_ERROR;
}
