// GET /api/health - 200 when the database answers, 503 otherwise (for load balancers).
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { logger } from '@/lib/logging/logger';

const log = logger('health');

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    const handle = await database();
    await handle.rows(sql`select 1`);
    return Response.json({ status: 'ok', database: handle.kind });
  } catch (error) {
    log.error({ err: error }, 'database check failed');
    return Response.json({ status: 'unavailable' }, { status: 503 });
  }
}
