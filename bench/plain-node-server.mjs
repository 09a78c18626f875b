// The benchmark's floor: the same JSON a lookup answered, from a plain node:http server with no
// framework (POST /?lookup=<name>). Next's bare route handler minus this is what Next.js itself
// costs per request (npm run bench prints both). Reads the answers from the file named by
// BENCH_BARE_RESPONSES_FILE; listens on 127.0.0.1:PORT and says "listening" on stdout.
import fs from 'node:fs';
import http from 'node:http';

const answers = new Map(Object.entries(JSON.parse(fs.readFileSync(process.env.BENCH_BARE_RESPONSES_FILE, 'utf8'))).map(([name, body]) => [name, JSON.stringify(body)]));

const server = http.createServer((request, response) => {
  const body = answers.get(new URL(request.url ?? '/', 'http://bench').searchParams.get('lookup') ?? '');
  request.resume();
  request.on('end', () => {
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
