import { database } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { sweepStaleHolds } from '@/lib/billing/holds';
import { env } from '@/lib/env';
import { schedulePeriodicJob } from '@/lib/jobs/schedule';
import { purgeExpiredRecords } from '@/lib/retention/purge';
import { rollUpQueue } from '@/lib/rollups/job';
import { flushRefusals } from '@/lib/rollups/refusals';
import { describeSeed, seedDevelopmentData } from '@/lib/seed';

const DAY_MS = 24 * 3_600_000;

/**
 * Runs once when the server starts (instrumentation.ts): validates the environment, opens and
 * migrates the database, seeds development data and starts the background jobs.
 */
export async function startServer(): Promise<void> {
  const settings = env();
  const handle = await database();
  if (settings.MIGRATE_ON_START) await applyMigrations(handle);
  if (settings.SEED_ON_START && settings.APP_ENV === 'development') {
    const seeded = await seedDevelopmentData();
    const baseUrl = settings.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
    const message = describeSeed(seeded, baseUrl);
    if (message) console.log(`\n${message}\n`);
  }
  startHoldSweeper(settings.HOLD_SWEEP_AFTER_SECONDS, settings.HOLD_SWEEP_INTERVAL_SECONDS * 1000);
  startRollups(settings.ROLLUP_INTERVAL_MS);
  startRetention(settings.QUERY_RECORD_RETENTION_EXPORT_DIR);
  console.log(`[startup] ${settings.APP_ENV} on ${handle.kind === 'pglite' ? `embedded PGlite (${settings.PGLITE_DIR})` : 'PostgreSQL'}`);
}

function startHoldSweeper(olderThanSeconds: number, intervalMs: number): void {
  const holder = globalThis as typeof globalThis & { __holdSweeper?: NodeJS.Timeout };
  if (holder.__holdSweeper) return;
  const sweep = async () => {
    try {
      const voided = await sweepStaleHolds(olderThanSeconds);
      if (voided > 0) console.warn(`[billing] voided ${voided} hold(s) left unsettled by a crash`);
    } catch (error) {
      console.error('[billing] hold sweep failed:', (error as Error).message);
    }
  };
  void sweep();
  holder.__holdSweeper = setInterval(sweep, intervalMs);
  holder.__holdSweeper.unref();
}

/**
 * The dashboard's rollups: one instance at a time adds the queued records (lib/rollups/job.ts);
 * every instance adds its own refusal counts, which live in its memory until then.
 */
function startRollups(intervalMs: number): void {
  schedulePeriodicJob({
    name: 'rollups',
    everyMs: intervalMs,
    leaseMs: 60_000,
    run: async () => void (await rollUpQueue()),
    onError: (error) => console.error('[rollups] rolling up query records failed:', (error as Error).message),
  });
  const holder = globalThis as typeof globalThis & { __refusalFlush?: NodeJS.Timeout };
  if (holder.__refusalFlush) return;
  holder.__refusalFlush = setInterval(() => {
    flushRefusals().catch((error: unknown) => console.error('[rollups] writing refusal counts failed:', (error as Error).message));
  }, intervalMs);
  holder.__refusalFlush.unref();
}

/** Once a day, on one instance: purge the query records past their retention (lib/retention). */
function startRetention(exportDir: string | undefined): void {
  schedulePeriodicJob({
    name: 'retention',
    everyMs: DAY_MS,
    leaseMs: 6 * 3_600_000,
    run: async () => {
      const result = await purgeExpiredRecords({ exportDir, pauseMs: 50 });
      if (result.purged > 0) {
        console.log(
          `[retention] purged ${result.purged} query record(s) older than ${result.cutoff.toISOString()}${result.exportFile ? `, archived in ${result.exportFile}` : ''}`,
        );
      }
    },
    onError: (error) => console.error('[retention] purging old query records failed:', (error as Error).message),
  });
}

/** A wrong environment or an unreachable database must stop the start, saying why. */
export async function startServerOrExit(): Promise<void> {
  try {
    await startServer();
  } catch (error) {
    console.error(`\n[startup] cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
