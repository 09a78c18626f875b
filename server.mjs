// The app's HTTP server: Next.js behind a thin node:http wrapper, for one reason. Next copies the
// socket address into X-Forwarded-For only when the client did not send that header, so behind
// plain `next start` a client could choose its own IP and dodge the per-IP limit. Here the socket
// address travels in x-gateway-peer-ip, which clients cannot set (any copy they send is replaced);
// proxy.ts combines it with X-Forwarded-For according to TRUSTED_PROXY_HOPS. The marker below
// tells the app it runs behind this wrapper: without it (`next start`) the app refuses to start.
// First: on an unsupported Node.js the process stops here, before Next.js loads.
import './lib/runtime/refuse-unsupported-node.mjs';
import http from 'node:http';
import net from 'node:net';
import nextEnv from '@next/env';
import next from 'next';
import pino from 'pino';
import { runtimeDescription } from './lib/runtime/supported-node.mjs';
import { baselineSecurityHeaders } from './lib/http/baseline-headers.mjs';
import { newRequestId } from './lib/http/new-request-id.mjs';
import { markClientNavigation } from './lib/public-pages/client-navigation.mjs';
import { LOOKUP_PATHS } from './lib/lookups/lookup-paths.mjs';
import { ADMISSION, FairTurn } from './lib/http/fair-turn.mjs';
import { CACHED_PAGE_PATHS, FORM_BODY_MESSAGES, MALFORMED_TARGET_MESSAGES, formBodyReading, isApiPath, isMalformedPath, pageArea, pathOf, readWholeBody } from './lib/http/page-requests.mjs';

// Must match lib/limits/client-ip.ts. A symbol on globalThis, not an environment variable: no
// launcher can claim to be this wrapper by setting it.
globalThis[Symbol.for('gateway.serverWrapper')] = true;

const dev = process.argv.includes('--dev');
// .env files first, as `next` reads them (lib/load-env-files.ts): PORT and HOST there count too.
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...parts) => console.error(...parts) });
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const log = pino().child({ component: 'server' });

// A port someone else holds is a setting to change, said as such (not a stack trace), and said
// before Next prepares: preparing opens the embedded database, and while V8 still compiles its
// WebAssembly in the background, process.exit() waits for it (nodejs/node#36616): on a busy machine
// a start that had said EADDRINUSE kept running for over a minute. The server's own listen below
// says the same if the port is taken in between.
function refuseTakenPort(error) {
  if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
  log.fatal({ port, hostname }, `cannot listen on ${hostname}:${port} (${error.code}): set PORT to a free port, in the environment or in .env`);
  process.exit(1);
}
await new Promise((resolve) => {
  const probe = net.createServer();
  probe.once('error', refuseTakenPort);
  probe.listen(port, hostname, () => probe.close(resolve));
});

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

// Graceful drain (docs/operations.md): on SIGTERM the instance says it is draining (GET
// /api/health answers 503, so the load balancer stops sending), closes idle connections and
// answers every later request with `connection: close`, finishes the requests in flight (lookups
// settle their holds as usual) and exits as soon as none is left, or at SHUTDOWN_DRAIN_TIMEOUT_MS,
// whichever comes first. It keeps listening meanwhile, so the balancer's health checks read the
// 503 instead of a refused connection, and a request it still sends is served, never dropped.
// Set the deadline below the platform's kill timeout; a lookup still running then is left to the
// hold sweeper, as a crash would be.
const drainTimeoutMs = readDrainTimeout(process.env.SHUTDOWN_DRAIN_TIMEOUT_MS);
const DRAINING = Symbol.for('gateway.draining');
let inFlight = 0;
let draining = false;

// Read after app.prepare(), which loads the .env files. The app validates NEXTAUTH_URL at start
// (required and https in production) and stops if it is wrong; here an unusable value only means
// no public host is known yet.
const publicUrl = parseUrl(process.env.NEXTAUTH_URL);

