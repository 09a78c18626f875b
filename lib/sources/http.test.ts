// The upstream transport's handling of kept-alive connections, against real local HTTP servers:
// a query sent on a connection the upstream was closing must still get its answer (the soak saw
// six such 502s in 153,299 lookups), and nothing else may be sent twice.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from './http';

interface Upstream {
  url: string;
  connections: number;
  requests: number;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
});

/** A local upstream; `answer` decides per request, knowing how many requests its connection has carried. */
async function startUpstream(
  answer: (request: IncomingMessage, response: ServerResponse, requestOnConnection: number) => void,
  keepAliveTimeoutMs = 5_000,
): Promise<Upstream> {
  const perConnection = new WeakMap<Socket, number>();
  const upstream: Upstream = { url: '', connections: 0, requests: 0 };
  const server = createServer((request, response) => {
    upstream.requests++;
    const count = (perConnection.get(request.socket) ?? 0) + 1;
    perConnection.set(request.socket, count);
    request.resume();
    request.on('end', () => answer(request, response, count));
  });
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', (socket) => {
    upstream.connections++;
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/consulta`;
  return upstream;
}

function answerJson(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"ok":true}');
}

const query = (url: string) => postJson({ url, headers: {}, body: { nit: '576937K' }, timeoutMs: 2_000 });

/**
 * Lets the connection that just answered become reusable. undici looks at an idle kept-alive
 * connection once more (in the event loop's next check phase) before it sends a query on it, so a
 * pending close from the upstream is seen first (GHSA-35p6-xmwp-9g52); a query sent before that
 * goes on another connection.
 */
const connectionReusable = () => new Promise((resolve) => setImmediate(resolve));

describe('postJson over kept-alive connections', () => {
  it('sends the query again on a new connection when the upstream drops the reused one before answering', async () => {
    // The upstream answers the first request of each connection and drops the connection at the
    // second, as a server does when its keep-alive timer fires while our query is on the wire.
    const upstream = await startUpstream((request, response, requestOnConnection) => {
      if (requestOnConnection === 1) answerJson(response);
      else request.socket.destroy();
    });

    expect(await query(upstream.url)).toEqual({ ok: true, status: 200, bodyText: '{"ok":true}' });
    await connectionReusable();
    expect(await query(upstream.url)).toEqual({ ok: true, status: 200, bodyText: '{"ok":true}' });
    expect(upstream.connections).toBe(2);
    expect(upstream.requests).toBe(3);
  });

  it('sends the query again when the upstream resets (RST) the reused connection before answering', async () => {
    const upstream = await startUpstream((request, response, requestOnConnection) => {
      if (requestOnConnection === 1) answerJson(response);
      else request.socket.resetAndDestroy();
    });

    expect(await query(upstream.url)).toEqual({ ok: true, status: 200, bodyText: '{"ok":true}' });
    await connectionReusable();
    expect(await query(upstream.url)).toEqual({ ok: true, status: 200, bodyText: '{"ok":true}' });
    expect(upstream.requests).toBe(3);
  });

  it('does not send again when a new connection is reset', async () => {
    const upstream = await startUpstream((request) => request.socket.resetAndDestroy());

    const exchange = await query(upstream.url);

    expect(exchange).toMatchObject({ ok: false, detail: expect.stringMatching(/^no answer: ECONNRESET/), fault: { kind: 'no_answer', code: 'ECONNRESET' } });
    expect(upstream.requests).toBe(1);
  });

  it('gives up at the deadline when the upstream does not answer, and the next query is answered', async () => {
    const upstream = await startUpstream((_request, response, requestOnConnection) => {
      if (requestOnConnection > 1 || upstream.requests > 1) answerJson(response);
    });

    expect(await postJson({ url: upstream.url, headers: {}, body: {}, timeoutMs: 200 })).toEqual({ ok: false, detail: 'no answer within 200 ms', fault: { kind: 'timeout', afterMs: 200 } });
    expect(await query(upstream.url)).toEqual({ ok: true, status: 200, bodyText: '{"ok":true}' });
    expect(upstream.requests).toBe(2);
  });

  it('answers a header it cannot send as a failed exchange, without sending anything', async () => {
    const upstream = await startUpstream((_request, response) => answerJson(response));

    const exchange = await postJson({ url: upstream.url, headers: { 'x-api-key': 'key\r\nx-injected: 1' }, body: {}, timeoutMs: 2_000 });

    expect(exchange).toMatchObject({ ok: false, detail: expect.stringMatching(/^no answer: /), fault: { kind: 'no_answer' } });
    expect(upstream.requests).toBe(0);
  });

  it('refuses an answer larger than 5 MB without reading the rest', async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(Buffer.alloc(6 * 1024 * 1024, 0x20));
    });

    expect(await query(upstream.url)).toEqual({ ok: false, detail: 'answer larger than 5242880 bytes', fault: { kind: 'too_large' } });
  });

  it('does not send again when a new connection is dropped: that is the upstream failing', async () => {
    const upstream = await startUpstream((request) => request.socket.destroy());

    const exchange = await query(upstream.url);

    expect(exchange.ok).toBe(false);
    expect(!exchange.ok && exchange.detail).toMatch(/^no answer: (ECONNRESET|UND_ERR_SOCKET)/);
    expect(upstream.requests).toBe(1);
  });

  it('does not send again when the upstream drops the connection after it began to answer', async () => {
    const upstream = await startUpstream((request, response, requestOnConnection) => {
      if (requestOnConnection === 1) return answerJson(response);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"ok":');
      setTimeout(() => request.socket.destroy(), 20);
    });

    await query(upstream.url);
    await connectionReusable();
    const exchange = await query(upstream.url);

    expect(exchange).toMatchObject({ ok: false, detail: 'no answer: the upstream closed the connection mid-answer', fault: { kind: 'no_answer' } });
    expect(upstream.requests).toBe(2);
  });

  it('closes an idle connection a second before the keep-alive time the upstream announces', async () => {
    // Node's server announces `Keep-Alive: timeout=2`: we must stop reusing the connection after
    // one second, so that no query is ever sent on it as the upstream closes it at two.
    const upstream = await startUpstream((_request, response) => answerJson(response), 2_000);

    await query(upstream.url);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(await query(upstream.url)).toMatchObject({ ok: true, status: 200 });

    expect(upstream.connections).toBe(2);
  });

  it('keeps a busy connection open past the idle limit while the upstream is still answering', async () => {
    const upstream = await startUpstream((_request, response) => {
      setTimeout(() => answerJson(response), 1_500);
    }, 2_000);

    await query(upstream.url);
    await connectionReusable();
    // Idle for less than a second: reused, and the slow answer still arrives on it.
    expect(await query(upstream.url)).toMatchObject({ ok: true, status: 200 });
    expect(upstream.connections).toBe(1);
  });
});
