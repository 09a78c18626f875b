import { sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations } from '@/db/schema';
import { env } from '@/lib/env';
import { tokenMatches } from '@/lib/security/tokens';
import { FLAG_NAMES, type FlagName, type IntegrationFlags } from './flags';

/** What the lookup pipeline needs to know about an integration; money is read from the database. */
export interface AuthenticatedIntegration extends IntegrationFlags {
  id: number;
  nombre: string;
}

interface CachedIntegration {
  integration: AuthenticatedIntegration;
  tokenHash: string;
  active: boolean;
}

export type Authentication =
  | { status: 'missing' }
  | { status: 'partial' }
  | { status: 'unknown' }
  | { status: 'authenticated'; integration: AuthenticatedIntegration };

/**
 * An in-process copy of every integration's credentials and flags, so a warm lookup makes no
 * database trip to authenticate. The whole table is reloaded every INTEGRATION_CACHE_REFRESH_MS
 * (2 s by default): a change made through any instance, the console or the CLI reaches every
 * instance within that time plus one query. Changes made in this process apply at once, and
 * credentials the copy would refuse are checked against the database row before refusing.
 */
class IntegrationDirectory {
  private byName = new Map<string, CachedIntegration>();
  private loadedOnce = false;
  private pending?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private reloadsStarted = 0;
  private newestApplied = 0;

  async authenticate(login: string | null, token: string | null): Promise<Authentication> {
    if (!login && !token) return { status: 'missing' };
    if (!login || !token) return { status: 'partial' };
    if (!this.loadedOnce) await (this.pending ?? this.reload());
    const name = login.toLowerCase();
    let accepted = acceptedIntegration(this.byName.get(name), token);
    // Our copy may predate a change made elsewhere (a new integration, a rotated token, a
    // reactivation): before refusing, read this one row. Refusals cost one query; the limits
    // bound how many a client can cause.
    if (!accepted) accepted = acceptedIntegration(await this.loadOne(name), token);
    return accepted ? { status: 'authenticated', integration: accepted } : { status: 'unknown' };
  }

  private async loadOne(name: string): Promise<CachedIntegration | undefined> {
    const [row] = await (await db()).select().from(integrations).where(sql`lower(${integrations.nombre}) = ${name}`);
    if (!row) {
      this.byName.delete(name);
      return undefined;
    }
    const cached = toCached(row);
    this.byName.set(name, cached);
    return cached;
  }

  /** Reloads now (this process made a change) instead of waiting for the next refresh. */
  invalidate(): Promise<void> {
    return this.loadedOnce ? this.reload() : Promise.resolve();
  }

  private reload(): Promise<void> {
    const run = this.load(++this.reloadsStarted).finally(() => {
      if (this.pending === run) this.pending = undefined;
    });
    this.pending = run;
    return run;
  }

  private async load(sequence: number): Promise<void> {
    try {
      const rows = await (await db()).select().from(integrations);
      // A reload that started later already finished: its copy is newer than ours.
      if (sequence < this.newestApplied) return;
      this.newestApplied = sequence;
      this.byName = new Map(rows.map((row) => [row.nombre.toLowerCase(), toCached(row)]));
      this.loadedOnce = true;
    } catch (error) {
      // Keep serving the last good copy; a lookup that needs the database fails on its own.
      console.error('[integrations] credential cache refresh failed:', (error as Error).message);
      if (!this.loadedOnce) throw error;
    } finally {
      this.scheduleRefresh();
    }
  }

  private scheduleRefresh(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.pending) void this.reload().catch(() => {});
    }, env().INTEGRATION_CACHE_REFRESH_MS);
    this.timer.unref();
  }
}

function acceptedIntegration(cached: CachedIntegration | undefined, token: string): AuthenticatedIntegration | undefined {
  // Hash the presented token even for unknown names, so timing does not reveal which names exist.
  const matches = tokenMatches(token, cached?.tokenHash ?? '0'.repeat(64));
  return cached?.active && matches ? cached.integration : undefined;
}

function toCached(row: typeof integrations.$inferSelect): CachedIntegration {
  const flags = Object.fromEntries(FLAG_NAMES.map((flag: FlagName) => [flag, row[flag]])) as IntegrationFlags;
  return { integration: { id: row.id, nombre: row.nombre, ...flags }, tokenHash: row.tokenHash, active: row.active };
}

const holder = globalThis as typeof globalThis & { __integrationDirectory?: IntegrationDirectory };

export function integrationDirectory(): IntegrationDirectory {
  holder.__integrationDirectory ??= new IntegrationDirectory();
  return holder.__integrationDirectory;
}

/** Called by every change to an integration made in this process. */
export async function notifyIntegrationChanged(): Promise<void> {
  await holder.__integrationDirectory?.invalidate();
}
