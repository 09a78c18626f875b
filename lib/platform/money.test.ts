import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuetzales, parseQuetzales } from './money';

describe('parseQuetzales', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    ['0.01', 1],
    ['0.10', 10],
    ['1,234.50', 123450],
    ['1,000', 100000],
    ['Q 12', 1200],
    ['Q12.05', 1205],
    ['  7.25  ', 725],
    ['-3.5', -350],
    ['-Q 1,234.50', -123450],
    // The CLI's help writes an adjustment as <+Q|-Q> (issue 24, point 10).
    ['+10', 1000],
    ['+Q 2.50', 250],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i centavos', (text, centavos) => {
    expect(parseQuetzales(text)).toBe(centavos);
  });

  it.each([
    '',
    'abc',
    '12.505',
    '1.',
    '.50',
    '12,34',
    '1,2345',
    '1,234,56',
    '12 50',
    '1e3',
    '0x10',
    '--5',
    '+-5',
    '-+5',
    '++5',
    'Q',
    '90071992547409.92',
  ])('rejects %j', (text) => {
    expect(parseQuetzales(text)).toBeUndefined();
  });

  it('adds up exactly where floating point would not (0.10 + 0.20 = 0.30)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(parseQuetzales('0.10')! + parseQuetzales('0.20')!).toBe(parseQuetzales('0.30'));
  });

  it('always yields whole centavos', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), fc.nat({ max: 99 }), (whole, fraction) => {
        const text = `${whole}.${String(fraction).padStart(2, '0')}`;
        const centavos = parseQuetzales(text);
        expect(Number.isInteger(centavos)).toBe(true);
        expect(centavos).toBe(whole * 100 + fraction);
      }),
    );
  });
});

describe('formatQuetzales', () => {
  it.each([
    [0, 'Q 0.00'],
    [5, 'Q 0.05'],
    [150, 'Q 1.50'],
    [123450, 'Q 1,234.50'],
    [100_000_000_00, 'Q 100,000,000.00'],
    [-5, '-Q 0.05'],
    [-123450, '-Q 1,234.50'],
  ])('shows %i centavos as %j', (centavos, text) => {
    expect(formatQuetzales(centavos)).toBe(text);
  });

  it('round-trips through parseQuetzales for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (centavos) => {
        expect(parseQuetzales(formatQuetzales(centavos))).toBe(centavos);
      }),
    );
  });
});
