/** Why a request body could not be read as JSON; each gets a clear 400 in the route's error shape. */
export type BodyProblem = 'content_type' | 'too_large' | 'malformed';

export type BodyRead = { ok: true; value: unknown } | { ok: false; problem: BodyProblem };

/** How much of an oversized body is read and dropped, as a multiple of the limit, before giving up on the connection. */
const DISCARD_FACTOR = 64;

/**
 * Reads the rest of an oversized body into nothing, so the client, still sending, receives the 400
 * on a connection it can keep using; cancelling at once breaks that connection under the client's
 * feet (its request fails instead of reading our answer). Past `limit` bytes the connection is cut.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<void> {
  let discarded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > limit) break;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => {});
}

/**
 * Reads a JSON request body without trusting Content-Length: the stream is cut off as soon as it
 * passes `maxBytes`, so an oversized body costs at most that much memory (the rest is read and
 * dropped, up to a bound).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyRead> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) return { ok: false, problem: 'content_type' };
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, problem: 'too_large' };
  if (!request.body) return { ok: false, problem: 'malformed' };

  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await discardRest(reader, maxBytes * DISCARD_FACTOR);
      return { ok: false, problem: 'too_large' };
    }
    chunks.push(value);
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))) };
  } catch {
    return { ok: false, problem: 'malformed' };
  }
}
