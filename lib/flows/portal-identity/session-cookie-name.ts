/**
 * The portal's session cookie (`__Host-` over https), in a module of its own so that proxy.ts can
 * tell a request with a portal session from one without (lib/surfaces/public-pages) without loading the
 * portal's session code and the database with it.
 */
export const PORTAL_SESSION_COOKIE = 'portal-sesion';
