// readJsonBody on the edges of framing (issue 21, point 5): an oversized body is refused as soon as
// it passes the limit, without waiting for the rest, and the rest is still drained so the
// connection can close cleanly; a body that breaks off is the client hanging up, not a failure.
import { describe, expect, it } from 'vitest';
import { ClientAbortedError, readJsonBody } from './json-body';

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
