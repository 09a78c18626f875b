/**
 * next-auth's name for the console's session cookie (`__Secure-` over https, `.0`, `.1`… when it is
 * split): what tells a request with a console session from one without (lib/surfaces/public-pages).
 */
export const CONSOLE_SESSION_COOKIE = 'next-auth.session-token';
