import type { IncomingMessage } from 'node:http';

/** Why a request body could not be read as JSON; each gets a clear 400 in the route's error shape. */
export type BodyProblem = 'content_type' | 'too_large' | 'malformed';

export type BodyRead = { ok: true; value: unknown } | { ok: false; problem: BodyProblem };

/**
 * The client closed its connection (or broke the body's framing) before its request body was
 * complete: nobody is left to answer, and nothing about the request is known. Thrown by
 * readJsonBody; lib/surfaces/api/route.ts counts it as a client abort (499), never as a failure of ours.
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
  const refused = refusedBeforeReading((name) => request.headers.get(name), maxBytes);
  if (refused) return refused;
  // No body is no JSON; a client already gone before the route started is an abort (thrown below).
  if (!request.body && !request.signal.aborted) return { ok: false, problem: 'malformed' };
  const read = await readBoundedBody(request, maxBytes);
  return read.ok ? parsedBody(read.bytes) : read;
}

export type RawBodyRead = { ok: true; bytes: Buffer } | { ok: false; problem: 'too_large' };

/**
 * A request's body as bytes, whatever its type, read no further than `maxBytes` (a declared
 * length past it is refused without reading): for a body that must be kept exactly as sent, such
 * as a signed webhook's. Past the limit the rest is dropped in the background, as readJsonBody
 * does; a body that breaks off because the client went away throws ClientAbortedError.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<RawBodyRead> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, problem: 'too_large' };
  // Next hands the route no body when the client was already gone before the route started.
  if (!request.body) {
    if (request.signal.aborted) throw new ClientAbortedError(request.signal.reason);
    return { ok: true, bytes: Buffer.alloc(0) };
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
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** The refusals that need no byte of the body: not JSON by its content type, or declared past the limit. */
function refusedBeforeReading(header: (name: string) => string | null, maxBytes: number): BodyRead | undefined {
  const contentType = header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) return { ok: false, problem: 'content_type' };
  const declared = Number(header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, problem: 'too_large' };
  return undefined;
}

function parsedBody(bytes: Buffer): BodyRead {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
}

/**
 * readJsonBody for a request server.mjs hands over as Node received it (lib/surfaces/api/direct-lookups.ts):
 * the same checks, limits and answers, read from the IncomingMessage itself, without the web
 * stream Next would wrap it in. Past the limit the rest is left to flow and be dropped (as
 * dropRest does); a connection that closes before the body ends throws ClientAbortedError.
 */
export function readNodeJsonBody(message: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const refused = refusedBeforeReading((name) => nodeHeader(message, name), maxBytes);
  if (refused) return Promise.resolve(refused);
  if (message.readableEnded || message.destroyed) {
    // Read already, or the connection is gone: nothing more will come.
    if (message.destroyed && !message.complete) return Promise.reject(new ClientAbortedError());
    return Promise.resolve({ ok: false, problem: 'malformed' });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      message.off('data', onData);
      message.off('end', onEnd);
      message.off('error', onBroken);
      message.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        stop();
        // Flowing with no reader: what the client still sends is read and dropped.
        message.resume();
        resolve({ ok: false, problem: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(parsedBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    };
    const onBroken = (error: unknown) => {
      stop();
      reject(new ClientAbortedError(error));
    };
    // Closed before its end: the client went away mid-body.
    const onClose = () => onBroken(undefined);
    message.on('data', onData);
    message.once('end', onEnd);
    message.once('error', onBroken);
    message.once('close', onClose);
  });
}

/** A request header as web Headers' get() gives it (repeated values joined by a comma and a space). */
export function nodeHeader(message: IncomingMessage, name: string): string | null {
  const value = message.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
