/**
 * Where sign-in returns to: the console page a signed-out visitor asked for (a deep link such as
 * /admin/registros/32). Only a relative path inside the console is ever taken back, never another
 * site ("//evil.example", "https://…", "/\evil.example"): the value comes from a link anyone can send.
 */
export const RETURN_PATH_PARAM = 'volver';

/** The page the console opens when there is nowhere better to return to. */
export const DEFAULT_RETURN_PATH = '/admin';

/** Request header proxy.ts sets on console pages: their path and query, for the sign-in redirect. */
export const CONSOLE_PATH_HEADER = 'x-console-path';

const PLACEHOLDER_ORIGIN = 'http://console.invalid';

/** The path and query to return to, or undefined when `value` is not a console page of this site. */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2_000 || !value.startsWith('/admin')) return undefined;
  // Browsers read a backslash as a slash ("/\evil.example" is another host); control characters are never a path.
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return undefined;
  const { pathname } = url;
  if (pathname !== '/admin' && !pathname.startsWith('/admin/')) return undefined;
  if (pathname === '/admin/login' || pathname.startsWith('/admin/login/')) return undefined;
  return `${pathname}${url.search}`;
}

/** The sign-in page, remembering `path` when it is worth returning to (the Panel is where sign-in goes anyway). */
export function signInPath(path: string | undefined | null, reason?: string): string {
  const query = new URLSearchParams();
  if (reason) query.set('motivo', reason);
  const back = safeReturnPath(path);
  if (back && back !== DEFAULT_RETURN_PATH) query.set(RETURN_PATH_PARAM, back);
  const text = query.toString();
  return text ? `/admin/login?${text}` : '/admin/login';
}
