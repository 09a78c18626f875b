// One HTTP exchange with an upstream, as a value: the status and body text, or why there was no
// answer. A single attempt; retrying is the caller's decision (the contract says a 502 is safe
// to retry, and each retry must spend the integrator's limits, so it cannot happen down here).
// The one exception is below: a kept-alive connection that the upstream had already closed.
import type { Socket } from 'node:net';
import { buildConnector, errors, Pool, type Dispatcher } from 'undici';
import type { SourceFault } from './faults';

/** `detail`: English, for logs and engineers; `fault`: the same as data (lib/sources/faults.ts). */
export type HttpExchange = { ok: true; status: number; bodyText: string } | { ok: false; detail: string; fault: SourceFault };

export interface PostJsonRequest {
  /** A fetch to use instead of the connection pools (tests); by default undici with keep-alive. */
  fetch?: typeof fetch;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Ceiling for the whole exchange, headers and body included. */
  timeoutMs: number;
}

/** An upstream answer larger than this is not one of ours: the source failed. */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

// Connections to the upstreams stay open between queries: a lookup should not pay a TCP (and TLS)
// handshake each time. One undici Pool per upstream origin (undici rather than node:http: it does
// the same exchange with less CPU, docs/performance.md "The upstream client: undici against node:http"), one query per
// connection at a time (no pipelining: a slow answer must not hold up the queries behind it).
// An idle connection is closed by us before the upstream closes it: after IDLE_CONNECTION_MS, or a
// second before the `Keep-Alive: timeout=N` the upstream announces when that is sooner. Without an
// idle limit of our own a query can go out on a connection as the upstream drops it (ECONNRESET:
// 6 lookups in 153,299 of the ten-minute soak). A connection in use is never cut by this: a slow
// answer is cut by the exchange's own timeoutMs.
const IDLE_CONNECTION_MS = 4_000;
const CLOSE_BEFORE_ANNOUNCED_MS = 1_000;
const MAX_CONNECTIONS_PER_UPSTREAM = 256;

const pools = new Map<string, Pool>();

function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) {
    pool = new Pool(origin, {
      connections: MAX_CONNECTIONS_PER_UPSTREAM,
      pipelining: 1,
      keepAliveTimeout: IDLE_CONNECTION_MS,
      keepAliveMaxTimeout: IDLE_CONNECTION_MS,
      keepAliveTimeoutThreshold: CLOSE_BEFORE_ANNOUNCED_MS,
      connect: connectNotingReuse(buildConnector({})),
    });
    pools.set(origin, pool);
  }
  return pool;
}

// Whether the connection a failed query went out on had carried an answer before (a reused, kept-
// alive connection) or was new. undici does not say which connection a query took, so each socket
// notes, on the errors it raises itself (ECONNRESET, EPIPE), how many bytes it had read by then;
// undici's own SocketError ("other side closed") carries the same count.
const bytesReadBeforeError = new WeakMap<Error, number>();

function connectNotingReuse(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (socket) (socket as Socket).on('error', (socketError) => bytesReadBeforeError.set(socketError, (socket as Socket).bytesRead));
      // The tuple type does not survive being passed on whole.
      if (error) callback(error, null);
      else callback(null, socket!);
    });
}

function bytesReadBefore(error: unknown): number | undefined {
  if (error instanceof errors.SocketError) return error.socket?.bytesRead;
  return error instanceof Error ? bytesReadBeforeError.get(error) : undefined;
}

export function postJson(request: PostJsonRequest): Promise<HttpExchange> {
  return request.fetch ? postWithFetch(request, request.fetch) : postWithPool(request);
}

/**
 * undici's Pool rather than fetch on the hot path: inside Next.js route handlers the global fetch
 * is wrapped for Next's data cache and tracing, which costs each source query about as much as
 * the query itself on a fast upstream (npm run bench). Its lowest-level API (dispatch with a
 * handler) rather than Pool.request: no stream and no promise per stage, the answer's chunks
 * collected as they arrive. A redirect is not followed (dispatch never does): an upstream that
 * redirects is misconfigured, and its 3xx is reported as such.
 */
