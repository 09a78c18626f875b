// What a typed request id looks like: no database here, so the proxy can tell one apart too.

/** Every request id starts so (lib/platform/http/request-id.ts); no NIT or CUI does. */
export const REQUEST_ID_PREFIX = 'req_';

/** A request id is 24 characters; anything much longer was pasted with something else. */
const MAX_REQUEST_ID_LENGTH = 64;

/**
 * The request id in what support typed into the list's search box, or undefined when it is not
 * one (a NIT or CUI). Spaces around it are trimmed and it is lowercased, as the service writes
 * every id (req_ and hexadecimal digits), so an id read aloud or copied from an uppercasing tool
 * still matches.
 */
export function typedRequestId(text: string | undefined): string | undefined {
  const trimmed = text?.trim() ?? '';
  if (trimmed.slice(0, REQUEST_ID_PREFIX.length).toLowerCase() !== REQUEST_ID_PREFIX) return undefined;
  return trimmed.toLowerCase();
}

/** Whether a typed request id could be one at all (the filter's validation). */
export function isPlausibleRequestId(requestId: string): boolean {
  return requestId.length <= MAX_REQUEST_ID_LENGTH && /^req_[0-9a-z_-]+$/.test(requestId);
}
