/** Why a request body could not be read as JSON; each gets a clear 400 in the route's error shape. */
export type BodyProblem = 'content_type' | 'too_large' | 'malformed';

export type BodyRead = { ok: true; value: unknown } | { ok: false; problem: BodyProblem };

/**
 * The client closed its connection (or broke the body's framing) before its request body was
 * complete: nobody is left to answer, and nothing about the request is known. Thrown by
 * readJsonBody; lib/api/route.ts counts it as a client abort (499), never as a failure of ours.
 */
export class ClientAbortedError extends Error {
  constructor(cause?: unknown) {
    super('the client closed the connection before its request body was complete', { cause });
    this.name = 'ClientAbortedError';
  }
}

/**
 * Reads and drops what the client still sends after the limit was passed, in the background: the
 * answer goes out at once and the connection is closed after it (server.mjs keeps reading until the
 * client closes its side or a short deadline passes, then closes the socket, which ends this read).
 * Cancelling the stream instead would destroy the request and reset the connection under a client
 * still sending, before it read the answer.
 */
function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    try {
      for (;;) if ((await reader.read()).done) return;
    } catch {
      // The connection closed: nothing left to drop.
    }
  })();
}

/**
 * Reads a JSON request body without trusting Content-Length: a declared length past `maxBytes` is
 * refused without reading anything, and a stream is cut off as soon as it passes `maxBytes`, so an
 * oversized body costs at most that much memory and its 400 goes out at once (the caller closes the
 * connection after it: the rest is never read into the app). A body that breaks off because the
 * client went away throws ClientAbortedError.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyRead> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) return { ok: false, problem: 'content_type' };
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, problem: 'too_large' };
  // Next hands the route no body when the client was already gone before the route started.
  if (!request.body) {
    if (request.signal.aborted) throw new ClientAbortedError(request.signal.reason);
    return { ok: false, problem: 'malformed' };
  }

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      throw new ClientAbortedError(error);
    }
    if (read.done) break;
    size += read.value.byteLength;
    if (size > maxBytes) {
      dropRest(reader);
      return { ok: false, problem: 'too_large' };
    }
    chunks.push(read.value);
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))) };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
}
