import { describe, expect, it } from 'vitest';
import { findRecoveryCode, hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';

describe('recovery codes', () => {
  it('are ten distinct codes of two groups of five, without look-alike characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });

  it('are found by their hash however they are typed (case, spaces, dashes), and only the right one', () => {
    const codes = newRecoveryCodes();
    const stored = codes.map((code, id) => ({ id, codeHash: hashRecoveryCode(code) }));
    expect(stored.every((row, index) => row.codeHash !== codes[index])).toBe(true);
    expect(findRecoveryCode(codes[3]!, stored)?.id).toBe(3);
    expect(findRecoveryCode(` ${codes[3]!.toUpperCase().replace('-', ' ')} `, stored)?.id).toBe(3);
    const other = newRecoveryCodes()[0]!;
    expect(findRecoveryCode(other, stored)).toBeUndefined();
    expect(findRecoveryCode('123456', stored)).toBeUndefined();
    expect(normalizeRecoveryCode('abcde-fghij-k')).toBeUndefined();
  });
});
