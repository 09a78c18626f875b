// The page turns: how pages (console, portal, sign-in and public) and the integrators' API reads
// Next answers share an instance's event loop with the lookups and with each other's callers. Used
// by server.mjs for every request that is not a lookup or a probe.
import { ADMISSION, FairTurn } from '../../platform/http/fair-turn.mjs';
import { CACHED_PAGE_PATHS, pageArea } from '../../platform/http/page-requests.mjs';
import { refuse, refuseJson } from './responses.mjs';
import { SERVER_BRIDGES } from '../../platform/runtime/server-bridges.mjs';

// Pages rendered per request cost the event loop many lookups' worth each. However many
// connections ask for them, they take turns (lib/platform/http/fair-turn.mjs): one page at a time per turn,
// each caller (a session on the console or the portal, an address elsewhere) behind its own
// earlier pages and at most PAGE_TURN.perCallerLimit of them at once, all of them together at most
// busyShare of the loop. The console, the portal, the sign-in pages and the public pages each have
// a turn of their own, so a crowd on one never fills another's. Before any turn, an address past
// the public pages' per-IP limit is refused at once, and a page the render cache holds is taken
// from it to be written in its turn (both through proxy.ts's answerer, lib/surfaces/public-pages/cache.ts).
// Measured: docs/performance.md, "Public pages under load".
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
  // The integrators' reads Next answers, by address: a crowd of wrong tokens or one integration
  // polling its account waits here, not in front of the lookups, which server.mjs answers itself.
  api: new FairTurn(PAGE_TURN),
  console: new FairTurn(PAGE_TURN),
  portal: new FairTurn(PAGE_TURN),
  'sign-in': new FairTurn(CACHED_PAGE_TURN),
  public: new FairTurn(CACHED_PAGE_TURN),
};
const PAGE_CALLER_KEY = SERVER_BRIDGES.pageCallerKey;
const PUBLIC_PAGE_ANSWERER = SERVER_BRIDGES.publicPageAnswerer;
const PUBLIC_PAGE_RENDER_TOKEN = SERVER_BRIDGES.publicPageRenderToken;

