// One request to an outside party (a FEL certifier, a payment provider) whose outcome must be told
// apart as the caller settles it: an answer; not sent at all (safe to try again); or lost after it
// may have arrived (settled by asking the other side, never by sending again).
import { Agent, request, type Dispatcher } from 'undici';

export type LostReason = 'timeout_after_sending' | 'connection_dropped' | 'unreadable_answer';

export type CallOnceResult =
  | { kind: 'answer'; status: number; bodyText: string }
  | { kind: 'not_sent'; detail: string }
  | { kind: 'lost'; reason: LostReason; detail: string };

export interface CallOnceInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Waiting for the answer's headers, and then between its chunks. */
  timeoutMs: number;
  /** A larger answer is read no further and counts as unreadable. */
  maxAnswerBytes: number;
}

// Network error codes raised before a byte of the request left: the other side cannot have acted.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_INVALID_ARG']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_ABORTED', 'ABORT_ERR']);

/** Calls to one outside party: up to `connectTimeoutMs`, a request that has not connected was never sent. */
export function outsideParty(connectTimeoutMs: number): (url: string, init: CallOnceInit) => Promise<CallOnceResult> {
  const agent = new Agent({ connect: { timeout: connectTimeoutMs } });
  return async (url, init) => {
    const options: { dispatcher: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path'> = {
      dispatcher: agent,
      method: init.method,
      headers: init.headers,
      body: init.body,
      // A fresh connection per call: a kept-alive one closed by the other side as we reuse it would
      // make a call that never arrived look like one that may have (these calls are few).
      reset: true,
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
      signal: AbortSignal.timeout(init.timeoutMs + connectTimeoutMs),
    };
    try {
      const answer = await request(url, options);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += (chunk as Buffer).length;
        if (size > init.maxAnswerBytes) {
          answer.body.destroy();
          return { kind: 'lost', reason: 'unreadable_answer', detail: `answer larger than ${init.maxAnswerBytes} bytes` };
        }
        chunks.push(chunk as Buffer);
      }
      return { kind: 'answer', status: answer.statusCode, bodyText: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      const code = errorCode(error);
      const detail = `no answer: ${code ?? (error as Error).message}`;
      if (code !== undefined && NOT_SENT_CODES.has(code)) return { kind: 'not_sent', detail };
      if ((code !== undefined && TIMEOUT_CODES.has(code)) || (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') {
        return { kind: 'lost', reason: 'timeout_after_sending', detail: `no answer within ${init.timeoutMs} ms` };
      }
      return { kind: 'lost', reason: 'connection_dropped', detail };
    }
  };
}

function errorCode(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
