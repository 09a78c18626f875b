// Opened by IP (http://127.0.0.1:3300) or by a colleague on the LAN, next dev refused its own
// resources (the page's hot-reload socket, its dev endpoints) to every origin but localhost, and
// pages never hydrated: /docs' try-it did nothing (issue 32, point 9). These run Next's own check
// with the project's next.config.mjs, as `npm run dev` does.
import os from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { blockCrossSiteDEV } from 'next/dist/server/lib/router-utils/block-cross-site-dev';
import { developmentOrigins } from './development-origins.mjs';

/** What `HOST` (0.0.0.0 by default) makes next dev allow besides localhost. */
const LISTENING_ON = '0.0.0.0';

async function projectConfig(): Promise<{ allowedDevOrigins?: string[] }> {
  // Loaded afresh each time, as next dev loads it at its start: the list is computed then.
  vi.resetModules();
  return (await import('../../../next.config.mjs')).default;
}

/** Whether next dev refuses the hot-reload socket opened from a page at `pageOrigin`. */
async function refusedFrom(pageOrigin: string): Promise<boolean> {
  const request = { url: '/_next/webpack-hmr', headers: { origin: pageOrigin } } as unknown as IncomingMessage;
  const response = { statusCode: 200, end: () => {} } as unknown as ServerResponse;
  return blockCrossSiteDEV(request, response, (await projectConfig()).allowedDevOrigins, LISTENING_ON);
}

/** This machine's addresses as a browser writes them in a URL. */
function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined)
    .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
}

afterEach(() => {
  delete process.env.DEV_ALLOWED_ORIGINS;
});

describe('next dev opened by any of this machine\'s addresses (issue 32, point 9)', () => {
  it('serves its resources to pages opened by 127.0.0.1, ::1 and every address of this machine', async () => {
    expect(await refusedFrom('http://localhost:3300')).toBe(false);
    expect(await refusedFrom('http://127.0.0.1:3300')).toBe(false);
    for (const address of ownAddresses()) expect(await refusedFrom(`http://${address}:3300`), address).toBe(false);
    expect(await refusedFrom(`http://${os.hostname()}:3300`)).toBe(false);
  });

  it('serves them to the names DEV_ALLOWED_ORIGINS lists, written as hosts, URLs or wildcards', async () => {
    process.env.DEV_ALLOWED_ORIGINS = 'gateway.lan, http://Dev-Box.example:3300/docs *.tunnel.example';
    expect(await refusedFrom('http://gateway.lan:3300')).toBe(false);
    expect(await refusedFrom('http://dev-box.example:3300')).toBe(false);
    expect(await refusedFrom('https://ana.tunnel.example')).toBe(false);
  });

  it('still refuses any other site', async () => {
    expect(await refusedFrom('http://evil.example')).toBe(true);
    expect(await refusedFrom('http://192.0.2.77:3300')).toBe(true);
    process.env.DEV_ALLOWED_ORIGINS = 'gateway.lan';
    expect(await refusedFrom('http://gateway.lan.evil.example')).toBe(true);
  });
});

describe('developmentOrigins', () => {
  it('lists the interfaces\' addresses (IPv6 in brackets), the host name and its .local name, then the extra names', () => {
    const origins = developmentOrigins({
      interfaces: {
        lo: [
          { address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '00:00:00:00:00:00', cidr: '127.0.0.1/8' },
          { address: '::1', family: 'IPv6', internal: true, netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', mac: '00:00:00:00:00:00', cidr: '::1/128', scopeid: 0 },
        ],
        eth0: [{ address: '192.168.1.20', family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: '02:42:ac:11:00:02', cidr: '192.168.1.20/24' }],
      },
      hostname: 'Dev-Box',
      extra: ' http://gateway.lan:3300 ,, *.tunnel.example ',
    });
    expect(origins).toEqual(['127.0.0.1', '[::1]', '192.168.1.20', 'dev-box', 'dev-box.local', 'gateway.lan', '*.tunnel.example']);
  });
});
