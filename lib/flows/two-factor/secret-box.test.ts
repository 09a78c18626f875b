import { describe, expect, it } from 'vitest';
import { deriveKey, openSecret, sealSecret } from './secret-box';

const KEY = deriveKey('a'.repeat(48));

describe('the TOTP secret at rest', () => {
  it('is encrypted (never the secret in clear) and opens with the same key for the same user', () => {
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 7, KEY);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\./);
    expect(sealSecret('JBSWY3DPEHPK3PXP', 7, KEY)).not.toBe(sealed);
    expect(openSecret(sealed, 7, KEY)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('does not open with another key, for another user, or altered', () => {
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 7, KEY);
    expect(openSecret(sealed, 7, deriveKey('b'.repeat(48)))).toBeUndefined();
    expect(openSecret(sealed, 8, KEY)).toBeUndefined();
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(openSecret([version, iv, tag, flipped.toString('base64url')].join('.'), 7, KEY)).toBeUndefined();
    expect(openSecret('garbage', 7, KEY)).toBeUndefined();
  });
});
