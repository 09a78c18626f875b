import { randomBytes } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A request id such as req_5f0c3a9d2b7e41c8a6f1: prefixed so it is recognizable in logs. */
export function newRequestId(): string {
  return `req_${randomBytes(10).toString('hex')}`;
}
