// Every route handler proxy.ts runs for, read from app/: one that writes a Content-Security-Policy,
// or a Cache-Control other than the proxy's own no-store, in its file or in a module it imports,
// must be in ROUTES_WITH_OWN_HEADERS, or the proxy's header replaces its own (as it did a slip's
// sandbox). tests/security/slip-headers.test.ts checks what the slips' routes answer over HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { headersTheRouteWrites, ROUTES_WITH_OWN_HEADERS, routeAddressPattern } from './route-headers';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const APP = path.join(REPO_ROOT, 'app');

/** Every folder under app/ with a route.ts, route groups included: "portal/(sesion)/recargas/[id]/boleta". */
function routeFolders(): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(directory, entry.name));
      else if (entry.name === 'route.ts') found.push(path.relative(APP, directory).split(path.sep).join('/'));
    }
  };
  walk(APP);
  return found.sort();
}

/** The route's file and the project's modules it imports (its helpers write its headers too). */
function sourcesOf(folder: string): string[] {
  const file = path.join(APP, folder, 'route.ts');
  const source = fs.readFileSync(file, 'utf8');
  const imported = [...source.matchAll(/from '((?:@\/|\.\.?\/)[^']+)'/g)].map((match) => {
    const specifier = match[1]!;
    const base = specifier.startsWith('@/') ? path.join(REPO_ROOT, specifier.slice(2)) : path.resolve(path.dirname(file), specifier);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, 'index.ts')];
    const found = candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
    if (!found) throw new Error(`${folder}: cannot find ${specifier}`);
    return fs.readFileSync(found, 'utf8');
  });
  return [source, ...imported];
}

/** The proxy's headers a route's sources write with a value of their own (the proxy writes no-store on every route's address). */
function ownHeadersWritten(sources: string[]): string[] {
  const written = new Set<string>();
  for (const source of sources) {
    // 'cache-control': value, .set('Cache-Control', value), headers['Cache-Control'] = value
    for (const match of source.matchAll(/['"](content-security-policy|cache-control)['"]\s*(?::|,|\]\s*=)\s*([^,}\n)]+)/gi)) {
      const name = match[1]!.toLowerCase();
      const value = match[2]!.trim();
      if (name === 'cache-control' && /^(['"])no-store\1$/.test(value)) continue;
      written.add(name);
    }
  }
  return [...written].sort();
}

/** What proxy.ts does not run for (its matcher): the lookups, which write all their headers, and the benchmark's bare route. */
const OUTSIDE_THE_PROXY = (folder: string) => Object.values(LOOKUP_PATHS).includes(`/${folder}`) || folder.startsWith('api/bench/');

describe('routes that write their own headers', () => {
  const folders = routeFolders().filter((folder) => !OUTSIDE_THE_PROXY(folder));

  it('finds the app\'s route handlers, all where the proxy writes no-store (the console, the portal, the API, the published keys)', () => {
    expect(folders).toContain('portal/(sesion)/recargas/[id]/boleta');
    expect(folders).toContain('api/openapi.json');
    expect(folders).toContain('.well-known/jwks.json');
    expect(folders.length).toBeGreaterThan(20);
    for (const folder of folders) expect(folder, folder).toMatch(/^(admin|portal|api|\.well-known)\//);
  });

  it('are each in ROUTES_WITH_OWN_HEADERS with the headers they write, and nothing else is', () => {
    const writing = Object.fromEntries(
      folders.map((folder) => [folder, ownHeadersWritten(sourcesOf(folder))] as const).filter(([, headers]) => headers.length > 0),
    );
    const declared = Object.fromEntries(Object.entries(ROUTES_WITH_OWN_HEADERS).map(([folder, headers]) => [folder, headers.map((name) => name.toLowerCase()).sort()]));
    expect(declared).toEqual(writing);
    expect(writing['admin/(console)/recargas/[id]/boleta']).toEqual(['cache-control', 'content-security-policy']);
  });

  it('are found by their address: the slips\' routes, not the pages around them', () => {
    expect([...headersTheRouteWrites('/admin/recargas/17/boleta')].sort()).toEqual(['cache-control', 'content-security-policy']);
    expect([...headersTheRouteWrites('/portal/recargas/2147483647/boleta')].sort()).toEqual(['cache-control', 'content-security-policy']);
    expect([...headersTheRouteWrites('/api/estado')]).toEqual(['cache-control']);
    expect([...headersTheRouteWrites('/api/openapi.json')]).toEqual(['cache-control']);
    expect([...headersTheRouteWrites('/.well-known/jwks.json')]).toEqual(['cache-control']);
    for (const page of ['/admin/recargas', '/portal/recargas', '/admin/recargas/17/boleta/otra', '/admin/recargas/17/18/boleta', '/estado', '/api/openapiXjson', '/portal/estados/3']) {
      expect(headersTheRouteWrites(page).size, page).toBe(0);
    }
    // A PDF keeps its sandbox (the sixth review: an invoice's PDF had the page's policy).
    for (const pdf of ['/portal/estados/3/pdf', '/admin/facturas/5/pdf', '/portal/facturas/5/nota-de-credito/pdf']) expect([...headersTheRouteWrites(pdf)], pdf).toEqual(['content-security-policy']);
    expect(routeAddressPattern('portal/(sesion)/lotes/[id]/resultados').source).toBe('^\\/portal\\/lotes\\/[^/]+\\/resultados$');
  });
});
