export const REQUEST_ID_HEADER = 'x-request-id';

// One generator for the app and for server.mjs's own answers (a 408, a malformed request).
export { newRequestId } from './new-request-id.mjs';
