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
});
