import { describe, expect, it } from 'vitest';
import { BULK_FILE_NAME_MAX, bulkFileName } from './file-name';

describe('bulkFileName', () => {
  it('keeps a plain name as the person wrote it', () => {
    expect(bulkFileName('Proveedores noviembre 2026.csv')).toBe('Proveedores noviembre 2026.csv');
  });

  it('keeps only the last part of a path, from either kind of slash', () => {
    expect(bulkFileName('C:\\Users\\conta\\Escritorio\\nits.csv')).toBe('nits.csv');
    expect(bulkFileName('/home/conta/../nits.csv')).toBe('nits.csv');
  });

  it('drops control and direction characters and collapses spaces', () => {
    expect(bulkFileName('lista\u202Evsc.exe')).toBe('listavsc.exe');
    expect(bulkFileName('  a\tb\r\n c\u0000.csv ')).toBe('a b c.csv');
  });

  it('caps the length, counting characters rather than UTF-16 units', () => {
    const long = `${'ñ'.repeat(200)}.csv`;
    const kept = bulkFileName(long)!;
    expect([...kept]).toHaveLength(BULK_FILE_NAME_MAX);
    expect(kept.endsWith('…')).toBe(true);
  });

  it('answers null for nothing readable', () => {
    for (const raw of [undefined, null, 42, '', '   ', '\u0000', 'carpeta/']) expect(bulkFileName(raw)).toBeNull();
  });
});
