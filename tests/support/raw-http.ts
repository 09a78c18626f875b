// One HTTP/1.1 exchange written byte for byte over node:net, for requests fetch() cannot send: a
// request line in absolute form (`GET http://host/path HTTP/1.1`), a Host header of our choosing.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lower-case names; a header sent more than once has every value, in order. */
  headers: Map<string, string[]>;
  /** The body, de-chunked. */
  text: string;
}

const EXCHANGE_TIMEOUT_MS = 15_000;

/** Sends `GET|HEAD|… <target> HTTP/1.1` with these headers (Connection: close) and reads the answer to the end. */
export function rawRequest(port: number, method: string, target: string, headers: Record<string, string>): Promise<RawAnswer> {
  const head = [`${method} ${target} HTTP/1.1`, ...Object.entries({ ...headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}`)];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: a half-closed socket may be dropped before its answer. Connection: close
    // makes the server end it after the answer.
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head.join('\r\n')}\r\n\r\n`));
    socket.setTimeout(EXCHANGE_TIMEOUT_MS, () => socket.destroy(new Error(`no complete answer to ${method} ${target} within ${EXCHANGE_TIMEOUT_MS} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/** The single value of a header, undefined when absent; a test that sees it twice fails. */
export function singleHeader(answer: RawAnswer, name: string): string | undefined {
  const values = answer.headers.get(name.toLowerCase());
  if (values && values.length > 1) throw new Error(`${name} was sent ${values.length} times: ${values.join(' | ')}`);
  return values?.[0];
}

function parseAnswer(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`not an HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  if (!status) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  let body = raw.subarray(end + 4);
  if (headers.get('transfer-encoding')?.includes('chunked')) body = dechunk(body);
  return { status, headers, text: body.toString('utf8') };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('chunked body ends without its last chunk');
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
