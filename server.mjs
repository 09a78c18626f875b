// The app's HTTP server: Next.js behind a thin node:http wrapper, for one reason. Next copies the
// socket address into X-Forwarded-For only when the client did not send that header, so behind
// plain `next start` a client could choose its own IP and dodge the per-IP limit. Here the socket
// address travels in x-gateway-peer-ip, which clients cannot set (any copy they send is replaced);
// proxy.ts combines it with X-Forwarded-For according to TRUSTED_PROXY_HOPS. The marker below
// tells the app it runs behind this wrapper: without it (`next start`) the app refuses to start.
import http from 'node:http';
import next from 'next';
import pino from 'pino';

// Must match lib/limits/client-ip.ts. A symbol on globalThis, not an environment variable: no
// launcher can claim to be this wrapper by setting it.
globalThis[Symbol.for('gateway.serverWrapper')] = true;

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '0.0.0.0';
const log = pino().child({ component: 'server' });

const app = next({ dev, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((request, response) => {
  request.headers['x-gateway-peer-ip'] = request.socket.remoteAddress ?? '';
  void handle(request, response);
});
// Longer than common load balancer idle timeouts, so they close idle connections first.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, hostname, () => {
  log.info({ url: `http://${hostname === '0.0.0.0' ? 'localhost' : hostname}:${port}`, mode: dev ? 'next dev' : 'built app' }, 'listening');
  // Behind a custom server Next runs instrumentation.ts (migrations, seed, sweeper) on the first
  // request; make that request ourselves so the app is ready, and says so, before anyone calls.
  const local = hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  fetch(`http://${local}:${port}/api/health`).catch((error) => log.error({ err: error }, 'warm-up request failed'));
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
