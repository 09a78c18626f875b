// One HTTP exchange with an upstream, as a value: the status and body text, or why there was no
// answer. A single attempt; retrying is the caller's decision (the contract says a 502 is safe
// to retry, and each retry must spend the integrator's limits, so it cannot happen down here).
// The one exception is below: a kept-alive connection that the upstream had already closed.
import http from 'node:http';
import https from 'node:https';

export type HttpExchange = { ok: true; status: number; bodyText: string } | { ok: false; detail: string };

export interface PostJsonRequest {
  /** A fetch to use instead of node:http (tests); by default node:http with keep-alive. */
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
// handshake each time. An idle connection is closed by us before the upstream closes it: after
// FREE_SOCKET_TIMEOUT_MS, or one second before the `Keep-Alive: timeout=N` the upstream announces
// when that is sooner (Node applies the hint only when the agent has a timeout of its own; without
// one, idle sockets are kept until the upstream drops them, and a query sent on a socket as it
// drops fails with ECONNRESET: 6 lookups in 153,299 of the ten-minute soak). On a connection in
// use the same timer only emits 'timeout', which nothing here listens to: a slow answer is cut by
// the exchange's own timeoutMs, not by this.
const FREE_SOCKET_TIMEOUT_MS = 4_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256, timeout: FREE_SOCKET_TIMEOUT_MS }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256, timeout: FREE_SOCKET_TIMEOUT_MS }),
};

export function postJson(request: PostJsonRequest): Promise<HttpExchange> {
  return request.fetch ? postWithFetch(request, request.fetch) : postWithNodeHttp(request);
}

/**
 * node:http rather than fetch on the hot path: inside Next.js route handlers the global fetch is
 * wrapped for Next's data cache and tracing, which costs each source query about as much as the
 * query itself on a fast upstream (npm run bench).
 */
function postWithNodeHttp(request: PostJsonRequest): Promise<HttpExchange> {
  return new Promise((resolve) => {
    let settled = false;
    let outgoing: http.ClientRequest | undefined;
    const finish = (exchange: HttpExchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(exchange);
    };
    const timer = setTimeout(() => {
      finish({ ok: false, detail: `no answer within ${request.timeoutMs} ms` });
      outgoing?.destroy();
    }, request.timeoutMs);
    let target: URL;
    try {
      target = new URL(request.url);
    } catch {
      finish({ ok: false, detail: `no answer: invalid upstream URL ${request.url}` });
      return;
    }
    const body = JSON.stringify(request.body);
    const transport = target.protocol === 'https:' ? https : http;
    const send = (attempt: number) => {
      let answered = false;
      // A redirect is not followed (node:http never does): an upstream that redirects is
      // misconfigured, and its 3xx is reported as such.
      const sending = transport.request(
        target,
        {
          method: 'POST',
          agent: agents[target.protocol as keyof typeof agents],
          headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body), ...request.headers },
        },
        (incoming) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          incoming.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) {
              finish({ ok: false, detail: `answer larger than ${MAX_ANSWER_BYTES} bytes` });
              sending.destroy();
              return;
            }
            chunks.push(chunk);
          });
          incoming.on('end', () => finish({ ok: true, status: incoming.statusCode ?? 0, bodyText: Buffer.concat(chunks).toString('utf8') }));
          incoming.on('error', (error) => finish({ ok: false, detail: `no answer: ${describeNetworkError(error)}` }));
          incoming.on('aborted', () => finish({ ok: false, detail: 'no answer: the upstream closed the connection mid-answer' }));
        },
      );
      outgoing = sending;
      sending.on('error', (error) => {
        if (settled) return;
        // The upstream closed a kept-alive connection as we reused it, before a byte of an answer:
        // it dropped an idle connection, not our query, so the query goes once more on a new one
        // (the pattern Node documents for `reusedSocket`). Any other failure is the answer.
        if (attempt === 1 && !answered && sending.reusedSocket && isClosedConnection(error)) {
          send(2);
          return;
        }
        finish({ ok: false, detail: `no answer: ${describeNetworkError(error)}` });
      });
      sending.end(body);
    };
    send(1);
  });
}

/** The peer closed the connection under us (reset, or closed before the request was written). */
function isClosedConnection(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
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
    if (signal.aborted) return { ok: false, detail: `no answer within ${request.timeoutMs} ms` };
    return { ok: false, detail: `no answer: ${describeNetworkError(error)}` };
  }
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