// Security headers on every answer, not only on those proxy.ts and the lookups write: Next's own
// 404s and trailing-slash redirects, /_next/image, /favicon.ico and the benchmark's bare route
// never pass through them. At the moment the status line is written, each baseline header the
// answer lacks is added; one the app set (a page's nonce policy, an image's own policy) is kept.
// A handful of hasHeader() calls per answer: the lookups set all of them and pay nothing more.
const BASELINE_HEADERS = Object.entries(baselineSecurityHeaders({ https: publicUrl?.protocol === 'https:' }));
// The answers this wrapper writes itself (a refusal, a request it could not read) carry a request id
// like the app's (lib/http/request-id.ts): what an integrator quotes always leads somewhere; the
// console's search says such an id never reached the app (lib/request-traces/untraced.ts).
const REQUEST_ID_HEADER = 'x-request-id';
const API_PATH = /^\/api(\/|\?|$)/;

class GatewayResponse extends http.ServerResponse {
  // res.end() and res.write() without writeHead() come through here too (_implicitHeader).
  writeHead(...args) {
    if (!this.headersSent) {
      for (const [name, value] of BASELINE_HEADERS) if (!this.hasHeader(name)) this.setHeader(name, value);
      // API answers are never stored (docs/decisions.md); the ones outside the proxy say so too.
      if (!this.hasHeader('cache-control') && API_PATH.test(this.req.url)) this.setHeader('Cache-Control', 'no-store');
      // Answered before its request body was all here (a body past the limit, a declared length
      // past it, a refusal before the body is read): the connection cannot carry another request
      // until the rest is read, so it closes after this answer instead of being left half-read,
      // and the client's next request opens a fresh one.
      if (!this.req.complete && carriesBody(this.req)) {
        this.setHeader('connection', 'close');
        closeAfterTheClientStops(this.socket);
      }
    }
    return super.writeHead(...args);
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
 * lib/http/json-body.ts drops the rest of one it stopped reading), until the client closes its
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

// A request's headers and its whole body must arrive within these (Node's default is 300 s: a
// client trickling a body held a connection and a request slot for five minutes). Past them Node
// answers 408 and closes the connection (issue 30, point 7); it looks every second. Sending the
// answer is not bounded here: a lookup may wait for its source up to its ceiling.
const requestTimeout = readMilliseconds('REQUEST_RECEIVE_TIMEOUT_MS', process.env.REQUEST_RECEIVE_TIMEOUT_MS, 30_000, 1_000);
const server = http.createServer(
  { ServerResponse: GatewayResponse, requestTimeout, headersTimeout: Math.min(20_000, requestTimeout), connectionsCheckingInterval: 1_000 },
  (request, response) => {
  request.headers['x-gateway-peer-ip'] = request.socket.remoteAddress ?? '';
  // Next hides a client navigation's `rsc` header and `_rsc` query from proxy.ts; this mark (a
  // client's own copy removed) keeps the page cache from answering it with HTML.
  markClientNavigation(request);
  inFlight++;
  response.once('close', () => {
    inFlight--;
    if (draining) exitWhenIdle();
  });
  // A request that arrives on a kept-alive connection during the drain is served, and its
  // connection closed after the answer, so the client's next request goes to another instance.
  if (draining) response.setHeader('connection', 'close');
  // A request line in absolute form (`GET http://host/path HTTP/1.1`): clients send it to
  // proxies, and Next answers it with a redirect to that URL, whatever host it names.
  // The asterisk form (RFC 9112, 3.2.4) names the server, not a resource: OPTIONS * asks what it
  // allows, and is answered here; any other method with it is malformed. Next would parse '*' as
  // a URL, fail with a TypeError on stderr and answer 500.
  if (request.url === '*') {
    answerAsteriskForm(request, response);
    return;
  }
  if (request.url.charCodeAt(0) !== 47 /* '/' */ && !toOriginForm(request)) {
    refuseMisdirected(response);
    return;
  }
  const directLookup = request.method === 'POST' && !dev ? globalThis[DIRECT_LOOKUPS]?.get(request.url) : undefined;
  if (directLookup) {
    void answerLookup(directLookup, response);
    return;
  }
  // A connection just refused a page waits out its Retry-After before its next page is looked at.
  const pauseMs = refusalPauseLeftMs(request.socket);
  if (pauseMs > 0 && pageArea(request.method, pathOf(request.url))) setTimeout(() => route(request, response), pauseMs);
  else route(request, response);
  },
);

/** Everything but the lookups: probes, refusals from the target and headers, pages' turns, Next. */
function route(request, response) {
  if (response.destroyed) return;
  if (request.method === 'GET' && PROBE_PATHS.has(request.url) && !draining) {
    answerProbe(request, response);
    return;
  }
  const path = pathOf(request.url);
  if (isMalformedPath(path)) {
    const api = isApiPath(path);
    const requestId = api
      ? refuseJson(response, 400, { message: MALFORMED_TARGET_MESSAGES.api })
      : refuse(response, 400, MALFORMED_TARGET_MESSAGES.page);
    log.warn({ requestId, method: request.method, area: api ? 'api' : 'page' }, 'request refused: its path has a malformed percent-encoding');
    return;
  }
  const formBody = formBodyReading(request.method, path, request.headers);
  if (formBody?.kind === 'too-large') {
    const requestId = refuse(response, 413, FORM_BODY_MESSAGES.tooLarge(formBody.limitBytes));
    log.warn({ requestId, declaredBytes: Number(request.headers['content-length']), limitBytes: formBody.limitBytes }, 'form refused from its headers: announced larger than its page takes');
    return;
  }
  if (formBody?.kind === 'chunked') {
    readWholeBody(request, formBody.limitBytes, () => {
      if (!response.destroyed) void handle(request, response);
    }, () => {
      const requestId = refuse(response, 413, FORM_BODY_MESSAGES.tooLarge(formBody.limitBytes));
      log.warn({ requestId, limitBytes: formBody.limitBytes }, 'form refused at its page\'s limit: sent in chunks, larger than the page takes');
    });
    return;
  }
  const area = pageTurnOf(request, path);
  if (area === 'public' || area === 'sign-in') void answerPublicPage(request, response, area, path);
  else if (area) inPageTurn(request, response, area, () => void handle(request, response));
  else void handle(request, response);
}

function refuseJson(response, status, body) {
  const requestId = newRequestId();
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', [REQUEST_ID_HEADER]: requestId });
  response.end(text);
  return requestId;
}

// Pages rendered per request cost the event loop many lookups' worth each. However many
// connections ask for them, they take turns (lib/http/fair-turn.mjs): one page at a time per turn,
// each caller (a session on the console or the portal, an address elsewhere) behind its own
// earlier pages and at most PAGE_TURN.perCallerLimit of them at once, all of them together at most
// busyShare of the loop. The console, the portal, the sign-in pages and the public pages each have
// a turn of their own, so a crowd on one never fills another's. Before any turn, an address past
// the public pages' per-IP limit is refused at once, and a page the render cache holds is taken
// from it to be written in its turn (both through proxy.ts's answerer, lib/public-pages/cache.ts).
// Measured: docs/operations.md, "Public pages under load".
const PAGE_TURN = {
  // A browser opens at most six connections to a host, for all its tabs; twice that leaves room
  // for a second client of the same session (a script, another browser) and bounds a flood.
  perCallerLimit: 12,
  // One caller alone holds at most a fifth of the loop (a person reading pages needs far less)...
  pauseFactor: 4,
  maxPauseMs: 2_000,
  // ...and all callers of a turn together at most 40 % of each second: another caller beside one
  // asking as fast as it is answered starts as soon as the running page ends.
  busyShare: 0.4,
  windowMs: 1_000,
  // A longer answer (an export streaming for a minute) gives the turn up and finishes on its own.
  maxHoldMs: 1_000,
  queueLimit: 1_000,
};
// The public and sign-in pages are mostly answered from the render cache, too cheap for the busy
// share to see: they are paced by their count as well, at most one every 20 ms (50 a second, far
// beyond readers) per instance and turn, and a crowd of addresses waits for them (a parked
// request costs nothing) while an address new to the turn goes first.
const CACHED_PAGE_TURN = { ...PAGE_TURN, minIntervalMs: 20, queueLimit: 5_000 };
const turns = {
  console: new FairTurn(PAGE_TURN),
  portal: new FairTurn(PAGE_TURN),
  'sign-in': new FairTurn(CACHED_PAGE_TURN),
  public: new FairTurn(CACHED_PAGE_TURN),
};
const PAGE_CALLER_KEY = Symbol.for('gateway.pageCallerKey');
const PUBLIC_PAGE_ANSWERER = Symbol.for('gateway.publicPageAnswerer');
const PUBLIC_PAGE_RENDER_TOKEN = Symbol.for('gateway.publicPageRenderToken');

// An address that still carries a typed identifier (proxy.ts, IDENTIFIER_SEARCH_PAGES) is
// rewritten to the page's search route, which Next serves by sending a request to this same
// server: that request takes the turn, so the one that carries it must not hold the turn meanwhile
// (it would wait for itself until Next's proxy gave up, 30 s later, with a 500).
const REWRITTEN_TO_THIS_SERVER = /^\/admin\/(?:registros|datos-personales\/quien-consulto)\?(?:[^#]*&)?identificador=/;

/** The turn a request takes, if any. */
function pageTurnOf(request, path) {
  if (isOwnPublicPageRender(request) || REWRITTEN_TO_THIS_SERVER.test(request.url)) return undefined;
  return pageArea(request.method, path);
}

/**
 * A public or sign-in page: answered here when the cache holds it or the address is past its
 * per-IP limit (no turn: the limit bounds what each address may ask), otherwise rendered by Next in
 * the area's turn, marked as having spent its limit.
 */
async function answerPublicPage(request, response, area, path) {
  const answerer = CACHED_PAGE_PATHS.has(path) ? globalThis[PUBLIC_PAGE_ANSWERER] : undefined;
  if (answerer) {
    try {
      const query = request.url.slice(path.length);
      const answer = await answerer(path, query, request.method, headerReader(request));
      if (answer?.status === 429) {
        paceRefusedConnection(request.socket);
        writeDirectAnswer(request, response, answer);
        return;
      }
      if (answer) {
        inPageTurn(request, response, area, () => writeDirectAnswer(request, response, answer));
        return;
      }
      request.headers['x-public-page-limit-spent'] = globalThis[PUBLIC_PAGE_RENDER_TOKEN];
    } catch (error) {
      log.error({ err: error }, 'public page answer failed; Next answers it');
    }
  }
  inPageTurn(request, response, area, () => void handle(request, response));
}

/** A raw request's header by name, as the app's modules read headers (the first value, or null). */
function headerReader(request) {
  return (name) => {
    const value = request.headers[name];
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };
}

function writeDirectAnswer(request, response, answer) {
  response.writeHead(answer.status, answer.headers);
  if (request.method === 'HEAD' || typeof answer.body === 'string') {
    response.end(request.method === 'HEAD' ? undefined : answer.body);
    return;
  }
  // A cached page's pieces around this answer's nonce, in one write to the socket.
  response.cork();
  for (const chunk of answer.body) response.write(chunk);
  response.end();
  response.uncork();
}

/** The instance rendering a public page for its cache (lib/public-pages/cache.ts), on behalf of a request that holds the turn. */
function isOwnPublicPageRender(request) {
  const token = globalThis[PUBLIC_PAGE_RENDER_TOKEN];
  return token !== undefined && request.headers['x-public-page-render'] === token;
}

/** Runs `answer` (Next, or a cached page) when the area's turn comes, or refuses the request at once. */
function inPageTurn(request, response, area, answer) {
  // Until proxy.ts has registered the key (the first requests after start), the socket's address.
  const callerKey = globalThis[PAGE_CALLER_KEY]?.(area, headerReader(request)) ?? `address:${request.socket.remoteAddress}`;
  const turn = turns[area];
  // A reader who leaves while waiting (a browser cancelling a prefetch closes its connection) no
  // longer counts against its caller's bound.
  const withdraw = () => turn.withdraw(callerKey, start);
  const start = (release) => {
    response.off('close', withdraw);
    if (response.destroyed) {
      release();
      return;
    }
    response.once('close', release);
    answer();
  };
  const admission = turn.enter(callerKey, start);
  // (A request that started at once has nothing to withdraw: withdraw() then does nothing.)
  if (admission === ADMISSION.queued) response.once('close', withdraw);
  if (admission === ADMISSION.callerFull) {
    countRefusal(area, 'caller');
    paceRefusedConnection(request.socket);
    const signedIn = area === 'console' || area === 'portal';
    refuse(response, 429, signedIn ? PAGE_REFUSALS.sessionFull : PAGE_REFUSALS.addressFull, { 'retry-after': String(REFUSED_CONNECTION_PAUSE_MS / 1000) });
  } else if (admission === ADMISSION.turnFull) {
    countRefusal(area, 'crowd');
    paceRefusedConnection(request.socket);
    refuse(response, 503, PAGE_REFUSALS.turnFull, { 'retry-after': '5' });
  }
}

const PAGE_REFUSALS = {
  sessionFull: 'Esta sesión tiene demasiadas páginas pedidas a la vez. Espere un segundo y vuelva a cargar la página.',
  addressFull: 'Demasiadas páginas pedidas a la vez desde su dirección. Espere un segundo y vuelva a intentarlo.',
  turnFull: 'El servicio está atendiendo demasiadas solicitudes de páginas. Vuelva a intentarlo en unos segundos.',
};

function refuse(response, status, text, headers = {}) {
  const requestId = newRequestId();
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', [REQUEST_ID_HEADER]: requestId, ...headers });
  response.end(text);
  return requestId;
}

// A connection just refused a page (429) has its next page request looked at only after this
// pause, the Retry-After it was given: a client that asks again at once, as fast as it is
// answered, would otherwise turn its refusals into a flood of their own. Parked, a request costs
// a timer. Its API requests are not held.
const REFUSED_CONNECTION_PAUSE_MS = 1_000;
const refusedConnections = new WeakMap();

function paceRefusedConnection(socket) {
  refusedConnections.set(socket, Date.now() + REFUSED_CONNECTION_PAUSE_MS);
}

/** How long a request on this connection waits before it is looked at (0: at once). */
function refusalPauseLeftMs(socket) {
  const until = refusedConnections.get(socket);
  if (until === undefined) return 0;
  const left = until - Date.now();
  if (left <= 0) refusedConnections.delete(socket);
  return Math.max(0, left);
}

// Refusals by the turns are counted and said once a minute at most: a flood would otherwise
// write a log line per refused request.
const refusalCounts = new Map();
let refusalReportTimer;
function countRefusal(area, reason) {
  const key = `${area}:${reason}`;
  refusalCounts.set(key, (refusalCounts.get(key) ?? 0) + 1);
  refusalReportTimer ??= setTimeout(() => {
    refusalReportTimer = undefined;
    log.warn({ refused: Object.fromEntries(refusalCounts) }, 'page requests refused by their turns in the last minute (per caller: over its own bound; crowd: the queue was full)');
    refusalCounts.clear();
  }, 60_000).unref();
}

// A POST to one of the five lookups' exact paths is answered here, by the route's own code, which
// registered itself when Next first loaded it (lib/api/direct-lookups.ts): Next's router, its
// request and response adapters and their web streams cost a lookup about a fifth of its CPU
// (docs/decisions.md, "The lookups are answered before Next's router"). Anything else about the
// path (a query string, a trailing slash, another method) and a route not loaded yet go to Next,
// which calls the same code. Not under `--dev`, where Next recompiles a route that changed.
const DIRECT_LOOKUPS = Symbol.for('gateway.directLookups');

async function answerLookup(lookup, response) {
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
  for (const name in answer.headers) response.setHeader(name, answer.headers[name]);
  // Headers and body leave in one write, with a Content-Length (GatewayResponse.writeHead still
  // adds what a lookup's answer lacks).
  response.statusCode = answer.status;
  response.end(answer.body ?? undefined);
}

// Probes (GET /api/health, /api/ready) are answered without Next.js while the app's last answer
// is fresh (lib/operations/probe-answers.ts): a poll then costs a map lookup and a write. And a
// connection that polls more often than every PROBE_PACE_MS waits for its turn: however many
// connections poll as fast as they are answered, the probes take a bounded share of the event loop
// and the lookups keep theirs (load balancers poll every few seconds, and never wait here).
const PROBE_PATHS = new Set(['/api/health', '/api/ready']);
const PROBE_ANSWERS = Symbol.for('gateway.probeAnswers');
const PROBE_PACE_MS = 250;
const lastProbeOnSocket = new WeakMap();

function answerProbe(request, response) {
  const socket = request.socket;
  const answer = () => {
    lastProbeOnSocket.set(socket, Date.now());
    const fresh = globalThis[PROBE_ANSWERS]?.get(request.url);
    if (!fresh || fresh.expiresAt <= Date.now() || draining) {
      void handle(request, response);
      return;
    }
    response.writeHead(fresh.status, { 'content-type': 'application/json' });
    response.end(fresh.body);
  };
  const waitMs = (lastProbeOnSocket.get(socket) ?? -Infinity) + PROBE_PACE_MS - Date.now();
  if (waitMs > 0) setTimeout(answer, waitMs);
  else answer();
}
// A request Node could not read (malformed: 400; headers past its limit: 431; not all here within
// REQUEST_RECEIVE_TIMEOUT_MS: 408) is answered here, as Node would (then the connection closes),
// but with a request id and the baseline headers: Node's own answer carries no header at all.
const CLIENT_ERROR_ANSWERS = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};
server.on('clientError', (error, socket) => {
  // No one to answer (a reset, a closed socket), or an answer already under way: Node's own rule.
  if (error.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent) {
    const headers = [['Connection', 'close'], ['Content-Length', '0'], ['Cache-Control', 'no-store'], [REQUEST_ID_HEADER, newRequestId()], ...BASELINE_HEADERS];
    socket.write(`HTTP/1.1 ${CLIENT_ERROR_ANSWERS[error.code] ?? '400 Bad Request'}\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`);
  }
  socket.destroy();
});
// Longer than common load balancer idle timeouts, so they close idle connections first.
server.keepAliveTimeout = 65_000;
server.once('error', refuseTakenPort);
server.listen(port, hostname, () => {
  log.info({ url: `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`, mode: dev ? 'next dev' : 'built app', runtime: runtimeDescription() }, 'listening');
  // Behind a custom server Next runs instrumentation.ts (migrations, seed, sweeper) on the first
  // request; make that request ourselves so the app is ready, and says so, before anyone calls.
  const local = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  fetch(`http://${local}:${port}/api/health`)
    .then((answer) => answer.arrayBuffer())
    .then(() => (dev ? undefined : loadLookupRoutes(`http://${local}:${port}`)))
    .catch((error) => log.error({ err: error }, 'warm-up request failed'));
});

/**
 * Has Next load the five lookup routes (an OPTIONS to each, answered 204 and counted nowhere), so
 * each registers itself (lib/api/direct-lookups.ts) and the first lookup is answered here, not
 * by Next; says whether all five did.
 */
async function loadLookupRoutes(origin) {
  const paths = Object.values(LOOKUP_PATHS);
  for (const path of paths) await (await fetch(`${origin}${path}`, { method: 'OPTIONS' })).arrayBuffer();
  const missing = paths.filter((path) => !globalThis[DIRECT_LOOKUPS]?.has(path));
  if (missing.length > 0) log.warn({ missing }, 'lookups left to Next: their routes did not register');
  else log.info({ paths }, 'lookups answered before Next');
}

/**
 * Rewrites an absolute-form target that names this deployment's public host (or, with no public
 * URL configured, the Host header it came with) to origin-form, as RFC 9112 (3.2.2) asks of an
 * origin server: the target's host replaces the Host header. False for any other host, or a target
 * that is not an http(s) URL: this gateway answers for one host only (docs/decisions.md).
 */
function toOriginForm(request) {
  const target = parseUrl(request.url);
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:') || target.username || target.password) return false;
  const expectedHost = publicUrl ? publicUrl.host : parseUrl(`http://${request.headers.host ?? ''}`)?.host;
  if (target.host !== expectedHost) return false;
  request.url = `${target.pathname}${target.search}`;
  request.headers.host = target.host;
  return true;
}

function answerAsteriskForm(request, response) {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, { allow: 'GET, HEAD, POST, OPTIONS', 'cache-control': 'no-store' });
    response.end();
    return;
  }
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', [REQUEST_ID_HEADER]: newRequestId() });
  response.end('Bad request: only OPTIONS may ask for "*".\n');
}

