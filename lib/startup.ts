import { database } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { sweepStaleHolds } from '@/lib/billing/holds';
import { env } from '@/lib/env';
import { describeSeed, seedDevelopmentData } from '@/lib/seed';

/**
 * Runs once when the server starts (instrumentation.ts): validates the environment, opens and
 * migrates the database, seeds development data and starts the crash sweeper.
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

/** A wrong environment or an unreachable database must stop the start, saying why. */
export async function startServerOrExit(): Promise<void> {
  try {
    await startServer();
  } catch (error) {
    console.error(`\n[startup] cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
