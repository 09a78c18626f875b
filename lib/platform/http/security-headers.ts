import { randomBytes } from 'node:crypto';
import { baselineSecurityHeaders, DENY_ALL_CONTENT_SECURITY_POLICY } from './baseline-headers.mjs';

/** Per-request nonce for the pages' inline scripts (Next reads it from the request's CSP header). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export interface SecurityHeaderOptions {
  /** Pages get a CSP that allows this nonce's scripts; API responses (none) get one that allows nothing. */
  nonce?: string;
  /** The public URL is https: browsers must keep using it (HSTS). */
  https: boolean;
  /** next dev: React's debugging needs eval, and styles arrive as inline <style> elements. */
  development: boolean;
  /** Console pages, lookups and other API answers: never stored by a browser or a shared cache. */
  noStore: boolean;
}

/**
 * Headers on every page and API response: the baseline every answer carries (baseline-headers.mjs)
 * with, for pages, a policy under which a page runs only the scripts Next rendered with this
 * request's nonce ('strict-dynamic' lets them load the app's chunks).
 */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers = baselineSecurityHeaders({ https: options.https });
  headers['Content-Security-Policy'] = options.nonce ? pagePolicy(options.nonce, options.development) : DENY_ALL_CONTENT_SECURITY_POLICY;
  if (options.noStore) headers['Cache-Control'] = 'no-store';
  return headers;
}

function pagePolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // A nonce makes browsers ignore 'unsafe-inline', which next dev's injected styles need.
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    // style="…" attributes (layout tweaks in the console) cannot carry a nonce.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
