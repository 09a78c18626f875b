// The gateway's lookups without Next (`npm run bench -- --lookups-alone`, issue 70, point 2): what a
// process that answered only the lookups would cost them. The app's own start (lib/root/startup.ts:
// settings, migrations, jobs, the directory, the limits), the three lookup routes' own modules
// (each registers its answerer, as Next loading them does), and server.mjs's answer of a direct
// lookup (the same response class, headers and writes). Nothing of Next is loaded: its build is not
// prepared, no page is served, and a path that is no lookup is answered 404 here. Spawned by
// bench/main.ts under tsx, as the floor is, with the instance's environment; says "listening" on
// stdout once it answers.
import http from 'node:http';
import pino from 'pino';
import { baselineSecurityHeaders } from '@/lib/platform/http/baseline-headers.mjs';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';
import { answerLookup, directLookupFor } from '@/lib/root/server/direct-lookups.mjs';
import { gatewayResponseClass } from '@/lib/root/server/gateway-response.mjs';

async function main(): Promise<void> {
  // As server.mjs marks its process, and as bench/app.ts starts the instance: its own address is its public one.
  (globalThis as Record<symbol, unknown>)[SERVER_BRIDGES.serverWrapper] = true;
  process.env.NEXTAUTH_URL = `http://127.0.0.1:${process.env.PORT}`;
  const { startServer } = await import('@/lib/root/startup');
  await startServer();
  await import('@/app/api/renap/buscar-cui/route');
  await import('@/app/api/rtu/nits/route');
  await import('@/app/api/catalogos/[catalogo]/route');
  const log = pino().child({ component: 'server' });
  const server = http.createServer({ ServerResponse: gatewayResponseClass(Object.entries(baselineSecurityHeaders({ https: false }))) }, (request, response) => {
    request.headers['x-gateway-peer-ip'] = request.socket.remoteAddress ?? '';
    const lookup = directLookupFor(request);
    if (lookup) void answerLookup(lookup, response, log);
    else response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not a lookup');
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT), '127.0.0.1', resolve));
  console.log('listening');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

void main();
