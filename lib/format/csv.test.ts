import { describe, expect, it } from 'vitest';
import { csvField } from './csv';

describe('csvField', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvField('1234567,890')).toBe('"1234567,890"');
    expect(csvField('dijo "hola"')).toBe('"dijo ""hola"""');
    expect(csvField('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(csvField(null)).toBe('');
    expect(csvField(-250)).toBe('-250');
  });

  it('neutralizes text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+502')).toBe("'+502");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-Q 5.00')).toBe("'-Q 5.00");
  });

  it('neutralizes a formula hidden behind leading whitespace', () => {
    expect(csvField(' =1+1')).toBe("' =1+1");
    expect(csvField('\u00a0\u00a0@SUM(A1)')).toBe("'\u00a0\u00a0@SUM(A1)");
    expect(csvField('\n-2+3')).toBe(`"'\n-2+3"`);
    expect(csvField('  576937-K')).toBe('  576937-K');
  });

  it('writes our own decimals as numbers a spreadsheet can add up, negative ones included', () => {
    expect(csvField({ decimal: '1.50' })).toBe('1.50');
    expect(csvField({ decimal: '-5.00' })).toBe('-5.00');
  });
});
