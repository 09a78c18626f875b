/**
 * Where sign-in returns to: the page a signed-out visitor asked for (a deep link such as
 * /admin/registros/32, or /portal/movimientos from a notice's e-mail). Only a relative path inside
 * the same area (the console, or the integrators' portal) is ever taken back, never another site
 * ("//evil.example", "https://…", "/\evil.example") nor the other area: the value comes from a link
 * anyone can send.
 */
export const RETURN_PATH_PARAM = 'volver';

/** The page the console opens when there is nowhere better to return to. */
export const DEFAULT_RETURN_PATH = '/admin';

/**
 * Request header proxy.ts sets on console and portal pages: their path and query, for the sign-in
 * redirect (each area's check takes only its own paths).
 */
export const CONSOLE_PATH_HEADER = 'x-console-path';

/** A signed-in area: its root (where sign-in goes when there is nowhere better) and the pages never returned to. */
export interface ReturnArea {
  root: string;
  signIn: string;
  /** The steps of signing in (the second factor, a required enrolment): returning to them would loop. */
  steps: readonly string[];
}

export const CONSOLE_AREA: ReturnArea = { root: DEFAULT_RETURN_PATH, signIn: '/admin/login', steps: [] };
export const PORTAL_AREA: ReturnArea = { root: '/portal', signIn: '/portal/ingresar', steps: ['/portal/verificacion', '/portal/activar-verificacion'] };

const PLACEHOLDER_ORIGIN = 'http://console.invalid';

function within(pathname: string, page: string): boolean {
  return pathname === page || pathname.startsWith(`${page}/`);
}

/** The path and query to return to, or undefined when `value` is not a page of this site's `area`. */
export function safeReturnPath(value: unknown, area: ReturnArea = CONSOLE_AREA): string | undefined {
  if (typeof value !== 'string' || value.length > 2_000 || !value.startsWith(area.root)) return undefined;
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
  // An encoded dot, slash or backslash left in the path ("/portal/%2e%2e%2fadmin") is no page's
  // address: a server that decodes it later could read it as another path.
  if (!within(pathname, area.root) || /%(2e|2f|5c)/i.test(pathname)) return undefined;
  if (within(pathname, area.signIn) || area.steps.some((step) => within(pathname, step))) return undefined;
  return `${pathname}${url.search}`;
}

/** The sign-in page, remembering `path` when it is worth returning to (the area's root is where sign-in goes anyway). */
export function signInPath(path: string | undefined | null, reason?: string, area: ReturnArea = CONSOLE_AREA): string {
  const query = new URLSearchParams();
  if (reason) query.set('motivo', reason);
  const back = safeReturnPath(path, area);
  if (back && back !== area.root) query.set(RETURN_PATH_PARAM, back);
  const text = query.toString();
  return text ? `${area.signIn}?${text}` : area.signIn;
}

/** A sign-in step's page (the second factor) that opens `path` once done, when it is worth returning to. */
export function stepPath(step: string, path: string | undefined | null, area: ReturnArea): string {
  const back = safeReturnPath(path, area);
  if (!back || back === area.root) return step;
  return `${step}?${new URLSearchParams({ [RETURN_PATH_PARAM]: back })}`;
}
