import { describe, expect, it } from 'vitest';
import { identifiersOfUpload, MAX_BULK_UPLOAD_BYTES } from './upload';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('identifiersOfUpload', () => {
  it('takes one identifier a line or the first column, skipping a header and blank lines', () => {
    expect(identifiersOfUpload(bytes('\uFEFFnit;nombre\r\n576937-K;Uno\n\n"2415 75181 0101",Dos\r12345678\t\n'))).toEqual({
      ok: true,
      identifiers: ['576937-K', '2415 75181 0101', '12345678'],
    });
    // Without a header the first line is an identifier.
    expect(identifiersOfUpload(bytes('576937-K\n1234567-8'))).toEqual({ ok: true, identifiers: ['576937-K', '1234567-8'] });
  });

  it('refuses an empty list, more than 10,000 identifiers, a file over the limit and one that is not text', () => {
    expect(identifiersOfUpload(bytes('NIT\n\n'))).toEqual({ ok: false, problem: 'empty' });
    expect(identifiersOfUpload(bytes(Array.from({ length: 10_000 }, () => '576937-K').join('\n')))).toMatchObject({ ok: true });
    expect(identifiersOfUpload(bytes(Array.from({ length: 10_001 }, () => '576937-K').join('\n')))).toEqual({ ok: false, problem: 'tooMany' });
    expect(identifiersOfUpload(new Uint8Array(MAX_BULK_UPLOAD_BYTES + 1).fill(0x31))).toEqual({ ok: false, problem: 'tooLarge' });
    expect(identifiersOfUpload(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe]))).toEqual({ ok: false, problem: 'notText' });
  });
});
