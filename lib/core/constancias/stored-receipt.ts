// How a receipt is kept (sealed, in constancias.receipt_sealed): its JWS with the payload as its
// JSON text instead of its base64url, three quarters of the bytes to PostgreSQL. Base64url is
// deterministic (RFC 7515 leaves out padding), so the JWS read back is the one signed, byte for byte,
// and its leaf hash still matches. Not deflated: a zlib stream per receipt reported its memory to
// V8 as external, and that had the instance start a full collection every half second under load,
// more CPU than the bytes saved (docs/performance.md, "Constancias"). Receipts kept deflated
// before, and plain JWS text kept before that, read as they are.
import { inflateRawSync } from 'node:zlib';

const JSON_PAYLOAD = 'j1:';
const DEFLATED = 'z1:';

/** The text to seal for a signed receipt (compact JWS). */
export function receiptToStore(jws: string): string {
  const first = jws.indexOf('.');
  const last = jws.lastIndexOf('.');
  if (first <= 0 || last <= first) throw new Error('a receipt is a compact JWS: header.payload.signature');
  const payload = Buffer.from(jws.slice(first + 1, last), 'base64url').toString('utf8');
  // A payload that is not UTF-8 (never one this service signs) would not read back byte for byte.
  if (payload.includes('\uFFFD')) return jws;
  return `${JSON_PAYLOAD}${jws.slice(0, first + 1)}${payload}${jws.slice(last)}`;
}

/** The compact JWS a stored text (opened) holds. */
export function receiptFromStored(text: string): string {
  if (text.startsWith(JSON_PAYLOAD)) {
    // The header and the signature are base64url (no dot); the payload's JSON between them may have dots.
    const first = text.indexOf('.');
    const last = text.lastIndexOf('.');
    return `${text.slice(JSON_PAYLOAD.length, first)}.${Buffer.from(text.slice(first + 1, last), 'utf8').toString('base64url')}${text.slice(last)}`;
  }
  if (text.startsWith(DEFLATED)) {
    const packed = inflateRawSync(Buffer.from(text.slice(DEFLATED.length), 'base64'));
    const first = packed.indexOf(0x2e);
    const last = packed.lastIndexOf(0x2e);
    return `${packed.subarray(0, first).toString('ascii')}.${packed.subarray(first + 1, last).toString('base64url')}.${packed.subarray(last + 1).toString('ascii')}`;
  }
  return text;
}
