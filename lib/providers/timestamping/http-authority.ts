// RFC 3161 over HTTP (its section 3.4): the request POSTed as application/timestamp-query, the
// reply read as application/timestamp-reply and verified before it counts as a time stamp.
import { randomBytes } from 'node:crypto';
import type { TimeStampAuthority, TimeStampOutcome } from './authority';
import { readCertificates, readTimeStampReply, timeStampRequest } from './rfc3161';

export interface HttpTimeStampAuthorityOptions {
  url: string;
  /** PEM of the authority's certificate, or of the CA its certificate chains to. */
  trustedCertificatePem: string;
  /** The whole call: connecting, sending and reading the reply. */
  timeoutMs: number;
  /** HTTP basic authentication, for authorities that sell their stamps. Secrets: never logged. */
  username?: string;
  password?: string;
}

// A reply is a few kilobytes (the token and a certificate or two); more is no reply.
const MAX_REPLY_BYTES = 1024 * 1024;
const NONCE_BYTES = 16;

/** An authority reached over HTTP; throws at once when the trusted certificate cannot be read. */
export function httpTimeStampAuthority(options: HttpTimeStampAuthorityOptions): TimeStampAuthority {
  // Read now: a certificate that cannot be read is a configuration mistake, not an outcome.
  const trusted = readCertificates(options.trustedCertificatePem);
  const headers: Record<string, string> = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' };
  if (options.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
  }

  return {
    async stamp(digest) {
      // A fresh nonce per call ties the reply to this request: an old reply replayed does not match.
      const nonce = randomBytes(NONCE_BYTES);
      const request = timeStampRequest(digest, nonce);
      const signal = AbortSignal.timeout(options.timeoutMs);
      let answer: Response;
      try {
        answer = await fetch(options.url, { method: 'POST', headers, body: request, signal, redirect: 'error' });
      } catch (error) {
        return unreachable(error, options.timeoutMs);
      }
      let body: Uint8Array | null;
      try {
        body = await readLimited(answer, MAX_REPLY_BYTES);
      } catch (error) {
        return unreachable(error, options.timeoutMs);
      }
      if (answer.status >= 500 || answer.status === 408 || answer.status === 429) return { kind: 'unreachable', detail: `HTTP ${answer.status}` };
      if (answer.status !== 200) return { kind: 'invalid', detail: `HTTP ${answer.status}, not a time stamp reply` };
      const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (contentType !== 'application/timestamp-reply') return { kind: 'invalid', detail: `the answer is ${contentType || 'untyped'}, not application/timestamp-reply` };
      if (body === null) return { kind: 'invalid', detail: `the answer is larger than ${MAX_REPLY_BYTES} bytes` };
      return readTimeStampReply(body, { digest, nonce, trusted });
    },
  };
}

async function readLimited(answer: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (answer.body === null) return new Uint8Array();
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Uint8Array(Buffer.concat(chunks));
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
}

function unreachable(error: unknown, timeoutMs: number): TimeStampOutcome {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'unreachable', detail: `no answer within ${timeoutMs} ms` };
  // The cause's code (ECONNREFUSED, ENOTFOUND) says what happened; the URL, which may hold a secret, is not repeated.
  let code: string | undefined;
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 4 && code === undefined; cause = cause.cause, depth++) {
    const candidate = (cause as Error & { code?: unknown }).code;
    if (typeof candidate === 'string') code = candidate;
  }
  return { kind: 'unreachable', detail: `no answer: ${code ?? (error as Error).message}` };
}
