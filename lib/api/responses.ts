import { REQUEST_ID_HEADER } from '@/lib/http/request-id';

/** A JSON response carrying the request id; no 429 of ours ever carries Retry-After. */
export function jsonResponse(status: number, body: unknown, requestId: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', [REQUEST_ID_HEADER]: requestId },
  });
}
