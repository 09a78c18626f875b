// The answers the server writes itself, before or instead of the app: refusals, and requests whose
// target is not a path on this host. Each carries a request id like the app's (lib/platform/http/request-id.ts):
// what an integrator quotes always leads somewhere; the console's search says such an id never
// reached the app (lib/presentation/untraced-answers.ts).
import { newRequestId } from '../../platform/http/new-request-id.mjs';
import { parseUrl } from './settings.mjs';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A plain-text refusal; returns its request id for the log line. */
export function refuse(response, status, text, headers = {}) {
  const requestId = newRequestId();
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', [REQUEST_ID_HEADER]: requestId, ...headers });
  response.end(text);
  return requestId;
}

/** A refusal in the API's shape; returns its request id for the log line. */
export function refuseJson(response, status, body, headers = {}) {
  const requestId = newRequestId();
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', [REQUEST_ID_HEADER]: requestId, ...headers });
  response.end(text);
  return requestId;
}

/**
 * Rewrites an absolute-form target that names this deployment's public host (or, with no public
 * URL configured, the Host header it came with) to origin-form, as RFC 9112 (3.2.2) asks of an
 * origin server: the target's host replaces the Host header. False for any other host, or a target
 * that is not an http(s) URL: this gateway answers for one host only (docs/decisions.md).
 */
export function toOriginForm(request, publicUrl) {
  const target = parseUrl(request.url);
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:') || target.username || target.password) return false;
  const expectedHost = publicUrl ? publicUrl.host : parseUrl(`http://${request.headers.host ?? ''}`)?.host;
  if (target.host !== expectedHost) return false;
  request.url = `${target.pathname}${target.search}`;
  request.headers.host = target.host;
  return true;
}

/**
 * The asterisk form (RFC 9112, 3.2.4) names the server, not a resource: OPTIONS * asks what it
 * allows, and is answered here; any other method with it is malformed. Next would parse '*' as a
 * URL, fail with a TypeError on stderr and answer 500.
 */
export function answerAsteriskForm(request, response) {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, { allow: 'GET, HEAD, POST, OPTIONS', 'cache-control': 'no-store' });
    response.end();
    return;
  }
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', [REQUEST_ID_HEADER]: newRequestId() });
  response.end('Bad request: only OPTIONS may ask for "*".\n');
}

export function refuseMisdirected(response) {
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', connection: 'close', [REQUEST_ID_HEADER]: newRequestId() });
  response.end('Bad request: the request names a host this gateway does not serve.\n');
}

// A request Node could not read (malformed: 400; headers past its limit: 431; not all here within
// REQUEST_RECEIVE_TIMEOUT_MS: 408) is answered here, as Node would (then the connection closes),
// but with a request id and the baseline headers: Node's own answer carries no header at all.
const CLIENT_ERROR_ANSWERS = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** The server's 'clientError' listener. */
export function answerClientError(baselineHeaders) {
  return (error, socket) => {
    // No one to answer (a reset, a closed socket), or an answer already under way: Node's own rule.
    if (error.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent) {
      const headers = [['Connection', 'close'], ['Content-Length', '0'], ['Cache-Control', 'no-store'], [REQUEST_ID_HEADER, newRequestId()], ...baselineHeaders];
      socket.write(`HTTP/1.1 ${CLIENT_ERROR_ANSWERS[error.code] ?? '400 Bad Request'}\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`);
    }
    socket.destroy();
  };
}
