// What server.mjs decides about a request from its target and headers alone, before Next reads it:
// which turn a page takes, a target Next could not decode, a form body too large to read.

const API_PATH = /^\/api(?:\/|$)/;
const CONSOLE_PATH = /^\/admin(?:\/|$)/;
const PORTAL_PATH = /^\/portal(?:\/|$)/;

/** The sign-in pages: their reads are answered from the render cache or take a turn of their own. */
export const SIGN_IN_PAGE_PATHS = new Set(['/admin/login', '/portal/ingresar']);
/**
 * The public pages and documents, and what anyone may ask of the constancias (an examiner's
 * verification, the keys, the log and its proofs): the same for everyone, limited per IP. Outside a
 * turn, 100 addresses asking /verificar took a lookup beside them from 5.5 ms to 348 ms.
 */
export const PUBLIC_PAGE_PATHS = new Set([
  '/',
  '/docs',
  '/estado',
  '/verificar',
  '/api/openapi.json',
  '/api/estado',
  '/.well-known/jwks.json',
  '/api/constancias/verificar',
  '/api/constancias/registro',
  '/api/constancias/registro/inclusion',
  '/api/constancias/registro/consistencia',
]);
/**
 * The integrators' reads Next answers (their account, records, jobs and watch lists): each costs the
 * event loop several lookups' worth in Next's router before its credentials are even looked at.
 */
const INTEGRATOR_API_READS = /^\/api\/(?:cuenta|consultas|lotes|vigilancias|constancias)(?:\/|$)/;
/** The pages the render cache may answer (lib/surfaces/public-pages/pages.ts says for which requests). */
export const CACHED_PAGE_PATHS = new Set(['/', '/docs', '/estado', ...SIGN_IN_PAGE_PATHS]);

/** The target's path, without its query. */
export function pathOf(url) {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Which of server.mjs's turns a request takes, if any: reads of the console's and the portal's
 * pages (and their downloads), the sign-in pages' reads, the public pages, the integrators' API
 * reads. Forms' posts and the API's writes take none.
 */
export function pageArea(method, path) {
  const reads = method === 'GET' || method === 'HEAD';
  if (SIGN_IN_PAGE_PATHS.has(path)) return reads ? 'sign-in' : undefined;
  if (PUBLIC_PAGE_PATHS.has(path)) return 'public';
  if (!reads) return undefined;
  if (INTEGRATOR_API_READS.test(path)) return 'api';
  if (CONSOLE_PATH.test(path)) return 'console';
  if (PORTAL_PATH.test(path)) return 'portal';
  return undefined;
}

/** Whether a path carries a percent sign that does not start a valid UTF-8 escape (Next answers such a target 500). */
export function isMalformedPath(path) {
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

export const MALFORMED_TARGET_MESSAGES = {
  api: 'La dirección de la petición no es válida: tiene una secuencia % mal formada.',
  page: 'La dirección no es válida: tiene una secuencia % mal formada. Revise el enlace.',
};

export function isApiPath(path) {
  return API_PATH.test(path);
}

/** Forms' bodies (server actions, the console's forms): 1 MiB, Next's own default. */
export const FORM_BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Recargas takes a deposit slip of up to 5 MB with its report (lib/flows/top-ups/slips.ts); Next reads
 * up to 6 MiB there (next.config.mjs) so that the action itself can refuse a slip too large in
 * Spanish.
 */
const LARGE_FORM_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
const LARGE_FORM_PAGES = new Set(['/portal/recargas']);

export function formBodyLimitBytes(path) {
  return LARGE_FORM_PAGES.has(path) ? LARGE_FORM_BODY_LIMIT_BYTES : FORM_BODY_LIMIT_BYTES;
}

export const FORM_BODY_MESSAGES = {
  tooLarge: (limitBytes) => `Solicitud demasiado grande: este formulario acepta hasta ${limitBytes / (1024 * 1024)} MB.`,
};

/**
 * A payment provider's webhook (lib/surfaces/api/payment-webhook.ts): a few kilobytes. Next's proxy
 * reads a request's whole body before its route runs, so a body streamed without a length has to be
 * cut off here, or the route's own limit would come only after the last byte.
 */
const PAYMENT_WEBHOOK_PATH = /^\/api\/pagos\/[a-z]+$/;
export const PAYMENT_WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;
/** The webhook route's own words for it, in its JSON shape (`{ error }`). */
export const PAYMENT_WEBHOOK_TOO_LARGE = 'Cuerpo demasiado grande.';

/**
 * How a form post to a page (or a payment webhook) is read, from its headers: refused when
 * announced larger than it takes (413, before a byte of it is read); read whole by server.mjs
 * before Next when sent in chunks (its size is known only at its end: Next would read it to its own
 * limit and answer 500; Next itself forwards a server action to the page that owns it in chunks);
 * otherwise left to Next. Undefined for anything else, the rest of the API included (its routes
 * read bodies with limits of their own). `webhook` says the refusal goes out in the API's shape.
 */
export function formBodyReading(method, path, headers) {
  if (method !== 'POST') return undefined;
  const webhook = isApiPath(path);
  if (webhook && !PAYMENT_WEBHOOK_PATH.test(path)) return undefined;
  const limitBytes = webhook ? PAYMENT_WEBHOOK_BODY_LIMIT_BYTES : formBodyLimitBytes(path);
  if (headers['transfer-encoding'] !== undefined) return { kind: 'chunked', limitBytes, webhook };
  if (Number(headers['content-length'] ?? 0) > limitBytes) return { kind: 'too-large', limitBytes, webhook };
  return undefined;
}

/**
 * Keeps a chunked body in the request's own buffer until it has all arrived (then `onComplete`,
 * on the next tick), or until it passes `limitBytes` (then `onTooLarge` once, and the rest is
 * dropped as it arrives). The parser hands the body to `request.push`: taking every chunk keeps it
 * reading, and the limit bounds what is kept.
 */
export function readWholeBody(request, limitBytes, onComplete, onTooLarge) {
  const push = request.push;
  let received = 0;
  let refused = false;
  request.push = function pushWithinLimit(chunk, encoding) {
    if (chunk === null) {
      request.push = push;
      const result = push.call(this, chunk, encoding);
      if (!refused) process.nextTick(onComplete);
      return result;
    }
    if (refused) return true;
    received += chunk.length;
    if (received > limitBytes) {
      refused = true;
      onTooLarge();
      return true;
    }
    push.call(this, chunk, encoding);
    return true;
  };
}