function refuseMisdirected(response) {
  response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', connection: 'close', [REQUEST_ID_HEADER]: newRequestId() });
  response.end('Bad request: the request names a host this gateway does not serve.\n');
}

function parseUrl(value) {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function exitWhenIdle() {
  if (inFlight > 0 || exiting) return;
  log.info('drained: no request in flight; exiting');
  server.close();
  void flushThenExit();
}

// What the app keeps in memory between its periodic writes (lib/runtime/flush-before-exit.ts) is
// written once more before the process ends, within FLUSH_BEFORE_EXIT_MS: a database that is away
// loses those counts, as a crash would, but never holds the exit.
const FLUSH_BEFORE_EXIT_MS = 3_000;
let exiting = false;

async function flushThenExit() {
  exiting = true;
  const flushes = [...(globalThis[Symbol.for('gateway.flushBeforeExit')] ?? new Map())];
  const settled = Promise.allSettled(
    flushes.map(([name, flush]) =>
      flush().catch((error) => log.error({ err: error, flush: name }, 'writing in-memory counts before exit failed')),
    ),
  );
  const deadline = new Promise((resolve) => setTimeout(resolve, FLUSH_BEFORE_EXIT_MS).unref());
  if ((await Promise.race([settled.then(() => 'done'), deadline])) !== 'done') {
    log.warn({ flushes: flushes.map(([name]) => name) }, 'in-memory counts not written before exit: the database did not answer in time');
  }
  process.exit(0);
}

/** A whole number of milliseconds from the environment, at least `min`; the start stops otherwise. */
function readMilliseconds(name, value, fallback, min) {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    log.fatal({ [name]: value }, `cannot start: ${name} must be a whole number of milliseconds, ${min} or more`);
    process.exit(1);
  }
  return parsed;
}

function readDrainTimeout(value) {
  if (value === undefined || value === '') return 25_000;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    log.fatal({ SHUTDOWN_DRAIN_TIMEOUT_MS: value }, 'cannot start: SHUTDOWN_DRAIN_TIMEOUT_MS must be a whole number of milliseconds');
    process.exit(1);
  }
  return parsed;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    draining = true;
    globalThis[DRAINING] = true;
    log.info({ signal, inFlight, deadlineMs: drainTimeoutMs }, 'draining: finishing the requests in flight');
    server.closeIdleConnections();
    setTimeout(() => {
      if (exiting) return;
      log.warn({ inFlight }, 'drain deadline passed; exiting with requests in flight');
      void flushThenExit();
    }, drainTimeoutMs).unref();
    exitWhenIdle();
  });
}
