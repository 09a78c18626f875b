import { Secret, TOTP } from 'otpauth';

// The codes of an authenticator app (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps), which every
// common app (Google Authenticator, Microsoft Authenticator, 1Password, Authy) reads from the QR code.

export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the previous and the next step are accepted too: phone clocks drift, people type slowly. */
export const TOTP_WINDOW_STEPS = 1;
/** The name the app shows above the codes: the console's, or the portal's ('Consultas GT Portal'). */
export const TOTP_ISSUER = 'Consultas GT';

/** A new random secret (160 bits, as RFC 4226 recommends), in base32 as apps expect it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, account: string, issuer = TOTP_ISSUER): TOTP {
  return new TOTP({ issuer, label: account, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** The otpauth:// address the QR code holds. */
export function enrolmentUri(secret: string, account: string, issuer = TOTP_ISSUER): string {
  return totp(secret, account, issuer).toString();
}

/** What a user types: digits, perhaps with spaces; anything else is not a TOTP code. */
export function normalizeTotpCode(typed: string): string | undefined {
  const digits = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/**
 * The time step whose code `code` is, within one step of `now`; undefined when it matches none.
 * The caller refuses a step not later than the last one accepted (a replay).
 */
export function matchingStep(secret: string, code: string, now: number = Date.now()): number | undefined {
  const normalized = normalizeTotpCode(code);
  if (!normalized) return undefined;
  const delta = totp(secret, 'check').validate({ token: normalized, timestamp: now, window: TOTP_WINDOW_STEPS });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code for an instant (tests, and nothing else in the app needs to produce one). */
export function totpCodeAt(secret: string, timestamp: number): string {
  return totp(secret, 'check').generate({ timestamp });
}
