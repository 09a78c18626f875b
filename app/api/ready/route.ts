// GET /api/ready - readiness: the database, the limiter store and each source's breaker, with
// the one failing named. 200 when everything is ready, 503 otherwise. The database and limiter
// checks are shared for a second (lib/platform/operations/cached-check.ts): a flood of readiness polls
// costs one of each per second, not one per poll; and the answer itself is repeated by server.mjs
// for a second (lib/platform/operations/probe-answers.ts), so most polls never reach Next. Draining is read
// live (server.mjs passes every poll through while it drains), and so are the breakers: a change of
// state forgets the repeated answer, and one is never repeated past an open breaker's cool-down.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { rateLimitStore } from '@/lib/core/limits/limits';
import { cachedCheck } from '@/lib/platform/operations/cached-check';
import { isDraining } from '@/lib/platform/operations/draining';
import { forgetProbeAnswer, probeAnswer } from '@/lib/platform/operations/probe-answers';
import { SOURCE_NAMES, type SourceGuard, type SourceName } from '@/lib/sources/guard';
import { sourceClients } from '@/lib/sources';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

export const dynamic = 'force-dynamic';

const CHECK_DEADLINE_MS = 1_000;
const CACHE_MS = 1_000;

export async function GET() {
  const [databaseCheck, limiterCheck] = await Promise.all([
    cachedCheck('ready:database', CACHE_MS, () =>
      check(async () => {
        await (await database()).rows(sql`select 1`);
      }),
    ),
    cachedCheck('ready:limiter', CACHE_MS, () =>
      check(async () => {
        await (await rateLimitStore()).ping();
      }),
    ),
  ]);
  const guards = sourceClients().guards;
  forgetReadinessOnBreakerChanges(guards);
  const sources = Object.fromEntries(SOURCE_NAMES.map((source) => [source, guards[source].state]));
  const failing = [
    ...(isDraining() ? ['draining'] : []),
    ...(databaseCheck === 'ok' ? [] : ['database']),
    ...(limiterCheck === 'ok' ? [] : ['limiter']),
    ...SOURCE_NAMES.filter((source) => sources[source] === 'open').map((source) => `source:${source}`),
  ];
  return probeAnswer(
    '/api/ready',
    { status: failing.length === 0 ? 'ready' : 'not_ready', failing, checks: { database: databaseCheck, limiter: limiterCheck, sources } },
    failing.length === 0 ? 200 : 503,
    // An open breaker reads half-open once its cool-down ends: the answer is repeated until then at most.
    Math.min(...SOURCE_NAMES.map((source) => guards[source].halfOpensAt ?? Infinity)),
  );
}

/** A breaker that opens, half-opens or closes changes the answer: the next poll reaches this route. */
function forgetReadinessOnBreakerChanges(guards: Record<SourceName, SourceGuard>): void {
  if (peekProcessSlot('readinessWatchesBreakers')) return;
  setProcessSlot('readinessWatchesBreakers', true);
  for (const source of SOURCE_NAMES) guards[source].onStateChange(() => forgetProbeAnswer('/api/ready'));
}

async function check(run: () => Promise<void>): Promise<'ok' | 'failing'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'failing'>((resolve) => {
    timer = setTimeout(() => resolve('failing'), CHECK_DEADLINE_MS);
  });
  try {
    return await Promise.race([run().then(() => 'ok' as const, () => 'failing' as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
