// One HTTP exchange with an upstream, as a value: the status and body text, or why there was no
// answer. A single attempt; retrying is the caller's decision (the contract says a 502 is safe
// to retry, and each retry must spend the integrator's limits, so it cannot happen down here).

export type HttpExchange = { ok: true; status: number; bodyText: string } | { ok: false; detail: string };

export interface PostJsonRequest {
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Ceiling for the whole exchange, headers and body included. */
  timeoutMs: number;
}

export async function postJson(request: PostJsonRequest): Promise<HttpExchange> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await request.fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal,
      // A redirect would turn the POST into a GET somewhere else; an upstream that redirects is
      // misconfigured, and its 3xx is reported as such.
      redirect: 'manual',
    });
    const bodyText = await response.text();
    return { ok: true, status: response.status, bodyText };
  } catch (error) {
    if (signal.aborted) return { ok: false, detail: `no answer within ${request.timeoutMs} ms` };
    return { ok: false, detail: `no answer: ${describeNetworkError(error)}` };
  }
}

/** The most specific reason undici gives (ECONNREFUSED, UND_ERR_SOCKET, ...), for logs. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}

/** Base URL from configuration plus an operation path, tolerant of a trailing slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** A short excerpt of a body for internal details (logs, query records). */
export function excerpt(bodyText: string, length = 160): string {
  const flat = bodyText.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}...` : flat;
}

/** JSON.parse as a value. */
export function parseJsonText(bodyText: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(bodyText) as unknown };
  } catch {
    return { ok: false };
  }
}
