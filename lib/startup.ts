import { database } from '@/db/client';
import { ADVISORY_LOCKS, withAdvisoryLock } from '@/db/advisory-lock';
import { applyMigrations } from '@/db/migrate';
import { sweepStaleHolds } from '@/lib/billing/holds';
import { env } from '@/lib/env';
import { startedThroughServerWrapper } from '@/lib/limits/client-ip';
import { describeError } from '@/lib/logging/errors';
import { logger } from '@/lib/logging/logger';
import { describeSeed, seedDevelopmentData } from '@/lib/seed';

const log = logger('startup');

/**
 * Runs once when the server starts (instrumentation.ts): checks it runs behind server.mjs,
 * validates the environment, opens and migrates the database, seeds development data and starts
 * the crash sweeper.
 */
export async function startServer(): Promise<void> {
  if (!startedThroughServerWrapper()) {
    throw new Error(
      'start the app with `npm start` (node server.mjs), not `next start` or another launcher: only server.mjs records ' +
        'the client address the per-IP limits count, and without it any client could choose its own',
    );
  }
  const settings = env();
  const handle = await database();
  if (settings.MIGRATE_ON_START) await applyMigrations(handle);
  if (settings.SEED_ON_START && settings.APP_ENV === 'development') {
    // Serialized like the migrations: two instances starting on an empty database seed once.
    const seeded = await withAdvisoryLock(handle, ADVISORY_LOCKS.seed, () => seedDevelopmentData());
    const baseUrl = settings.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
    const message = describeSeed(seeded, baseUrl);
    // Development only, and on purpose: the demo credentials are shown once, to the developer's
    // terminal, not as a log line (the logger would mask them).
    if (message) process.stdout.write(`\n${message}\n\n`);
  }
  startHoldSweeper(settings.HOLD_SWEEP_AFTER_SECONDS, settings.HOLD_SWEEP_INTERVAL_SECONDS * 1000);
  log.info({ appEnv: settings.APP_ENV, database: handle.kind === 'pglite' ? `embedded PGlite (${settings.PGLITE_DIR})` : 'PostgreSQL' }, 'started');
}

function startHoldSweeper(olderThanSeconds: number, intervalMs: number): void {
  const holder = globalThis as typeof globalThis & { __holdSweeper?: NodeJS.Timeout };
  if (holder.__holdSweeper) return;
  const billingLog = logger('billing');
  const sweep = async () => {
    try {
      const voided = await sweepStaleHolds(olderThanSeconds);
      if (voided > 0) billingLog.warn({ voided }, 'voided holds left unsettled by a crash');
    } catch (error) {
      billingLog.error({ err: error }, 'hold sweep failed');
    }
  };
  void sweep();
  holder.__holdSweeper = setInterval(sweep, intervalMs);
  holder.__holdSweeper.unref();
}

/** A wrong environment or an unreachable database must stop the start, saying why. */
export async function startServerOrExit(): Promise<void> {
  try {
    await startServer();
  } catch (error) {
    log.fatal({ err: error }, `cannot start: ${describeError(error)}`);
    process.exit(1);
  }
}
