import { describe, expect, it } from 'vitest';
import { enrolmentUri, matchingStep, newTotpSecret, normalizeTotpCode, TOTP_PERIOD_SECONDS, totpCodeAt } from './totp';

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
// RFC 6238's SHA-1 test secret ("12345678901234567890") in base32, and its published 8-digit
// code at 59 s, 94287082, whose last six digits are the 6-digit code.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes', () => {
  it('are the RFC 6238 codes, six digits every 30 seconds', () => {
    expect(totpCodeAt(RFC_SECRET, 59_000)).toBe('287082');
    expect(matchingStep(RFC_SECRET, '287082', 59_000)).toBe(1);
  });

  it('accept the previous and the next step, and nothing further away', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    const step = Math.floor(now / STEP_MS);
    expect(matchingStep(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(matchingStep(secret, totpCodeAt(secret, now - STEP_MS), now)).toBe(step - 1);
    expect(matchingStep(secret, totpCodeAt(secret, now + STEP_MS), now)).toBe(step + 1);
    expect(matchingStep(secret, totpCodeAt(secret, now - 2 * STEP_MS), now)).toBeUndefined();
    expect(matchingStep(secret, totpCodeAt(secret, now + 2 * STEP_MS), now)).toBeUndefined();
  });

  it('take what people type (spaces) and refuse what is not six digits', () => {
    expect(normalizeTotpCode(' 123 456 ')).toBe('123456');
    expect(normalizeTotpCode('12345')).toBeUndefined();
    expect(normalizeTotpCode('12345a')).toBeUndefined();
    const secret = newTotpSecret();
    const code = totpCodeAt(secret, 1_800_000_000_000);
    expect(matchingStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, 1_800_000_000_000)).toBeDefined();
  });

  it('enrol apps with an otpauth address naming the console and the account', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(enrolmentUri(secret, 'ana@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Consultas GT');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('ana@example.com');
  });
});
