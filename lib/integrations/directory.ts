import { sql } from 'drizzle-orm';
import { metrics } from '@/lib/metrics/registry';
import { db } from '@/db/client';
import { integrations, type Integration } from '@/db/schema';
import { env } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { tokenMatches } from '@/lib/security/tokens';
import { FLAG_NAMES, type FlagName, type IntegrationFlags } from './flags';
import { runAsJob } from '@/lib/jobs/context';

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

/** What the copy knows about one name, and which read told it (undefined: no such integration). */
interface Entry {
  cached: CachedIntegration | undefined;
  readSequence: number;
}

export type Authentication =
  | { status: 'missing' }
  | { status: 'partial' }
  | { status: 'unknown' }
  | { status: 'authenticated'; integration: AuthenticatedIntegration };

/** Where the directory reads integrations from: the database (tests give it others). */
export interface IntegrationReader {
  all(): Promise<Integration[]>;
  /** The row whose lowercased name is `name`. */
  one(name: string): Promise<Integration | undefined>;
}

const databaseReader: IntegrationReader = {
  all: async () => (await db()).select().from(integrations),
  one: async (name) => (await (await db()).select().from(integrations).where(sql`lower(${integrations.nombre}) = ${name}`))[0],
};

/** Past this many refresh intervals without a successful reload, the copy is not trusted. */
export const TRUSTED_FOR_INTERVALS = 3;

export interface DirectoryOptions {
  refreshMs: number;
  /** How long a read may take before it counts as failed (it may still finish later). */
  readDeadlineMs: number;
  now?: () => number;
}

const log = logger('integrations');

/**
 * An in-process copy of every integration's credentials and flags, so a warm lookup makes no
 * database trip to authenticate. The whole table is reloaded every `refreshMs`
 * (INTEGRATION_CACHE_REFRESH_MS, 2 s by default): a change made through any instance, the console
 * or the CLI reaches every instance within that time plus one query. Changes made in this process
 * apply at once, and credentials the copy would refuse are checked against their row before
 * refusing. Every read is numbered when it starts, and what it found replaces only what an older
 * read said: a slow single-row read never undoes a reload that started after it, and a reload never
 * undoes a single-row read that started after it.
 *
 * If reloads keep failing or hang, the copy is trusted for at most TRUSTED_FOR_INTERVALS intervals
 * after the last successful reload started; past that every lookup checks its row in the
 * database, and fails if the database does not answer. A deactivated or rotated credential is
 * therefore refused by every instance within 3 × INTEGRATION_CACHE_REFRESH_MS.
 */
export class IntegrationDirectory {
  private byName = new Map<string, Entry>();
  /** When the reload behind the current copy started (the copy is as old as that). */
  private copyReadAtMs?: number;
  private readsStarted = 0;
  private newestReloadApplied = 0;
  private readsInFlight = 0;
  private timer?: NodeJS.Timeout;
  private staleReported = false;
  private readonly now: () => number;

