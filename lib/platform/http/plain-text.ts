/** A short answer in plain text that no cache keeps: what a download route says when it refuses. */
export function plainText(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}
