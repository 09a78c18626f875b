// The app's HTTP server: Next.js behind a thin node:http wrapper, for one reason. Next copies the
// socket address into X-Forwarded-For only when the client did not send that header, so behind
// plain `next start` a client could choose its own IP and dodge the per-IP limit. Here the socket
// address travels in x-gateway-peer-ip, which clients cannot set (any copy they send is replaced);
// proxy.ts combines it with X-Forwarded-For according to TRUSTED_PROXY_HOPS. The marker below
// tells the app it runs behind this wrapper: without it (`next start`) the app refuses to start.
// First: on an unsupported Node.js the process stops here, before Next.js loads.
import './lib/platform/runtime/refuse-unsupported-node.mjs';
import http from 'node:http';
import nextEnv from '@next/env';
import next from 'next';
import pino from 'pino';
import { runtimeDescription } from './lib/platform/runtime/supported-node.mjs';
import { baselineSecurityHeaders } from './lib/platform/http/baseline-headers.mjs';
import { markClientNavigation } from './lib/surfaces/public-pages/client-navigation.mjs';
import { FORM_BODY_MESSAGES, MALFORMED_TARGET_MESSAGES, PAYMENT_WEBHOOK_TOO_LARGE, formBodyReading, isApiPath, isMalformedPath, pageArea, pathOf, readWholeBody } from './lib/platform/http/page-requests.mjs';
import { Drain } from './lib/root/server/drain.mjs';
import { answerLookup, directLookupFor, loadLookupRoutes } from './lib/root/server/direct-lookups.mjs';
import { gatewayResponseClass } from './lib/root/server/gateway-response.mjs';
import { answerPublicPage, inPageTurn, pageTurnOf, refusalPauseLeftMs } from './lib/root/server/page-turns.mjs';
import { answerProbe, isProbe } from './lib/root/server/probes.mjs';
import { answerAsteriskForm, answerClientError, refuse, refuseJson, refuseMisdirected, toOriginForm } from './lib/root/server/responses.mjs';
import { parseUrl, portRefusal, readDrainTimeout, readMilliseconds, refuseTakenPort } from './lib/root/server/settings.mjs';
import { SERVER_BRIDGES } from './lib/platform/runtime/server-bridges.mjs';

// Read by lib/core/limits/client-ip.ts. A symbol on globalThis, not an environment variable: no
// launcher can claim to be this wrapper by setting it.
globalThis[SERVER_BRIDGES.serverWrapper] = true;

const dev = process.argv.includes('--dev');
// .env files first, as `next` reads them (lib/platform/settings/load-env-files.ts): PORT and HOST there count too.
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: (...parts) => console.error(...parts) });
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const log = pino().child({ component: 'server' });

await refuseTakenPort(log, port, hostname);

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const drain = new Drain({ log, deadlineMs: readDrainTimeout(log, process.env.SHUTDOWN_DRAIN_TIMEOUT_MS) });

// Read after app.prepare(), which loads the .env files. The app validates NEXTAUTH_URL at start
// (required and https in production) and stops if it is wrong; here an unusable value only means
// no public host is known yet.
const publicUrl = parseUrl(process.env.NEXTAUTH_URL);
const BASELINE_HEADERS = Object.entries(baselineSecurityHeaders({ https: publicUrl?.protocol === 'https:' }));

