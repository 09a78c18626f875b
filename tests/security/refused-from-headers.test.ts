// Requests the built app refuses from their target and headers, before Next reads them: a path
// with a malformed percent-encoding (Next answered 500, with no request id and nothing logged), a
// form body announced larger than the page takes (it was read for 30 s until 408) and one sent in
// chunks past it (read up to Next's limit, then 500). Each is a 4xx in the route's shape, with a request id
// that the log names. (Next itself sends a server action to the page that owns it in chunks: those
// must still arrive, tests/portal/portal-isolation.test.ts.)
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_LEVEL, logLines } from '../support/logs';
import { addPortalMember, portalSignedIn } from '../support/people';
import type { PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { createTestIntegration, startGateway, type Gateway } from '../conformance/harness';

/** The app answers these from the headers: anything slower is the old behaviour (a 30 s read). */
const ANSWER_TIMEOUT_MS = 10_000;
const FIFTY_MEGABYTES = 50 * 1024 * 1024;

let testDatabase: TestDatabase;
let gateway: Gateway;
let billing: PortalClient;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const integration = await createTestIntegration('refused-from-headers', { balanceCentavos: 1_000 });
  await addPortalMember(integration, 'pagos-cabeceras@example.com', 'facturacion');
  gateway = await startGateway(testDatabase, { env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '500' } });
  billing = await portalSignedIn(gateway.app.baseUrl, 'pagos-cabeceras@example.com');
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

interface HeadAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Writes a request's head (and, with 'chunks', 64 KiB chunks for as long as the socket takes them),
 * and reads the answer's status line, headers and as much of its body as arrives with it.
 */
function sendHead(lines: string[], trickle: 'none' | 'chunks'): Promise<HeadAnswer> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(gateway.app.port, '127.0.0.1', () => {
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (trickle === 'none') return;
      const piece = Buffer.alloc(64 * 1024, 0x41);
      const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk));
      };
      socket.on('drain', pump);
      pump();
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms: ${received.slice(0, 200)}`));
    }, ANSWER_TIMEOUT_MS);
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...headerLines] = received.slice(0, end).split('\r\n');
      const headers = new Map(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const length = Number(headers.get('content-length') ?? 0);
      const body = Buffer.from(received.slice(end + 4), 'latin1');
      if (body.length < length) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') });
    });
    socket.on('error', (error) => {
      // The server may close while we still write (it refused the rest): what it answered counts.
      if (!received.includes('\r\n\r\n')) {
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

/** The app's log lines naming this request id, once one has arrived (its output reaches this process a moment after the answer). */
async function loggedWith(requestId: string | undefined) {
  expect(requestId).toMatch(/\S/);
  const named = () => logLines(gateway.app.logs()).filter((line) => line.requestId === requestId);
  for (let waited = 0; named().length === 0 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return named();
}

const cookieHeader = () => [...billing.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

describe('a path with a malformed percent-encoding', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is answered 400 in the API\'s shape on /api, with a request id the log names', async () => {
    const answer = await fetch(`${gateway.app.baseUrl}/api/lotes/%E0%A4%A`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ message: 'La dirección de la petición no es válida: tiene una secuencia % mal formada.' });
    const logged = await loggedWith(answer.headers.get('x-request-id') ?? undefined);
    expect(logged.map((line) => line.level)).toEqual([LOG_LEVEL.warn]);
  });

  it('is answered 400 in Spanish on the portal, signed in or not', async () => {
    for (const cookie of [cookieHeader(), '']) {
      const answer = await fetch(`${gateway.app.baseUrl}/portal/consultas/%E0%A4%A`, { headers: { cookie }, redirect: 'manual' });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toBe('La dirección no es válida: tiene una secuencia % mal formada. Revise el enlace.');
      expect(await loggedWith(answer.headers.get('x-request-id') ?? undefined)).toHaveLength(1);
    }
  });
});

describe('a form body too large for its page', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const head = (framing: string) => [
    'POST /portal/recargas HTTP/1.1',
    `Host: 127.0.0.1:${gateway.app.port}`,
    `Cookie: ${cookieHeader()}`,
    `Origin: ${gateway.app.baseUrl}`,
    'Next-Action: 0123456789abcdef0123456789abcdef01234567ab',
    'Content-Type: multipart/form-data; boundary=----limite',
    framing,
  ];

  it('is refused from its headers with 413 when announced larger than Recargas takes (6 MB), before its body is sent', async () => {
    const answer = await sendHead(head(`Content-Length: ${FIFTY_MEGABYTES}`), 'none');
    expect(answer.status).toBe(413);
    expect(answer.body).toBe('Solicitud demasiado grande: este formulario acepta hasta 6 MB.');
    expect(answer.headers.get('connection')).toBe('close');
    expect(await loggedWith(answer.headers.get('x-request-id'))).toHaveLength(1);
  });

  it('is refused with 413 at the limit when sent in chunks, as 50 MB arrive, never answered 500', async () => {
    const answer = await sendHead(head('Transfer-Encoding: chunked'), 'chunks');
    expect(answer.status).toBe(413);
    expect(answer.body).toBe('Solicitud demasiado grande: este formulario acepta hasta 6 MB.');
    expect(answer.headers.get('connection')).toBe('close');
    expect(await loggedWith(answer.headers.get('x-request-id'))).toHaveLength(1);
  });
});