// An address that still carries a typed identifier (proxy.ts, IDENTIFIER_SEARCH_PAGES) is
// rewritten to the page's search route, which Next serves by sending a request to this same
// server: that request takes the turn, so the one that carries it must not hold the turn meanwhile
// (it would wait for itself until Next's proxy gave up, 30 s later, with a 500).
const REWRITTEN_TO_THIS_SERVER = /^\/admin\/(?:registros|datos-personales\/quien-consulto)\?(?:[^#]*&)?identificador=/;

/** The turn a request takes, if any. */
export function pageTurnOf(request, path) {
  if (isOwnPublicPageRender(request) || REWRITTEN_TO_THIS_SERVER.test(request.url)) return undefined;
  return pageArea(request.method, path);
}

/**
 * A public or sign-in page: answered here when the cache holds it or the address is past its
 * per-IP limit (no turn: the limit bounds what each address may ask), otherwise rendered by Next in
 * the area's turn, marked as having spent its limit.
 */
export async function answerPublicPage(request, response, area, path, handle, log) {
  const answerer = CACHED_PAGE_PATHS.has(path) ? globalThis[PUBLIC_PAGE_ANSWERER] : undefined;
  if (answerer) {
    try {
      const query = request.url.slice(path.length);
      const answer = await answerer(path, query, request.method, headerReader(request));
      if (answer?.status === 429) {
        paceRefusedClient(request);
        writeDirectAnswer(request, response, answer);
        return;
      }
      if (answer) {
        inPageTurn(request, response, area, () => writeDirectAnswer(request, response, answer), log);
        return;
      }
      request.headers['x-public-page-limit-spent'] = globalThis[PUBLIC_PAGE_RENDER_TOKEN];
    } catch (error) {
      log.error({ err: error }, 'public page answer failed; Next answers it');
    }
  }
  inPageTurn(request, response, area, () => void handle(request, response), log);
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

/** The instance rendering a public page for its cache (lib/surfaces/public-pages/cache.ts), on behalf of a request that holds the turn. */
function isOwnPublicPageRender(request) {
  const token = globalThis[PUBLIC_PAGE_RENDER_TOKEN];
  return token !== undefined && request.headers['x-public-page-render'] === token;
}

/** Runs `answer` (Next, or a cached page) when the area's turn comes, or refuses the request at once. */
export function inPageTurn(request, response, area, answer, log) {
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
    // An integrator's read its route refused for its own per-minute counter pauses its client as a
    // turn's refusal does: 50 machines of one integration asking past the counter as fast as they
    // are answered kept Next answering 429s, and another integration's lookups went 3 -> 16 ms.
    if (area === 'api') response.once('finish', () => {
      if (response.statusCode === 429) paceRefusedClient(request);
    });
    answer();
  };
  const admission = turn.enter(callerKey, start);
  // (A request that started at once has nothing to withdraw: withdraw() then does nothing.)
  if (admission === ADMISSION.queued) response.once('close', withdraw);
  if (admission === ADMISSION.callerFull) {
    countRefusal(log, area, 'caller');
    paceRefusedClient(request);
    const signedIn = area === 'console' || area === 'portal';
    const retryAfter = { 'retry-after': String(REFUSED_CLIENT_PAUSE_MS / 1000) };
    if (area === 'api') refuseJson(response, 429, { message: API_RATE_LIMITED }, retryAfter);
    else refuse(response, 429, signedIn ? PAGE_REFUSALS.sessionFull : PAGE_REFUSALS.addressFull, retryAfter);
  } else if (admission === ADMISSION.turnFull) {
    countRefusal(log, area, 'crowd');
    paceRefusedClient(request);
    if (area === 'api') refuseJson(response, 429, { message: API_RATE_LIMITED }, { 'retry-after': '5' });
    else refuse(response, 503, PAGE_REFUSALS.turnFull, { 'retry-after': '5' });
  }
}

/** The API's refusals are the catalogs' 429, as their own limits answer it (CATALOG_MESSAGES.rateLimited, lib/contract/messages.ts). */
const API_RATE_LIMITED = 'Demasiadas consultas seguidas. Intenta en un minuto.';

const PAGE_REFUSALS = {
  sessionFull: 'Esta sesión tiene demasiadas páginas pedidas a la vez. Espere un segundo y vuelva a cargar la página.',
  addressFull: 'Demasiadas páginas pedidas a la vez desde su dirección. Espere un segundo y vuelva a intentarlo.',
  turnFull: 'El servicio está atendiendo demasiadas solicitudes de páginas. Vuelva a intentarlo en unos segundos.',
};

// A client just refused a page (429) has its next page request looked at only after this pause,
// the Retry-After it was given: a client that asks again at once, as fast as it is answered, would
// otherwise turn its refusals into a flood of their own. Parked, a request costs a timer. The
// integrators' reads Next answers pause the same way after their own routes' 429. The client is
// the address the per-IP limits count (the one a trusted proxy names), never the connection: a
// reverse proxy carries many clients over a few keep-alive connections, and a pause of the
// connection landed on whoever the proxy sent next on it. A held request keeps its connection
// busy, and the proxies deploy/ ships (Caddy, ingress-nginx) then send others over another one:
// neither caps its connections to an instance (docs/deploy.md says to leave it so).
const REFUSED_CLIENT_PAUSE_MS = 1_000;
// Paused clients at once, at most: past it the expired ones go, then the oldest (a crowd of
// addresses refused within one second, each held for one second, is what this bounds).
const MAX_PAUSED_CLIENTS = 100_000;
const pausedClients = new Map();

/** The client a request comes from, as the per-IP limits count it (the socket's address until proxy.ts has registered the key). */
export function pacingKeyOf(request) {
  return globalThis[PAGE_CALLER_KEY]?.('public', headerReader(request)) ?? `address:${request.socket.remoteAddress}`;
}

function paceRefusedClient(request) {
  const key = pacingKeyOf(request);
  if (pausedClients.size >= MAX_PAUSED_CLIENTS && !pausedClients.has(key)) {
    const now = Date.now();
    for (const [client, until] of pausedClients) if (until <= now) pausedClients.delete(client);
    if (pausedClients.size >= MAX_PAUSED_CLIENTS) pausedClients.delete(pausedClients.keys().next().value);
  }
  // Re-inserted at the end: the map stays in the order of the pauses' ends.
  pausedClients.delete(key);
  pausedClients.set(key, Date.now() + REFUSED_CLIENT_PAUSE_MS);
}

/** How long this request waits before it is looked at (0: at once): its client's pause, if one was just refused. */
export function refusalPauseLeftMs(request) {
  if (pausedClients.size === 0) return 0;
  const key = pacingKeyOf(request);
  const until = pausedClients.get(key);
  if (until === undefined) return 0;
  const left = until - Date.now();
  if (left <= 0) pausedClients.delete(key);
  return Math.max(0, left);
}

// Refusals by the turns are counted and said once a minute at most: a flood would otherwise
// write a log line per refused request.
const refusalCounts = new Map();
let refusalReportTimer;
function countRefusal(log, area, reason) {
  const key = `${area}:${reason}`;
  refusalCounts.set(key, (refusalCounts.get(key) ?? 0) + 1);
  refusalReportTimer ??= setTimeout(() => {
    refusalReportTimer = undefined;
    log.warn({ refused: Object.fromEntries(refusalCounts) }, 'page requests refused by their turns in the last minute (per caller: over its own bound; crowd: the queue was full)');
    refusalCounts.clear();
  }, 60_000).unref();
}
