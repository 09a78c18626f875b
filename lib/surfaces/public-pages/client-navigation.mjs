// Whether a request is Next's client-side navigation (a <Link>, router.push, a prefetch), which
// must be answered with the page's RSC payload, never with the HTML of the page cache: HTML makes
// the browser throw its state away and load the whole page again. Next strips the `rsc` header and
// the `_rsc` query from the request before proxy.ts sees it, so server.mjs, which reads the raw
// request first, says so in CLIENT_NAVIGATION_HEADER; proxy.ts and the cache's direct answers read
// that. server.mjs deletes whatever a client sent under that name before: a forged copy is gone
// before anything reads it (and at worst it would only skip the cache, as a real navigation does).

/** Set by server.mjs alone, to '1', on a client navigation. */
export const CLIENT_NAVIGATION_HEADER = 'x-gateway-client-navigation';

const RSC_QUERY = /[?&]_rsc(?:=|&|$)/;

/** A raw node:http request's headers and target: Next's own test (`rsc: 1`), or its cache-busting `_rsc` query. */
export function isClientNavigation(url, headers) {
  return headers.rsc === '1' || RSC_QUERY.test(url);
}

/** Replaces any client copy of the marker with this server's own verdict (node:http request, mutated). */
export function markClientNavigation(request) {
  delete request.headers[CLIENT_NAVIGATION_HEADER];
  if (isClientNavigation(request.url, request.headers)) request.headers[CLIENT_NAVIGATION_HEADER] = '1';
}
