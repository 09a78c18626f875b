// The request ids every answer carries (lib/platform/http/request-id.ts re-exports this): plain JavaScript so
// that server.mjs, which answers some requests before the app (a 408, a malformed request), hands
// out ids of the same shape as the app's.
import { randomBytes } from 'node:crypto';

const ID_BYTES = 10;
// Random bytes drawn in blocks, as crypto.randomUUID does: one draw per 400 ids instead of one
// per request (a draw cost more than the rest of making the id).
const BLOCK_BYTES = ID_BYTES * 400;
let block = Buffer.alloc(0);
let offset = 0;

/** A request id such as req_5f0c3a9d2b7e41c8a6f1: prefixed so it is recognizable in logs. */
export function newRequestId() {
  if (offset + ID_BYTES > block.length) {
    block = randomBytes(BLOCK_BYTES);
    offset = 0;
  }
  const id = `req_${block.toString('hex', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}
