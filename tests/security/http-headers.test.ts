// The security headers of every page and API answer, over HTTP against the built app.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInRefusalMessage } from '@/lib/flows/auth/sign-in-errors';
import { CLIENT_NAVIGATION_HEADER } from '@/lib/surfaces/public-pages/client-navigation.mjs';
import { computeCacheBustingSearchParam } from 'next/dist/shared/lib/router/utils/cache-busting-search-param';
import { startApp, type RunningApp } from '../support/app-server';
import { rawRequest, singleHeader, type RawAnswer } from '../support/raw-http';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

const PUBLIC_HOST = 'gateway.example.gt';
let testDatabase: TestDatabase;
let app: RunningApp;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  // An https public URL, as production has (TLS ends at the load balancer): HSTS is sent.
  // Every request here comes from one address: room for all of them within the public pages' per-IP limit.
  app = await startApp({ env: { NEXTAUTH_URL: `https://${PUBLIC_HOST}`, RATE_LIMIT_PUBLIC_PAGES_PER_MINUTE: '600' } });
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function request(path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const PAGES = ['/', '/docs', '/estado', '/admin/login', '/portal/ingresar', '/admin', '/admin/registros', '/no-such-page'];
/** Served from a short cache of their render (lib/surfaces/public-pages); the sign-in pages only signed out and with no query. */
const CACHED_PAGES = ['/docs', '/estado', '/admin/login', '/portal/ingresar'];
const API_CALLS: Array<[string, RequestInit?]> = [
  ['/api/catalogos/omisos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
  ['/api/renap/buscar-cui', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
  ['/api/health'],
  ['/api/openapi.json'],
  ['/api/auth/csrf'],
  ['/api/no-such-route', { method: 'POST' }],
  // The lookups skip proxy.ts: lib/surfaces/api/route.ts answers every method on their paths.
  ['/api/rtu/nits', { method: 'GET' }],
  ['/api/catalogos/cui-nit', { method: 'PUT' }],
];
// Without credentials every lookup answers 403 (the contract, Authentication 3 and 4).
const LOOKUP_PATHS = ['/api/renap/buscar-cui', '/api/rtu/nits', '/api/catalogos/cui-nit', '/api/catalogos/rtu', '/api/catalogos/omisos'];

function expectCommonHeaders(answer: Answer, what: string): void {
  expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(answer.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
  expect(answer.headers.get('strict-transport-security'), what).toMatch(/^max-age=\d{7,}/);
  expect(answer.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'");
}

describe('security headers', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('pages: a CSP with default-src self and a fresh nonce that the page scripts carry', async () => {
    const nonces = new Set<string>();
    for (const path of PAGES) {
      const answer = await request(path);
      expectCommonHeaders(answer, path);
      const policy = answer.headers.get('content-security-policy')!;
      expect(policy, path).toMatch(/(^|; )default-src 'self'(;|$)/);
      expect(policy, path).toContain("object-src 'none'");
      expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
      expect(nonce, path).toBeDefined();
      nonces.add(nonce!);
      if (answer.status === 200 || answer.status === 404) {
        // Every script Next rendered carries this request's nonce, and no other.
        const scripts = [...answer.text.matchAll(/<script\b[^>]*>/g)].map((tag) => tag[0]);
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const script of scripts) expect(script, path).toContain(`nonce="${nonce}"`);
      }
    }
    expect(nonces.size).toBe(PAGES.length);
  });

  it('a page served from its cache gets a nonce of its own in every answer, which its scripts carry', async () => {
    for (const path of CACHED_PAGES) {
      const nonces = new Set<string>();
      for (let visit = 0; visit < 3; visit++) {
        const answer = await request(path);
        expect(answer.status, path).toBe(200);
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(answer.headers.get('content-security-policy')!)![1]!;
        const scripts = [...answer.text.matchAll(/<script\b[^>]*>/g)].map((tag) => tag[0]);
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const script of scripts) expect(script, path).toContain(`nonce="${nonce}"`);
        nonces.add(nonce);
      }
      expect(nonces.size, path).toBe(3);
    }
  });

  it('a client navigation to a cached page gets the page\'s RSC payload, not the cached HTML (which made the browser reload the whole page)', async () => {
    // What Next's router sends for a <Link> or router.push from the home page: `rsc: 1`, the router's
    // state and, in `_rsc`, the hash of those headers (Next's own function), which Next checks.
    const stateTree = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }]));
    const hash = await computeCacheBustingSearchParam(undefined, undefined, stateTree, undefined);
    for (const path of CACHED_PAGES) {
      expect((await request(path)).headers.get('content-type'), path).toContain('text/html');
      const navigation = await request(`${path}?_rsc=${hash}`, { headers: { rsc: '1', 'next-router-state-tree': stateTree } });
      expect(navigation.status, path).toBe(200);
      expect(navigation.headers.get('content-type'), path).toContain('text/x-component');
      expect(navigation.text, path).not.toContain('<html');
      // Without its hash Next sends the router to the address with it, rather than the cached HTML.
      const unhashed = await request(path, { headers: { rsc: '1' } });
      expect(unhashed.status, path).toBe(307);
      expect(unhashed.headers.get('location'), path).toMatch(new RegExp(`^${path}\\?_rsc`));
    }
  });

  it('a client forging the navigation mark still gets the cached page: it can neither skip the cache nor be served a payload', async () => {
    for (const path of CACHED_PAGES) {
      // Rendered into the cache now if it had expired: the forged requests below are its hits.
      expect((await request(path)).status, path).toBe(200);
      for (const value of ['1', '0', '']) {
        const forged = await request(path, { headers: { [CLIENT_NAVIGATION_HEADER]: value } });
        expect(forged.status, `${path} ${value}`).toBe(200);
        expect(forged.headers.get('content-type'), `${path} ${value}`).toContain('text/html');
        // The cache's answer is written whole, with its length (a render through Next is streamed, chunked).
        expect(forged.headers.get('content-length'), `${path} ${value}`).toBe(String(Buffer.byteLength(forged.text)));
      }
    }
    // The public pages' cached answers say they may be kept for 30 s; a render for the request would not.
    for (const path of ['/docs', '/estado']) {
      expect((await request(path, { headers: { [CLIENT_NAVIGATION_HEADER]: '1' } })).headers.get('cache-control'), path).toBe('public, max-age=30');
    }
  });

  it('a sign-in page\'s cached render never carries what another visitor\'s address asked for', async () => {
    const RATE_LIMITED_TEXT = signInRefusalMessage({ kind: 'rate_limited' });
    const plain = await request('/admin/login');
    const returning = await request('/admin/login?volver=%2Fadmin%2Fintegraciones%2Fregreso-unico&motivo=salida');
    expect(returning.text).toContain('/admin/integraciones/regreso-unico');
    expect(returning.text).toContain('Cerró sesión');
    const refused = await request('/admin/login?error=rate_limited');
    expect(refused.text).toContain(RATE_LIMITED_TEXT);
    const portalReturning = await request('/portal/ingresar?motivo=clave-restablecida');
    expect(portalReturning.text).toContain('Contraseña restablecida');
    for (const [path, answer] of [['/admin/login', await request('/admin/login')], ['/admin/login', plain], ['/portal/ingresar', await request('/portal/ingresar')]] as const) {
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).not.toContain('regreso-unico');
      expect(answer.text, path).not.toContain('Cerró sesión');
      expect(answer.text, path).not.toContain('Contraseña restablecida');
      expect(answer.text, path).not.toContain(RATE_LIMITED_TEXT);
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('API answers: a CSP that allows nothing, and never stored but for the public OpenAPI document, which keeps its own cache header', async () => {
    for (const [path, init] of API_CALLS) {
      const answer = await request(path, init);
      expectCommonHeaders(answer, path);
      expect(answer.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
      if (path === '/api/openapi.json') expect(answer.headers.get('cache-control'), path).toBe('public, max-age=300');
      else expect(answer.headers.get('cache-control'), path).toContain('no-store');
    }
  });

  it('every lookup answer carries the headers and a request id of its own, even when the client sent one', async () => {
    const ids = new Set<string>();
    for (const path of LOOKUP_PATHS) {
      const answer = await request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'req_chosen_by_client' }, body: '{}' });
      expect(answer.status, path).toBe(403);
      expectCommonHeaders(answer, path);
      expect(answer.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
      const id = answer.headers.get('x-request-id');
      expect(id, path).toMatch(/^req_[0-9a-f]{20}$/);
      ids.add(id!);
    }
    expect(ids.size).toBe(LOOKUP_PATHS.length);
    const notAllowed = await request('/api/catalogos/omisos', { method: 'GET' });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('the console, signed in or not, is never stored', async () => {
    for (const path of ['/admin/login', '/admin', '/admin/registros/exportar']) {
      const answer = await request(path);
      expect(answer.headers.get('cache-control'), path).toContain('no-store');
    }
  });

  it('answers the proxy never sees carry them too: Next 404s, trailing-slash redirects, the image optimizer, favicon.ico, the benchmark route', async () => {
    const DENY_ALL = "default-src 'none'; frame-ancestors 'none'";
    const cases: Array<[string, RequestInit, number]> = [
      ['/favicon.ico', {}, 404],
      ['/admin/login/', {}, 308],
      ['/api/health/', {}, 308],
      // The gateway renders no next/image: the optimizer refuses what it is asked (here an SVG).
      ['/_next/image?url=%2Ficon.svg&w=64&q=75', {}, 400],
      ['/_next/image', {}, 400],
      ['/_next/static/no-such-chunk.js', {}, 404],
      // The benchmark's bare route is a 404 unless `npm run bench` gave it its answers.
      ['/api/bench/bare?lookup=renap', { method: 'POST', body: '{}' }, 404],
      ['/api/bench/bare', {}, 405],
      ['/api/bench/no-such-route', {}, 404],
    ];
    for (const [path, init, status] of cases) {
      const answer = await request(path, init);
      expect(answer.status, path).toBe(status);
      expectCommonHeaders(answer, path);
      expect(answer.headers.get('content-security-policy'), path).toBe(DENY_ALL);
      if (path.startsWith('/api/')) expect(answer.headers.get('cache-control'), path).toContain('no-store');
    }
    // A redirect keeps to this deployment and the path the client asked for.
    expect((await request('/admin/login/')).headers.get('location')).toBe('/admin/login');
  });

  it('a request line in absolute form: another host is refused, the public host is served as its path, and no redirect leaves the public host', async () => {
    const local = `127.0.0.1:${app.port}`;
    const expectStaysHome = (answer: RawAnswer, what: string) => {
      const location = singleHeader(answer, 'location');
      if (location !== undefined) expect(new URL(location, `https://${PUBLIC_HOST}`).host, `${what}: Location ${location}`).toBe(PUBLIC_HOST);
      expect(singleHeader(answer, 'x-content-type-options'), what).toBe('nosniff');
      expect(singleHeader(answer, 'x-frame-options'), what).toBe('DENY');
      expect(singleHeader(answer, 'strict-transport-security'), what).toMatch(/^max-age=\d{7,}/);
      expect(singleHeader(answer, 'content-security-policy'), what).toContain("frame-ancestors 'none'");
    };

    for (const target of ['http://evil.example/admin/login', 'http://evil.example/admin/login/', 'https://evil.example/api/health', `http://${PUBLIC_HOST}.evil.example/admin/login`]) {
      for (const host of [local, 'evil.example', PUBLIC_HOST]) {
        const answer = await rawRequest(app.port, 'GET', target, { host });
        const what = `GET ${target} (Host: ${host})`;
        expect(answer.status, what).toBe(400);
        expectStaysHome(answer, what);
      }
    }

    // The public host in absolute form is the same request as its path (RFC 9112, 3.2.2), on
    // either scheme (TLS ends at the load balancer), not a redirect to itself over http.
    for (const target of [`http://${PUBLIC_HOST}/admin/login`, `https://${PUBLIC_HOST}/admin/login`, `https://${PUBLIC_HOST.toUpperCase()}/admin/login`]) {
      const answer = await rawRequest(app.port, 'GET', target, { host: local });
      expect(answer.status, target).toBe(200);
      expect(answer.text, target).toContain('<form');
      expectStaysHome(answer, target);
    }
    const health = await rawRequest(app.port, 'GET', `https://${PUBLIC_HOST}/api/health?probe=1`, { host: PUBLIC_HOST });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toMatchObject({ status: 'ok' });
    const slash = await rawRequest(app.port, 'GET', `http://${PUBLIC_HOST}/admin/login/?next=1`, { host: local });
    expect(slash.status).toBe(308);
    expect(singleHeader(slash, 'location')).toBe('/admin/login?next=1');
    expectStaysHome(slash, 'trailing slash in absolute form');

    // Whatever Host an origin-form request names, redirects stay relative to this deployment.
    for (const target of ['/admin/login/', '/admin', '//evil.example/admin/']) {
      const answer = await rawRequest(app.port, 'GET', target, { host: 'evil.example' });
      expect([307, 308], target).toContain(answer.status);
      expectStaysHome(answer, `GET ${target} (Host: evil.example)`);
    }
  });

  // Java's HttpClient asks every http:// request to become HTTP/2 (h2c), as curl --http2 does. The
  // upgrade is optional (RFC 7230, 6.7): a server that does not take it answers in HTTP/1.1. Once a
  // page had been served, Next listened for upgrades (its websockets) and every such request's
  // connection was closed unanswered.
  it('a request that offers an upgrade to HTTP/2 (h2c) is answered in HTTP/1.1: a lookup, the API and a page', async () => {
    await request('/admin/login'); // Next starts listening for upgrades with its first request
    const offeringH2c = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; text: string; upgrade?: string }>((resolve, reject) => {
        const sent = http.request(
          { host: '127.0.0.1', port: app.port, method, path, headers: { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAAQAoAAAAAIAAAAA', 'content-type': 'application/json' }, timeout: 15_000 },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          },
        );
        sent.on('upgrade', (response) => resolve({ status: response.statusCode ?? 0, text: '', upgrade: String(response.headers.upgrade) }));
        sent.on('timeout', () => sent.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
        sent.on('error', reject);
        sent.end(body);
      });
    const lookup = await offeringH2c('POST', '/api/catalogos/omisos', '{"nit":"576937-K"}');
    expect(lookup).toEqual({ status: 403, text: expect.stringContaining('"message"') });
    expect(await offeringH2c('GET', '/api/health')).toMatchObject({ status: 200, text: expect.stringContaining('"status"') });
    expect(await offeringH2c('GET', '/admin/login')).toMatchObject({ status: 200, text: expect.stringContaining('<form') });
  });

  it('Next static files are not sniffed either', async () => {
    const page = await request('/admin/login');
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(asset).toBeDefined();
    const answer = await request(asset!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
