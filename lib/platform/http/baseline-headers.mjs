// The security headers every answer carries, whoever wrote it. Plain JavaScript, not TypeScript:
// server.mjs (npm start) adds them to any answer that lacks them, with no compiler in between, and
// lib/platform/http/security-headers.ts builds the pages' and the API's headers on the same values.
//
// Why they are what they are: docs/decisions.md, "Security headers".

/** The API's policy, and the one for any answer that did not choose its own: nothing may load or frame it. */
export const DENY_ALL_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** One year, subdomains included: sent only when the public URL is https. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * Headers no answer goes without: a 404 of Next's own, a trailing-slash redirect, a static file,
 * an image. Filter URLs carry NITs and CUIs, so nothing is sent as a referrer; nothing may be
 * framed or sniffed into another type.
 */
export function baselineSecurityHeaders({ https }) {
  const headers = {
    'Content-Security-Policy': DENY_ALL_CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
  };
  if (https) headers['Strict-Transport-Security'] = STRICT_TRANSPORT_SECURITY;
  return headers;
}
