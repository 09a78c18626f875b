import { describe, expect, it } from 'vitest';
import { cookieFromHeader, KNOWN_DEVICE_MAX_AGE_SECONDS, knownDeviceCookieValue, knownDeviceFor } from './known-device';

describe('a known device cookie', () => {
  it('vouches for the account it was issued for, and keeps its device id when renewed', () => {
    const cookie = knownDeviceCookieValue('Ana@Example.com');
    const device = knownDeviceFor(cookie, 'ana@example.com');
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(knownDeviceFor(knownDeviceCookieValue('ana@example.com', device), 'ana@example.com')).toBe(device);
  });

  it('vouches for nothing when moved to another account, altered, made up or expired', () => {
    const cookie = knownDeviceCookieValue('ana@example.com');
    expect(knownDeviceFor(cookie, 'luis@example.com')).toBeUndefined();
    const [version, device, issued, mac] = cookie.split('.');
    expect(knownDeviceFor([version, 'A'.repeat(22), issued, mac].join('.'), 'ana@example.com')).toBeUndefined();
    expect(knownDeviceFor([version, device, String(Number(issued) + 1), mac].join('.'), 'ana@example.com')).toBeUndefined();
    expect(knownDeviceFor(`${cookie}.x`, 'ana@example.com')).toBeUndefined();
    expect(knownDeviceFor('v1.x.1.y', 'ana@example.com')).toBeUndefined();
    expect(knownDeviceFor(undefined, 'ana@example.com')).toBeUndefined();
    const old = knownDeviceCookieValue('ana@example.com', undefined, Date.now() - (KNOWN_DEVICE_MAX_AGE_SECONDS + 60) * 1000);
    expect(knownDeviceFor(old, 'ana@example.com')).toBeUndefined();
  });

  it('is read from a Cookie header by its exact name', () => {
    expect(cookieFromHeader('a=1; consola-dispositivo=v1.abc; otra-consola-dispositivo=no', 'consola-dispositivo')).toBe('v1.abc');
    expect(cookieFromHeader('x-consola-dispositivo=no', 'consola-dispositivo')).toBeUndefined();
    expect(cookieFromHeader(null, 'consola-dispositivo')).toBeUndefined();
  });
});