function postWithPool(request: PostJsonRequest): Promise<HttpExchange> {
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return Promise.resolve({ ok: false, detail: `no answer: invalid upstream URL ${request.url}`, fault: { kind: 'misconfigured' } });
  }
  const pool = poolFor(target.origin);
  const options: Dispatcher.DispatchOptions = {
    path: `${target.pathname}${target.search}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
    body: JSON.stringify(request.body),
  };
  return new Promise((resolve) => {
    let settled = false;
    let inFlight: Dispatcher.DispatchController | undefined;
    const finish = (exchange: HttpExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(exchange);
    };
    const timer = setTimeout(() => {
      finish({ ok: false, detail: `no answer within ${request.timeoutMs} ms`, fault: { kind: 'timeout', afterMs: request.timeoutMs } });
      inFlight?.abort(new Error('exchange timed out'));
    }, request.timeoutMs);
    const send = (attempt: number) => {
      let status = 0;
      let answered = false;
      let size = 0;
      const chunks: Buffer[] = [];
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(controller) {
          // Still waiting for a connection when the deadline passed: never send it.
          if (settled) controller.abort(new Error('exchange timed out'));
          else inFlight = controller;
        },
        onResponseStart(_controller, statusCode) {
          answered = true;
          status = statusCode;
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            finish({ ok: false, detail: `answer larger than ${MAX_ANSWER_BYTES} bytes`, fault: { kind: 'too_large' } });
            controller.abort(new Error('answer too large'));
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          finish({ ok: true, status, bodyText: Buffer.concat(chunks, size).toString('utf8') });
        },
        onResponseError(_controller, error) {
          if (settled) return;
          if (answered) {
            finish(noAnswer(error, isClosedConnection(error) ? 'no answer: the upstream closed the connection mid-answer' : `no answer: ${describeNetworkError(error)}`));
            return;
          }
          // The upstream closed a kept-alive connection as we reused it, before a byte of an
          // answer: it dropped an idle connection, not our query, so the query goes once more on a
          // new one. A new connection dropped is the upstream failing: that is the answer, never
          // sent twice.
          if (attempt === 1 && isClosedConnection(error) && (bytesReadBefore(error) ?? 0) > 0) {
            send(2);
            return;
          }
          finish(noAnswer(error, `no answer: ${describeNetworkError(error)}`));
        },
      };
      try {
        pool.dispatch(options, handler);
      } catch (error) {
        // Options undici refuses outright (a header value it cannot send, say): no exchange.
        finish(noAnswer(error, `no answer: ${describeNetworkError(error)}`));
      }
    };
    send(1);
  });
}

/** The peer closed the connection under us (reset, closed before the request was written, or closed). */
function isClosedConnection(error: unknown): boolean {
  if (error instanceof errors.SocketError) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

async function postWithFetch(request: PostJsonRequest, fetchImplementation: typeof fetch): Promise<HttpExchange> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetchImplementation(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal,
      // A redirect would turn the POST into a GET somewhere else; an upstream that redirects is
      // misconfigured, and its 3xx is reported as such.
      redirect: 'manual',
    });
    const bodyText = await response.text();
    return { ok: true, status: response.status, bodyText };
  } catch (error) {
    if (signal.aborted) return { ok: false, detail: `no answer within ${request.timeoutMs} ms`, fault: { kind: 'timeout', afterMs: request.timeoutMs } };
    return noAnswer(error, `no answer: ${describeNetworkError(error)}`);
  }
}

/** A failed connection as an exchange, with the network's own code (ECONNREFUSED…) when it gave one. */
function noAnswer(error: unknown, detail: string): HttpExchange {
  const code = networkErrorCode(error);
  return { ok: false, detail, fault: code === undefined ? { kind: 'no_answer' } : { kind: 'no_answer', code } };
}

function networkErrorCode(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 3; cause = cause.cause, depth++) {
    const code = (cause as Error & { code?: unknown }).code;
    // Codes are short upper-case words (ECONNRESET, UND_ERR_SOCKET); anything else is not kept.
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
  }
  return undefined;
}

/** The most specific reason given (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, ...), for logs. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string') return `${code} (${error.message})`;
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

/** Base URL from configuration plus an operation path, tolerant of a trailing slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** A short excerpt of a body for internal details (logs, query records). */
export function excerpt(bodyText: string, length = 160): string {
  const flat = bodyText.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}...` : flat;
}

/** JSON.parse as a value. */
export function parseJsonText(bodyText: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(bodyText) as unknown };
  } catch {
    return { ok: false };
  }
}