  constructor(
    private readonly reader: IntegrationReader,
    private readonly options: DirectoryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async authenticate(login: string | null, token: string | null): Promise<Authentication> {
    if (!login && !token) return { status: 'missing' };
    if (!login || !token) return { status: 'partial' };
    this.scheduleRefresh();
    const name = login.toLowerCase();
    let accepted = this.isTrusted() ? acceptedIntegration(this.byName.get(name)?.cached, token) : undefined;
    // Our copy may predate a change made elsewhere (a new integration, a rotated token, a
    // reactivation), or be too old to trust: read this one row. Refusals cost one query; the
    // limits bound how many a client can cause.
    if (!accepted) accepted = acceptedIntegration(await this.readOne(name), token);
    return accepted ? { status: 'authenticated', integration: accepted } : { status: 'unknown' };
  }

  /** Milliseconds since the last successful reload started; undefined before the first. */
  copyAgeMs(): number | undefined {
    return this.copyReadAtMs === undefined ? undefined : this.now() - this.copyReadAtMs;
  }

  /** Reloads now (this process made a change) instead of waiting for the next refresh. */
  invalidate(): Promise<void> {
    // The change is committed whatever happens here; a failed reload is logged, and the copy ages out.
    return this.copyReadAtMs === undefined ? Promise.resolve() : this.reload().catch(() => {});
  }

  private isTrusted(): boolean {
    const trusted = this.copyReadAtMs !== undefined && this.now() - this.copyReadAtMs <= TRUSTED_FOR_INTERVALS * this.options.refreshMs;
    if (!trusted && this.readsInFlight === 0) void this.reload().catch(() => {});
    if (!trusted && this.copyReadAtMs !== undefined && !this.staleReported) {
      this.staleReported = true;
      log.warn({ copyAgeMs: this.now() - this.copyReadAtMs }, 'credential cache too old to trust: every lookup checks the database until a reload succeeds');
    }
    return trusted;
  }

  private async readOne(name: string): Promise<CachedIntegration | undefined> {
    const sequence = ++this.readsStarted;
    const row = await withDeadline(this.reader.one(name), this.options.readDeadlineMs, 'reading an integration');
    const cached = row && toCached(row);
    // Newer than what the copy says about this name (a name missing from the copy is as old as
    // the last reload): keep it, so the next lookup needs no query and an old token stops at once.
    if (sequence > (this.byName.get(name)?.readSequence ?? this.newestReloadApplied)) this.byName.set(name, { cached, readSequence: sequence });
    return cached;
  }

  private reload(): Promise<void> {
    const sequence = ++this.readsStarted;
    const startedAt = this.now();
    this.readsInFlight++;
    const read = this.reader
      .all()
      .then((rows) => {
        // A reload that started later already finished: its copy is newer than ours.
        if (sequence < this.newestReloadApplied) return;
        const fresh = new Map<string, Entry>(rows.map((row) => [row.nombre.toLowerCase(), { cached: toCached(row), readSequence: sequence }]));
        // Single-row reads that started after this reload know better.
        for (const [name, entry] of this.byName) if (entry.readSequence > sequence) fresh.set(name, entry);
        this.byName = fresh;
        this.newestReloadApplied = sequence;
        this.copyReadAtMs = startedAt;
        this.staleReported = false;
      })
      .finally(() => this.readsInFlight--);
    return withDeadline(read, this.options.readDeadlineMs, 'reloading the credential cache').catch((error: unknown) => {
      // Keep serving the last good copy while it is trusted; lookups check the database after that.
      log.error({ err: error }, 'credential cache refresh failed');
      throw error;
    });
  }

  private scheduleRefresh(): void {
    if (this.timer) return;
    // Started by the first lookup; its reloads are the process's own work, not that lookup's.
    this.timer = runAsJob('credential-refresh', () =>
      setInterval(() => {
        // A hung reload keeps its connection: never pile another one on top of it.
        if (this.readsInFlight === 0) void this.reload().catch(() => {});
      }, this.options.refreshMs),
    );
    this.timer.unref();
    if (this.copyReadAtMs === undefined && this.readsInFlight === 0) void runAsJob('credential-refresh', () => this.reload()).catch(() => {});
  }
}

function withDeadline<T>(promise: Promise<T>, deadlineMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from the database within ${deadlineMs} ms`)), deadlineMs);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function acceptedIntegration(cached: CachedIntegration | undefined, token: string): AuthenticatedIntegration | undefined {
  // Hash the presented token even for unknown names, so timing does not reveal which names exist.
  const matches = tokenMatches(token, cached?.tokenHash ?? '0'.repeat(64));
  return cached?.active && matches ? cached.integration : undefined;
}

function toCached(row: Integration): CachedIntegration {
  const flags = Object.fromEntries(FLAG_NAMES.map((flag: FlagName) => [flag, row[flag]])) as IntegrationFlags;
  return { integration: { id: row.id, nombre: row.nombre, ...flags }, tokenHash: row.tokenHash, active: row.active };
}

const holder = globalThis as typeof globalThis & { __integrationDirectory?: IntegrationDirectory };

export function integrationDirectory(): IntegrationDirectory {
  const refreshMs = env().INTEGRATION_CACHE_REFRESH_MS;
  if (!holder.__integrationDirectory) {
    const directory = new IntegrationDirectory(databaseReader, { refreshMs, readDeadlineMs: Math.max(refreshMs, 1_000) });
    holder.__integrationDirectory = directory;
    metrics().probes.integrationCacheAgeSeconds = () => {
      const ageMs = directory.copyAgeMs();
      return ageMs === undefined ? undefined : ageMs / 1000;
    };
  }
  return holder.__integrationDirectory;
}

/** Called by every change to an integration made in this process. */
export async function notifyIntegrationChanged(): Promise<void> {
  await holder.__integrationDirectory?.invalidate();
}
