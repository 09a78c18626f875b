// The security headers of every page and API answer, over HTTP against the built app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-server';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

let testDatabase: TestDatabase;
let app: RunningApp;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  // An https public URL, as production has (TLS ends at the load balancer): HSTS is sent.
  app = await startApp({ env: { NEXTAUTH_URL: 'https://gateway.example.gt' } });
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

const PAGES = ['/', '/docs', '/admin/login', '/admin', '/admin/registros', '/no-such-page'];
const API_CALLS: Array<[string, RequestInit?]> = [
  ['/api/catalogos/omisos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
  ['/api/renap/buscar-cui', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
  ['/api/health'],
  ['/api/openapi.json'],
  ['/api/auth/csrf'],
  ['/api/no-such-route', { method: 'POST' }],
  // The lookups skip proxy.ts: lib/api/route.ts answers every method on their paths.
  ['/api/rtu/nits', { method: 'GET' }],
  ['/api/catalogos/cui-nit', { method: 'PUT' }],
];
// Without credentials every lookup answers 403 (the contract, Authentication 3 and 4).
const LOOKUP_PATHS = ['/api/renap/buscar-cui', '/api/rtu/nits', '/api/catalogos/cui-nit', '/api/catalogos/rtu', '/api/catalogos/omisos'];

function expectCommonHeaders(answer: Answer, what: string): void {
  expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(answer.headers.get('referrer-policy'), what).toBe('no-referrer');
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

  it('API answers: a CSP that allows nothing, and never stored', async () => {
    for (const [path, init] of API_CALLS) {
      const answer = await request(path, init);
      expectCommonHeaders(answer, path);
      expect(answer.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get('cache-control'), path).toContain('no-store');
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

  it('Next static files are not sniffed either', async () => {
    const page = await request('/admin/login');
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(asset).toBeDefined();
    const answer = await request(asset!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
