// A POST to one of the five lookups' exact paths is answered by the server, by the route's own code,
// which registered itself when Next first loaded it (lib/surfaces/api/direct-lookups.ts): Next's router, its
// request and response adapters and their web streams cost a lookup about a fifth of its CPU
// (docs/decisions.md, "The lookups are answered before Next's router"). Anything else about the
// path (a query string, a trailing slash, another method) and a route not loaded yet go to Next,
// which calls the same code. Not under `--dev`, where Next recompiles a route that changed.
import { newRequestId } from '../../platform/http/new-request-id.mjs';
import { REQUEST_ID_HEADER } from './responses.mjs';
import { SERVER_BRIDGES } from '../../platform/runtime/server-bridges.mjs';

const DIRECT_LOOKUPS = SERVER_BRIDGES.directLookups;
const LOOKUP_PATHS = SERVER_BRIDGES.lookupPaths;

/** The registered answerer for this request, if it is a POST to a lookup's exact path. */
export function directLookupFor(request) {
  return request.method === 'POST' ? globalThis[DIRECT_LOOKUPS]?.get(request.url) : undefined;
}

export async function answerLookup(lookup, response, log) {
  let answer;
  try {
    answer = await lookup(response.req);
  } catch (error) {
    // The answerer answers every error itself; this is the last resort, as Next's own 500.
    log.error({ err: error }, 'lookup failed outside its route');
    answer = { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8', [REQUEST_ID_HEADER]: newRequestId() }, body: 'Internal Server Error' };
  }
  // The client is gone: nobody reads the answer (the lookup ran to its end as the status says).
  if (response.destroyed) return;
  // Headers and body leave in one write, with a Content-Length (GatewayResponse.writeHead still
  // adds what a lookup's answer lacks). Given to writeHead at once, Node keeps the headers as they
  // are instead of storing a copy of each through setHeader.
  const body = answer.body ?? undefined;
  answer.headers['content-length'] = body === undefined ? '0' : String(Buffer.byteLength(body));
  response.writeHead(answer.status, answer.headers);
  response.end(body);
}

/**
 * Has Next load the lookup routes the app announced at its start (an OPTIONS to each, answered 204
 * and counted nowhere), so each registers itself (lib/surfaces/api/direct-lookups.ts) and the first
 * lookup is answered here, not by Next; says whether all did.
 */
export async function loadLookupRoutes(origin, log) {
  const paths = globalThis[LOOKUP_PATHS] ?? [];
  if (paths.length === 0) {
    log.warn('lookups left to Next: the app announced none');
    return;
  }
  for (const path of paths) await (await fetch(`${origin}${path}`, { method: 'OPTIONS' })).arrayBuffer();
  const missing = paths.filter((path) => !globalThis[DIRECT_LOOKUPS]?.has(path));
  if (missing.length > 0) log.warn({ missing }, 'lookups left to Next: their routes did not register');
  else log.info({ paths }, 'lookups answered before Next');
}
