import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { sessionCookiesAreSecure } from './cookie-security';
import type { AuthRealm } from './realm';
import { nextAuthSecret } from './secret';

/**
 * A known device: a browser that signed in to an account before carries a cookie saying so, which
 * exempts it from the account's pace (lib/flows/auth/throttle.ts): a stranger guessing the password from
 * elsewhere slows the account down for everybody else, never for the browsers its owner uses.
 *
 * The cookie is `v1.<device id>.<issued, epoch seconds>.<MAC>`, the MAC an HMAC-SHA256 (key derived
 * from NEXTAUTH_SECRET) over the id, the date and the account's e-mail, so it vouches for one
 * account only and cannot be made up or moved. It holds nothing personal and grants nothing but
 * the exemption: the password (and the second factor) are still asked for, and the device loses
 * the exemption after ten failures (ACCOUNT_PACE.knownDeviceTrustedFailures).
 *
 * The portal has its own cookie (`portal-dispositivo`) and its own key: a console device cookie
 * vouches for nothing in the portal, even for the same e-mail address, nor the reverse.
 */

const VERSION = 'v1';
const KEY_INFO: Record<AuthRealm, string> = { console: 'console known devices v1', portal: 'portal known devices v1' };
const COOKIE_NAMES: Record<AuthRealm, string> = { console: 'consola-dispositivo', portal: 'portal-dispositivo' };
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

/** The cookie's name; `__Host-` (Secure, whole site, no Domain) when the console is served over https. */
export function knownDeviceCookieName(secure: boolean, realm: AuthRealm = 'console'): string {
  return secure ? `__Host-${COOKIE_NAMES[realm]}` : COOKIE_NAMES[realm];
}

const cachedKeys = new Map<AuthRealm, { secret: string; key: Buffer }>();

function key(realm: AuthRealm): Buffer {
  const secret = nextAuthSecret();
  let cached = cachedKeys.get(realm);
  if (cached?.secret !== secret) {
    cached = { secret, key: Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), KEY_INFO[realm], 32)) };
    cachedKeys.set(realm, cached);
  }
  return cached.key;
}

function mac(deviceId: string, issuedAt: number, email: string, realm: AuthRealm): Buffer {
  return createHmac('sha256', key(realm)).update(`${deviceId}.${issuedAt}.${email.trim().toLowerCase()}`, 'utf8').digest();
}

/** The device id a cookie vouches for when it was issued for this e-mail and has not expired; else undefined. */
export function knownDeviceFor(cookieValue: string | undefined, email: string, now = Date.now(), realm: AuthRealm = 'console'): string | undefined {
  if (!cookieValue || cookieValue.length > 200) return undefined;
  const [version, deviceId, issued, signature, extra] = cookieValue.split('.');
  if (version !== VERSION || !deviceId || !issued || !signature || extra !== undefined || !/^[A-Za-z0-9_-]{22}$/.test(deviceId) || !/^\d{1,12}$/.test(issued)) {
    return undefined;
  }
  const issuedAt = Number(issued);
  const age = now / 1000 - issuedAt;
  if (age < -300 || age > KNOWN_DEVICE_MAX_AGE_SECONDS) return undefined;
  const expected = mac(deviceId, issuedAt, email, realm);
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : undefined;
}

/** A cookie value for a browser that just signed in as `email`: its device id kept when it had one. */
export function knownDeviceCookieValue(email: string, deviceId = randomBytes(16).toString('base64url'), now = Date.now(), realm: AuthRealm = 'console'): string {
  const issuedAt = Math.floor(now / 1000);
  return [VERSION, deviceId, String(issuedAt), mac(deviceId, issuedAt, email, realm).toString('base64url')].join('.');
}

/** The device id the request's known-device cookie vouches for, for this e-mail; else undefined. */
export function knownDeviceOfRequest(cookieHeader: string | null | undefined, email: string, realm: AuthRealm = 'console'): string | undefined {
  return knownDeviceFor(cookieFromHeader(cookieHeader, knownDeviceCookieName(sessionCookiesAreSecure(), realm)), email, Date.now(), realm);
}

/** One cookie's value from a Cookie header. */
export function cookieFromHeader(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

const SESSION_COOKIE_SET = /^(__Secure-)?next-auth\.session-token(\.\d+)?=[^;]/;

/**
 * Answers a request to next-auth (`answer`) and, when it is a password sign-in that started a
 * session, marks the browser as a known device of that account: its cookie renewed for 90 days,
 * the device id kept when the browser already had one for this account.
 */
export async function rememberingKnownDevice(request: Request, answer: (request: Request) => Promise<Response>): Promise<Response> {
  if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/callback/credentials')) return answer(request);
  const form = await request
    .clone()
    .formData()
    .catch(() => undefined);
  const response = await answer(request);
  const email = form?.get('email');
  if (typeof email !== 'string' || !response.headers.getSetCookie().some((cookie) => SESSION_COOKIE_SET.test(cookie))) return response;

  const secure = sessionCookiesAreSecure();
  const known = knownDeviceOfRequest(request.headers.get('cookie'), email);
  const headers = new Headers(response.headers);
  const attributes = [`Path=/`, `Max-Age=${KNOWN_DEVICE_MAX_AGE_SECONDS}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
  headers.append('set-cookie', [`${knownDeviceCookieName(secure)}=${knownDeviceCookieValue(email, known)}`, ...attributes].join('; '));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
