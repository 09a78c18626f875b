// How a receipt is kept (sealed, in constancias.receipt_sealed): its JWS with the payload as its
// JSON bytes instead of their base64url, deflated. A receipt's payload carries the answer's whole
// body, so its JWS is 3-4 KB and went to TOAST; kept this way it is about a third of that, written
// inline with its row, and fewer bytes go to PostgreSQL on the lookup's path. Base64url is
// deterministic (RFC 7515 leaves out padding), so the JWS read back is the one signed, byte for byte,
// and its leaf hash still matches. Receipts kept before this are plain JWS text and read as they are.
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';

const COMPACT = 'z1:';

/** The text to seal for a signed receipt (compact JWS). */
export function receiptToStore(jws: string): string {
  const first = jws.indexOf('.');
  const last = jws.lastIndexOf('.');
  if (first <= 0 || last <= first) throw new Error('a receipt is a compact JWS: header.payload.signature');
  const payload = Buffer.from(jws.slice(first + 1, last), 'base64url');
  const packed = Buffer.concat([Buffer.from(jws.slice(0, first + 1), 'ascii'), payload, Buffer.from(jws.slice(last), 'ascii')]);
  // The lookup waits for it: the fastest level, and a 4 KB window with less memory, whose set-up
  // was most of the time (65 -> 19 µs for a 5 KB payload here, the same size out): JSON's repeated
  // keys are near one another. Inflating takes any window up to the default.
  return COMPACT + deflateRawSync(packed, { level: constants.Z_BEST_SPEED, windowBits: 12, memLevel: 5 }).toString('base64');
}

/** The compact JWS a stored text (opened) holds. */
export function receiptFromStored(text: string): string {
  if (!text.startsWith(COMPACT)) return text;
  const packed = inflateRawSync(Buffer.from(text.slice(COMPACT.length), 'base64'));
  // The header and the signature are base64url (no dot); the payload's JSON between them may have dots.
  const first = packed.indexOf(0x2e);
  const last = packed.lastIndexOf(0x2e);
  return `${packed.subarray(0, first).toString('ascii')}.${packed.subarray(first + 1, last).toString('base64url')}.${packed.subarray(last + 1).toString('ascii')}`;
}
