import { describe, expect, it } from 'vitest';
import {
  cuiCheckDigit,
  DEPARTMENTS,
  formatCuiGrouped,
  isValidClassicNit,
  isValidCui,
  isValidNit,
  nitCheckCharacter,
  normalizeCui,
  normalizeNit,
} from './identifiers';

// Test vectors from the domain notes (shared/domain/guatemala.md).
describe('NIT', () => {
  it.each(['576937-K', '7108-0', '39525503', '576937-k', ' 3952550-3 '])('accepts the valid NIT %j', (nit) => {
    expect(isValidNit(nit)).toBe(true);
    expect(isValidClassicNit(nit)).toBe(true);
  });

  it('rejects a bad checksum and a bad length', () => {
    expect(isValidNit('8977112-0')).toBe(false);
    expect(isValidNit('1234567890123')).toBe(false);
  });

  it('rejects what is not a NIT at all', () => {
    for (const value of ['', 'K', '5', 'CF', '12-34-5', 'ABC', '1234567890123K', '１２３']) expect(isValidNit(value)).toBe(false);
  });

  it('computes the check character, writing 10 as K', () => {
    expect(nitCheckCharacter('576937')).toBe('K');
    expect(nitCheckCharacter('7108')).toBe('0');
    expect(nitCheckCharacter('3952550')).toBe('3');
    expect(() => nitCheckCharacter('12a')).toThrow(RangeError);
  });

  it('zero padding to 12 characters does not change validity', () => {
    expect(isValidNit('00000576937K')).toBe(true);
  });

  it('accepts a valid CUI as a NIT (SAT-DSI-393-2025) but not an invalid one', () => {
    expect(isValidNit('1587564440904')).toBe(true);
    expect(isValidClassicNit('1587564440904')).toBe(false);
    expect(isValidNit('1680352240101')).toBe(false);
  });

  it('normalizes separators and the case of K', () => {
    expect(normalizeNit(' 576937-k ')).toBe('576937K');
    expect(normalizeNit('2415 75181 0101')).toBe('2415751810101');
  });
});

describe('CUI', () => {
  it.each(['1587564440904', '1580352240101', '1587 56444 0904'])('accepts the valid CUI %j', (cui) => {
    expect(isValidCui(cui)).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidCui('1680352240101')).toBe(false);
  });

  it('computes the check digit, and has none for remainder 10', () => {
    expect(cuiCheckDigit('15875644')).toBe(4);
    expect(cuiCheckDigit('15803522')).toBe(4);
    // Find a serial whose weighted sum leaves 10: RENAP never issues it.
    const serialWithoutCheck = Array.from({ length: 200 }, (_, offset) => String(10_000_000 + offset)).find((serial) => cuiCheckDigit(serial) === null);
    expect(serialWithoutCheck).toBeDefined();
    expect(() => cuiCheckDigit('1234567')).toThrow(RangeError);
  });

  it('knows the 22 departments and 340 municipalities', () => {
    expect(DEPARTMENTS).toHaveLength(22);
    expect(DEPARTMENTS.reduce((sum, department) => sum + department.municipalityCount, 0)).toBe(340);
  });

  const withPlace = (serial: string, place: string) => `${serial}${cuiCheckDigit(serial)}${place}`;

  it('accepts the municipalities created in 2015 (Sipacate 05-14, Petatan 13-33)', () => {
    expect(isValidCui(withPlace('15875644', '0514'))).toBe(true);
    expect(isValidCui(withPlace('15875644', '1333'))).toBe(true);
  });

  it('rejects a municipality beyond its department, municipality 00 and department 23', () => {
    expect(isValidCui(withPlace('15875644', '0515'))).toBe(false);
    expect(isValidCui(withPlace('15875644', '0118'))).toBe(false);
    expect(isValidCui(withPlace('15875644', '0100'))).toBe(false);
    expect(isValidCui(withPlace('15875644', '2301'))).toBe(false);
    expect(isValidCui(withPlace('15875644', '0001'))).toBe(false);
  });

  it('rejects the wrong length and non-digits', () => {
    for (const value of ['', '158756444090', '15875644409041', '158756444O904']) expect(isValidCui(value)).toBe(false);
  });

  it('formats and strips the printed grouping', () => {
    expect(formatCuiGrouped('2415751810101')).toBe('2415 75181 0101');
    expect(normalizeCui('2415 75181 0101')).toBe('2415751810101');
  });
});
