// A reverse proxy as deploy/ puts one in front of the app (Caddy in deploy/compose, an ingress in
// Kubernetes): every client's requests go over a small pool of keep-alive connections to each
// instance, round robin, with the client's address appended to X-Forwarded-For. The flood tests use
// it to see what one client's refusals do to the others that share a connection.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

export interface RunningReverseProxy {
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers a proxy does not pass on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

export async function startReverseProxy(upstreams: string[], options: { connectionsPerUpstream: number }): Promise<RunningReverseProxy> {
  const pools = upstreams.map((upstream) => new Pool(upstream, { connections: options.connectionsPerUpstream, pipelining: 1, keepAliveTimeout: 60_000 }));
  let next = 0;
  const server = http.createServer((request, response) => {
    const pool = pools[next++ % pools.length]!;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    headers['x-forwarded-for'] = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    pool
      .request({ path: request.url ?? '/', method: request.method as 'GET', headers, body: hasBody ? request : null })
      .then(async (answer) => {
        const passed: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) passed[name] = value;
        response.writeHead(answer.statusCode, passed);
        for await (const chunk of answer.body) response.write(chunk);
        response.end();
      })
      .catch(() => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all(pools.map((pool) => pool.close()));
    },
  };
}
