import { describe, expect, it } from 'vitest';
import { maskCui, maskedIdentifiers, maskIdentifier, maskIdentifiersInText, maskNit, maskNitColumn } from './masking';

/** Every way support could find the identifier in a page: as sent, compact, spaced, lower case. */
function spellings(identifier: string): string[] {
  const compact = identifier.replace(/[\s-]/g, '');
  return [identifier, compact, compact.toLowerCase(), `${compact.slice(0, -1)}-${compact.slice(-1)}`, compact.replace(/^(\d{4})(\d{5})(\d{4})$/, '$1 $2 $3')];
}

describe('masking', () => {
  it('shows a CUI as its first and last four digits, however it was written', () => {
    expect(maskCui('1587564440904')).toBe('1587 •••• 0904');
    expect(maskCui('1587 56444 0904')).toBe('1587 •••• 0904');
  });

  it('shows a NIT as the start of its number and its check digit', () => {
    expect(maskNit('576937-K')).toBe('5769••-K');
    expect(maskNit('576937k')).toBe('5769••-K');
    expect(maskNit('7108-0')).toBe('71••-0');
    expect(maskNit('12345678-9')).toBe('1234••••-9');
  });

  it('masks each NIT of a batch', () => {
    expect(maskNitColumn('7108-0,576937k')).toBe('71••-0,5769••-K');
  });

  it('never leaves an identifier readable in any spelling', () => {
    for (const identifier of ['1587564440904', '576937-K', '7108-0', '12345678-9']) {
      const masked = maskIdentifier(identifier);
      for (const spelling of spellings(identifier)) expect(masked.replace(/[\s-]/g, '')).not.toContain(spelling.replace(/[\s-]/g, ''));
    }
  });

  it('masks the identifiers a source echoed in an error detail', () => {
    const text = maskIdentifiersInText('NIT 576 937-k not found; CUI 1587564440904 and 2415 75181 0101', ['576937-K', null]);
    expect(text).toBe('NIT 5769••-K not found; CUI 1587 •••• 0904 and 2415 •••• 0101');
  });

  it('masks a record for every role, in its identifiers and its error detail', () => {
    const record = { id: 1, nit: '576937-K', cui: '1587564440904', errorMessage: 'sent 576937K' };
    expect(maskedIdentifiers(record)).toEqual({ id: 1, nit: '5769••-K', cui: '1587 •••• 0904', errorMessage: 'sent 5769••-K' });
  });
});
