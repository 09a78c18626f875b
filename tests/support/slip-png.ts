// A real deposit slip for the tests that report one: the photo is a small PNG made here, so no
// binary file sits in the repository. Node's zlib only, no server-only code: the e2e specs
// (e2e/portal-top-ups.spec.ts) and the multi-instance suite (portal-done-when.test.ts) both use it.
import zlib from 'node:zlib';

/** A real 8×8 PNG (a grey square): the slip a billing person photographs. */
export function slipPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array<number>(8).fill(0x99)])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
