// GET /api/metrics - this instance's Prometheus metrics, for a scraper holding METRICS_TOKEN.
import { timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/platform/settings/env';
import { rateLimitStore } from '@/lib/core/limits/limits';
import { metrics } from '@/lib/platform/metrics/registry';
import { integrationDirectory } from '@/lib/core/integrations/directory';
import { sourceClients } from '@/lib/sources';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const token = env().METRICS_TOKEN;
  // Unset: the endpoint does not exist, rather than exist unprotected.
  if (!token) return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  if (!bearerMatches(request.headers.get('authorization'), token)) {
    return new Response('Unauthorized', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' } });
  }
  // The parts whose state the gauges read register their probes on first use.
  sourceClients();
  integrationDirectory();
  await rateLimitStore();
  const registry = metrics().registry;
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
}

function bearerMatches(header: string | null, token: string): boolean {
  const presented = Buffer.from(header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '', 'utf8');
  const expected = Buffer.from(token, 'utf8');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
