import { describe, expect, it } from 'vitest';
import { cutAtNonce, joinedBody, pageAnswer, type CachedPage } from './cache';
import { CLIENT_NAVIGATION_HEADER } from './client-navigation.mjs';
import { answerableFromCache, isSignInPage } from './pages';

function headersOf(values: Record<string, string>): (name: string) => string | null {
  return (name) => values[name] ?? null;
}

describe('which requests get a cached page', () => {
  it('the public pages, whatever the request carries, but never to a client navigation', () => {
    expect(answerableFromCache('/docs', '', headersOf({ cookie: 'next-auth.session-token=abc' }))).toBe(true);
    expect(answerableFromCache('/estado', '?x=1', headersOf({}))).toBe(true);
    expect(answerableFromCache('/', '', headersOf({}))).toBe(true);
    for (const path of ['/', '/docs', '/estado']) expect(answerableFromCache(path, '', headersOf({ [CLIENT_NAVIGATION_HEADER]: '1' })), path).toBe(false);
  });

  it('a sign-in page only signed out, with no query, as a full page', () => {
    for (const path of ['/admin/login', '/portal/ingresar']) {
      expect(isSignInPage(path), path).toBe(true);
      expect(answerableFromCache(path, '', headersOf({})), path).toBe(true);
      // Cookies the pages never read (next-auth's CSRF pair, the known-device cookies) change nothing.
      expect(answerableFromCache(path, '', headersOf({ cookie: 'next-auth.csrf-token=a%7Cb; consola-dispositivo=v1.x' })), path).toBe(true);
      for (const cookie of [
        'next-auth.session-token=abc',
        '__Secure-next-auth.session-token=abc',
        'a=1; __Secure-next-auth.session-token.0=abc',
        'portal-sesion=abc',
        'x=1;__Host-portal-sesion=abc',
      ]) {
        expect(answerableFromCache(path, '', headersOf({ cookie })), `${path} ${cookie}`).toBe(false);
      }
      for (const search of ['?volver=%2Fadmin%2Fregistros', '?motivo=salida', '?error=CredentialsSignin', '?callbackUrl=%2Fadmin', '?_rsc=1x']) {
        expect(answerableFromCache(path, search, headersOf({})), `${path}${search}`).toBe(false);
      }
      // Next strips `rsc` and `_rsc` before proxy.ts: server.mjs's mark is what says it.
      expect(answerableFromCache(path, '', headersOf({ [CLIENT_NAVIGATION_HEADER]: '1' })), path).toBe(false);
    }
  });

  it('no other page', () => {
    for (const path of ['/admin', '/admin/login/', '/portal', '/portal/restablecer', '/admin/verificacion']) {
      expect(answerableFromCache(path, '', headersOf({})), path).toBe(false);
      expect(isSignInPage(path), path).toBe(false);
    }
  });
});

describe('a cached page answered with a nonce of its own', () => {
  const RENDER_NONCE = 'UmVuZGVyTm9uY2UrLz0xMg==';
  const policy = `default-src 'self'; script-src 'self' 'nonce-${RENDER_NONCE}' 'strict-dynamic'; style-src 'self' 'nonce-${RENDER_NONCE}'`;
  const html = `<html><head><script nonce="${RENDER_NONCE}" src="/a.js"></script></head><body><script nonce="${RENDER_NONCE}">self.__next_f.push([1,"${RENDER_NONCE}"])</script></body></html>`;
  const page: CachedPage = { cacheable: true, contentType: 'text/html', cacheControl: 'no-store', renderedAt: 0, ...cutAtNonce(Buffer.from(html), policy) };

  it('puts the answer\'s nonce wherever the render had its own, and the render\'s nowhere', () => {
    const first = pageAnswer(page, 'Rmlyc3RBbnN3ZXJOb25jZTE=');
    const second = pageAnswer(page, 'U2Vjb25kQW5zd2VyTm9uY2U=');
    expect(Buffer.from(joinedBody(first)).toString()).toBe(html.replaceAll(RENDER_NONCE, 'Rmlyc3RBbnN3ZXJOb25jZTE='));
    expect(first.contentSecurityPolicy).toBe(policy.replaceAll(RENDER_NONCE, 'Rmlyc3RBbnN3ZXJOb25jZTE='));
    expect(Buffer.from(joinedBody(second)).toString()).toBe(html.replaceAll(RENDER_NONCE, 'U2Vjb25kQW5zd2VyTm9uY2U='));
    expect(second.contentSecurityPolicy).not.toContain(RENDER_NONCE);
  });

  it('leaves a page without a nonce as it was', () => {
    const plain: CachedPage = { ...page, ...cutAtNonce(Buffer.from('<p>hola</p>'), "default-src 'self'") };
    const answer = pageAnswer(plain, 'bm9uY2U=');
    expect(Buffer.from(joinedBody(answer)).toString()).toBe('<p>hola</p>');
    expect(answer.contentSecurityPolicy).toBe("default-src 'self'");
  });
});