// A request's headers and its whole body must arrive within these (Node's default is 300 s: a
// client trickling a body held a connection and a request slot for five minutes). Past them Node
// answers 408 and closes the connection; it looks every second. Sending the answer is not bounded
// here: a lookup may wait for its source up to its ceiling.
const requestTimeout = readMilliseconds(log, 'REQUEST_RECEIVE_TIMEOUT_MS', process.env.REQUEST_RECEIVE_TIMEOUT_MS, 30_000, 1_000);
// An upgrade is only ever taken for `npm run dev`'s websocket (Next's hot reload). Java's HttpClient
// and curl --http2 offer h2c on every http:// request; Next listens for upgrades once it has served
// a request and closed those connections unanswered. Declined, they are answered in HTTP/1.1.
const shouldUpgradeCallback = (request) => dev && request.headers.upgrade?.toLowerCase() === 'websocket';
const server = http.createServer(
  { ServerResponse: gatewayResponseClass(BASELINE_HEADERS), requestTimeout, headersTimeout: Math.min(20_000, requestTimeout), connectionsCheckingInterval: 1_000, shouldUpgradeCallback },
  (request, response) => {
    request.headers['x-gateway-peer-ip'] = request.socket.remoteAddress ?? '';
    // Next hides a client navigation's `rsc` header and `_rsc` query from proxy.ts; this mark (a
    // client's own copy removed) keeps the page cache from answering it with HTML.
    markClientNavigation(request);
    drain.track(response);
    // A request line in absolute form (`GET http://host/path HTTP/1.1`): clients send it to
    // proxies, and Next answers it with a redirect to that URL, whatever host it names.
    if (request.url === '*') {
      answerAsteriskForm(request, response);
      return;
    }
    if (request.url.charCodeAt(0) !== 47 /* '/' */ && !toOriginForm(request, publicUrl)) {
      refuseMisdirected(response);
      return;
    }
    const directLookup = dev ? undefined : directLookupFor(request);
    if (directLookup) {
      void answerLookup(directLookup, response, log);
      return;
    }
    // A client just refused a page waits out its Retry-After before its next page is looked at,
    // held: the client as the per-IP limits count it, never the connection (page-turns.mjs).
    const pauseMs = pageArea(request.method, pathOf(request.url)) ? refusalPauseLeftMs(request) : 0;
    if (pauseMs > 0) setTimeout(() => route(request, response), pauseMs);
    else route(request, response);
  },
);

/** Everything but the lookups: probes, refusals from the target and headers, pages' turns, Next. */
function route(request, response) {
  if (response.destroyed) return;
  if (isProbe(request) && !drain.draining) {
    answerProbe(request, response, handle, drain);
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
    const requestId = refuseBody(response, formBody);
    log.warn({ requestId, declaredBytes: Number(request.headers['content-length']), limitBytes: formBody.limitBytes }, 'body refused from its headers: announced larger than its page or webhook takes');
    return;
  }
  if (formBody?.kind === 'chunked') {
    readWholeBody(request, formBody.limitBytes, () => {
      if (!response.destroyed) void handle(request, response);
    }, () => {
      const requestId = refuseBody(response, formBody);
      log.warn({ requestId, limitBytes: formBody.limitBytes }, 'body refused at its page\'s or webhook\'s limit: sent in chunks, larger than it takes');
    });
    return;
  }
  const area = pageTurnOf(request, path);
  if (area === 'public' || area === 'sign-in') void answerPublicPage(request, response, area, path, handle, log);
  else if (area) inPageTurn(request, response, area, () => void handle(request, response), log);
  else void handle(request, response);
}

/** 413 for a body past what its page or webhook takes: in the API's shape for a webhook. */
function refuseBody(response, { limitBytes, webhook }) {
  return webhook
    ? refuseJson(response, 413, { error: PAYMENT_WEBHOOK_TOO_LARGE })
    : refuse(response, 413, FORM_BODY_MESSAGES.tooLarge(limitBytes));
}

server.on('clientError', answerClientError(BASELINE_HEADERS));
// Longer than common load balancer idle timeouts, so they close idle connections first.
server.keepAliveTimeout = 65_000;
server.once('error', portRefusal(log, port, hostname));
server.listen(port, hostname, () => {
  log.info({ url: `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`, mode: dev ? 'next dev' : 'built app', runtime: runtimeDescription() }, 'listening');
  // Behind a custom server Next runs instrumentation.ts (migrations, seed, sweeper) on the first
  // request; make that request ourselves so the app is ready, and says so, before anyone calls.
  const local = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  fetch(`http://${local}:${port}/api/health`)
    .then((answer) => answer.arrayBuffer())
    .then(() => (dev ? undefined : loadLookupRoutes(`http://${local}:${port}`, log)))
    .catch((error) => log.error({ err: error }, 'warm-up request failed'));
});
drain.onSignals(server);
