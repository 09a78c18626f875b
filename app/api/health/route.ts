// GET /api/health - liveness for load balancers: 200 when the database answers, 503 otherwise,
// and 503 from the moment SIGTERM starts a drain (the balancer stops sending). The database
// answer is kept for a second, so however often balancers poll, the database sees one query
// per second per instance.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { logger } from '@/lib/platform/logging/logger';
import { cachedCheck } from '@/lib/platform/operations/cached-check';
import { isDraining } from '@/lib/platform/operations/draining';
import { probeAnswer } from '@/lib/platform/operations/probe-answers';

const log = logger('health');
const CACHE_MS = 1_000;

export const dynamic = 'force-dynamic';

function checkDatabase(): Promise<{ ok: true; kind: string } | { ok: false }> {
  return cachedCheck('health:database', CACHE_MS, async () => {
    try {
      const handle = await database();
      await handle.rows(sql`select 1`);
      return { ok: true as const, kind: handle.kind };
    } catch (error) {
      log.error({ err: error }, 'database check failed');
      return { ok: false as const };
    }
  });
}

export async function GET() {
  // Never repeated by server.mjs: it answers for itself while draining.
  if (isDraining()) return Response.json({ status: 'draining' }, { status: 503 });
  const database = await checkDatabase();
  if (!database.ok) return probeAnswer('/api/health', { status: 'unavailable' }, 503);
  return probeAnswer('/api/health', { status: 'ok', database: database.kind });
}
