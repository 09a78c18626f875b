// readJsonBody on the edges of framing (issue 21, point 5): an oversized body is refused as soon as
// it passes the limit, without waiting for the rest, and the rest is still drained so the
// connection can close cleanly; a body that breaks off is the client hanging up, not a failure.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientAbortedError, readJsonBody, readNodeJsonBody, type BodyRead } from './json-body';

const LIMIT = 1_024;

function post(body: ReadableStream<Uint8Array> | null, init: { signal?: AbortSignal; contentLength?: number } = {}): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.contentLength !== undefined) headers['content-length'] = String(init.contentLength);
  return new Request('http://gateway.test/api/rtu/nits', { method: 'POST', headers, body, duplex: 'half', signal: init.signal } as RequestInit);
}

describe('readJsonBody', () => {
  it('refuses a body past the limit at once, while the client is still sending, and drops the rest in the background', async () => {
    let pulls = 0;
    let finishSending!: () => void;
    const sendingFinished = new Promise<void>((resolve) => (finishSending = resolve));
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        // Past the limit on the second chunk; the third only comes once the test lets it.
        if (pulls === 3) await sendingFinished;
        if (pulls === 4) return controller.close();
        controller.enqueue(new Uint8Array(LIMIT - 100));
      },
    });

    await expect(readJsonBody(post(stream), LIMIT)).resolves.toEqual({ ok: false, problem: 'too_large' });
    finishSending();
    await expect.poll(() => pulls).toBe(4);
  });

  it('refuses a declared length past the limit without reading anything', async () => {
    let pulled = false;
    // highWaterMark 0: the stream asks for nothing until someone reads.
    const stream = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 });
    await expect(readJsonBody(post(stream, { contentLength: LIMIT + 1 }), LIMIT)).resolves.toEqual({ ok: false, problem: 'too_large' });
    expect(pulled).toBe(false);
  });

  it('a body that breaks off mid-way is a client abort', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"nits":["57'));
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    await expect(readJsonBody(post(stream), LIMIT)).rejects.toBeInstanceOf(ClientAbortedError);
  });

  it('no body because the client was already gone is a client abort; no body otherwise is malformed', async () => {
    await expect(readJsonBody(post(null, { signal: AbortSignal.abort() }), LIMIT)).rejects.toBeInstanceOf(ClientAbortedError);
    await expect(readJsonBody(post(null), LIMIT)).resolves.toEqual({ ok: false, problem: 'malformed' });
  });
});

// The same reader for what server.mjs hands over as Node received it (lib/surfaces/api/direct-lookups.ts),
// over a real socket: the client writes raw HTTP, the server reads with readNodeJsonBody.
describe('readNodeJsonBody', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  /** A server whose every request is read by readNodeJsonBody; each read's outcome, in order. */
  async function reading(): Promise<{ port: number; reads: Array<Promise<BodyRead>>; consumed: () => number }> {
    const reads: Array<Promise<BodyRead>> = [];
    let consumedBytes = 0;
    server = http.createServer((request, response) => {
      request.on('data', (chunk: Buffer) => (consumedBytes += chunk.length));
      const read = readNodeJsonBody(request, LIMIT);
      reads.push(read);
      read.then((result) => response.end(JSON.stringify(result)), () => response.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, reads, consumed: () => consumedBytes };
  }

  function connect(port: number): Promise<net.Socket> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    });
  }

  const head = (headers: string) => `POST /api/rtu/nits HTTP/1.1\r\nhost: gateway.test\r\n${headers}\r\n`;

  it('reads a JSON body; a body that is not UTF-8 JSON, or none, is malformed; another content type is refused unread', async () => {
    const { port, reads } = await reading();
    const body = JSON.stringify({ nits: ['576937K'] });
    const socket = await connect(port);
    socket.write(`${head(`content-type: application/json\r\ncontent-length: ${body.length}\r\n`)}${body}`);
    // 0xff is never UTF-8.
    socket.write(Buffer.concat([Buffer.from(head('content-type: application/json; charset=utf-8\r\ncontent-length: 3\r\n')), Buffer.from([0xff, 0x7b, 0x7d])]));
    socket.write(`${head('content-type: application/json\r\ncontent-length: 0\r\n')}`);
    socket.write(`${head('content-type: text/plain\r\ncontent-length: 2\r\n')}{}`);
    await expect.poll(() => reads.length).toBe(4);
    expect(await Promise.all(reads)).toEqual([
      { ok: true, value: { nits: ['576937K'] } },
      { ok: false, problem: 'malformed' },
      { ok: false, problem: 'malformed' },
      { ok: false, problem: 'content_type' },
    ]);
    socket.destroy();
  });

  it('refuses a body past the limit at once, while the client is still sending, and the rest is still read and dropped', async () => {
    const { port, reads, consumed } = await reading();
    const socket = await connect(port);
    socket.write(`${head('content-type: application/json\r\ntransfer-encoding: chunked\r\n')}`);
    const chunk = (size: number) => `${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`;
    socket.write(chunk(LIMIT - 100) + chunk(LIMIT - 100));
    await expect.poll(() => reads.length).toBe(1);
    await expect(reads[0]).resolves.toEqual({ ok: false, problem: 'too_large' });
    // The client goes on sending after the refusal: it is read (the connection is not reset under it).
    socket.write(chunk(LIMIT) + chunk(LIMIT) + '0\r\n\r\n');
    await expect.poll(consumed).toBe(4 * LIMIT - 200);
    socket.destroy();
  });

  it('refuses a declared length past the limit without reading anything', async () => {
    const { port, reads, consumed } = await reading();
    const socket = await connect(port);
    socket.write(head(`content-type: application/json\r\ncontent-length: ${LIMIT + 1}\r\n`));
    await expect.poll(() => reads.length).toBe(1);
    await expect(reads[0]).resolves.toEqual({ ok: false, problem: 'too_large' });
    expect(consumed()).toBe(0);
    socket.destroy();
  });

  it('a body that breaks off mid-way is a client abort', async () => {
    const { port, reads } = await reading();
    const socket = await connect(port);
    socket.write(`${head('content-type: application/json\r\ncontent-length: 100\r\n')}{"nits":["57`);
    await expect.poll(() => reads.length).toBe(1);
    socket.destroy();
    await expect(reads[0]).rejects.toBeInstanceOf(ClientAbortedError);
  });
});
