// Every answer goes out through GatewayResponse: the baseline headers added where the app set none,
// `Cache-Control: no-store` on the API, a connection closed after an answer sent before its request
// was all read, and an answer's headers leaving with its first chunk.
import http from 'node:http';

const API_PATH = /^\/api(\/|\?|$)/;

/**
 * The response class for http.createServer. Security headers go on every answer, not only on those
 * proxy.ts and the lookups write: Next's own 404s and trailing-slash redirects, /_next/image,
 * /favicon.ico and the benchmark's bare route never pass through them. At the moment the status
 * line is written, each baseline header the answer lacks is added; one the app set (a page's nonce
 * policy, an image's own policy) is kept. A handful of hasHeader() calls per answer: the lookups
 * set all of them and pay nothing more.
 */
export function gatewayResponseClass(baselineHeaders) {
  const baseline = baselineHeaders.map(([name, value]) => [name, name.toLowerCase(), value]);
  return class GatewayResponse extends http.ServerResponse {
    // res.end() and res.write() without writeHead() come through here too (_implicitHeader).
    writeHead(statusCode, reason, headers) {
      if (!this.headersSent) {
        // writeHead(status[, reason][, headers]): headers given here count as set. A lookup's
        // answer (direct-lookups.mjs) gives them all, so none is set apart and Node writes the
        // object as given, without a setHeader for each. The object is never changed: a cached
        // page's is given again.
        const given = headerObject(reason) ?? headerObject(headers);
        for (const [name, lowerName, value] of baseline) if (!isSet(this, given, name, lowerName)) this.setHeader(name, value);
        // API answers are never stored (docs/decisions.md); the ones outside the proxy say so too.
        if (!isSet(this, given, 'Cache-Control', 'cache-control') && API_PATH.test(this.req.url)) this.setHeader('Cache-Control', 'no-store');
        // Answered before its request body was all here (a body past the limit, a declared length
        // past it, a refusal before the body is read): the connection cannot carry another request
        // until the rest is read, so it closes after this answer instead of being left half-read,
        // and the client's next request opens a fresh one.
        if (!this.req.complete && carriesBody(this.req)) {
          this.setHeader('connection', 'close');
          closeAfterTheClientStops(this.socket);
        }
      }
      return super.writeHead(statusCode, reason, headers);
    }

    // Next sends an answer's headers on their own (res.flushHeaders() right before the first chunk),
    // then the body: two system calls, two TCP segments and two wake-ups of the client per answer,
    // and on a virtual machine each costs the instance more CPU than Next's whole routing does.
    // Corked until the end of this tick, the headers leave with the first chunk, which Next writes
    // in the same tick; a streamed page's later chunks still go as they come.
    flushHeaders() {
      const socket = this.socket;
      if (socket && !socket.destroyed && !this.headersSent) {
        socket.cork();
        process.nextTick(() => socket.uncork());
      }
      return super.flushHeaders();
    }
  };
}

/** writeHead's headers argument when it is an object of names (not raw [name, value] pairs). */
function headerObject(argument) {
  return typeof argument === 'object' && argument !== null && !Array.isArray(argument) ? argument : undefined;
}

/** Whether an answer has a header: set on it, or in the object given to writeHead under either spelling. */
function isSet(response, given, name, lowerName) {
  return (given !== undefined && (Object.hasOwn(given, name) || Object.hasOwn(given, lowerName))) || response.hasHeader(name);
}

/**
 * Whether a request has a body to read (RFC 9112, 6.3): a chunked one, or a Content-Length above 0.
 * One without is complete once its headers are parsed, even if answered before Node marks it so.
 */
function carriesBody(request) {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

// How long a connection closed after an answer keeps dropping what its client still sends: until the
// client closes its side (it has read the answer and stopped), at most LINGER_MS and at most
// LINGER_IDLE_MS without a byte (nginx's lingering_time and lingering_timeout).
const LINGER_MS = 30_000;
const LINGER_IDLE_MS = 5_000;

/**
 * Node closes a connection marked `connection: close` as soon as the answer is written. Closing a
 * socket whose client is still sending makes the kernel answer with a reset, which can erase the
 * answer from the client's buffers before it reads it (RFC 9112, 9.6). This socket instead sends
 * its FIN after the answer and keeps reading, the body being dropped (Node dumps an unread one;
 * lib/platform/http/json-body.ts drops the rest of one it stopped reading), until the client closes its
 * side or the bounds above pass.
 */
function closeAfterTheClientStops(socket) {
  if (socket.destroyed) return;
  socket.destroySoon = function lingeringClose() {
    this.end();
    const deadline = setTimeout(() => this.destroy(), LINGER_MS);
    this.setTimeout(LINGER_IDLE_MS, () => this.destroy());
    this.once('close', () => clearTimeout(deadline));
  };
}
