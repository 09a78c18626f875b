/** Why a request body could not be read as JSON; each gets a clear 400 in the route's error shape. */
export type BodyProblem = 'content_type' | 'too_large' | 'malformed';

export type BodyRead = { ok: true; value: unknown } | { ok: false; problem: BodyProblem };

/**
 * Reads a JSON request body without trusting Content-Length: the stream is cut off as soon as it
 * passes `maxBytes`, so an oversized body costs at most that much memory.
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
      await reader.cancel().catch(() => {});
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
