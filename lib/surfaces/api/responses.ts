import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';

/** A JSON response carrying the request id; a contract route's 429 never carries Retry-After (the contract's rule 5). */
export function jsonResponse(status: number, body: unknown, requestId: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', [REQUEST_ID_HEADER]: requestId },
  });
}

/**
 * A lookup's answer before it is written: plain values, no web Response. server.mjs writes it to
 * the socket as it is (lib/surfaces/api/direct-lookups.ts); behind Next it becomes a Response (answerResponse).
 * Header names are lower case.
 */
export interface LookupAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** A JSON answer carrying the request id, as jsonResponse's. */
export function jsonAnswer(status: number, body: unknown, requestId: string): LookupAnswer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', [REQUEST_ID_HEADER]: requestId }, body: JSON.stringify(body) };
}

/** The web Response of an answer, for Next's route handlers. */
export function answerResponse(answer: LookupAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
