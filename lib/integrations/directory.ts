import { metrics } from '@/lib/metrics/registry';
import { db } from '@/db/client';
import { integrations, type Integration } from '@/db/schema';
import { env } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { tokenMatches } from '@/lib/security/tokens';
import { FLAG_NAMES, type FlagName, type IntegrationFlags } from './flags';
import { runAsJob } from '@/lib/jobs/context';
import { answerWithin } from '@/lib/async/answer-within';

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
  | { status: 'authenticated'; integration: AuthenticatedIntegration }
  /**
   * No copy of the credentials may be used: none loaded yet and the first load failed, or the last
   * successful reload is older than INTEGRATION_CACHE_MAX_AGE_MS. The lookup answers its route
   * family's "unavailable" (nothing charged, nothing recorded), never a refusal: the client's
   * credentials may well be right.
   */
  | { status: 'unavailable' };

/** Where the directory reads integrations from: the database (tests give it others). */
export interface IntegrationReader {
  all(): Promise<Integration[]>;
}

const databaseReader: IntegrationReader = {
  all: async () => (await db()).select().from(integrations),
};

export interface DirectoryOptions {
  refreshMs: number;
  /** How long a read may take before it counts as failed (it may still finish later). */
  readDeadlineMs: number;
  /** The oldest copy (since its reload started) a lookup is answered from. */
  maxAgeMs: number;
  now?: () => number;
}

const log = logger('integrations');

/**
 * An in-process copy of every integration's credentials and flags: every lookup, refused ones
 * included, is authenticated from it without a database trip, so neither a burst of valid lookups
 * nor a flood of wrong tokens turns into database reads. The whole table is reloaded in the
 * background every `refreshMs` (INTEGRATION_CACHE_REFRESH_MS, 2 s by default), one reload at a
 * time: a change made through any instance, the console or the CLI (a new integration, a new or
 * revoked token, a flag) reaches every instance within that interval plus one query. Changes made
 * in this process reload at once. Reloads are numbered when they start and only a newer one
 * replaces the copy, so a slow reload never undoes a later one.
 *
 * A reload that is late (an instance under a burst, a slow database) leaves the last copy in use:
 * stale for a moment rather than a database read per lookup. The bound is `maxAgeMs`
 * (INTEGRATION_CACHE_MAX_AGE_MS, 30 s by default): past it, lookups are answered "unavailable"
 * until a reload succeeds, so a deactivated or rotated credential is refused by every instance
 * within that bound even if the instance cannot reach its database.
 */
export class IntegrationDirectory {
  private byName = new Map<string, CachedIntegration>();
  /** When the reload behind the current copy started (the copy is as old as that). */
  private copyReadAtMs?: number;
  private reloadsStarted = 0;
  private newestReloadApplied = 0;
  private readsInFlight = 0;
  /** The newest reload, while it runs (bounded by its deadline): the first lookups wait for it. */
  private reloading?: Promise<void>;
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
    let copy = this.usableCopy();
    if (copy === undefined) copy = await this.firstCopy();
    if (copy === null) return { status: 'unavailable' };
    const accepted = acceptedIntegration(copy.get(login.toLowerCase()), token);
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

  /** The copy if it is young enough; undefined before the first load; null past the bound. */
  private usableCopy(): Map<string, CachedIntegration> | undefined | null {
    this.scheduleRefresh();
    if (this.copyReadAtMs === undefined) return undefined;
    const ageMs = this.now() - this.copyReadAtMs;
    if (ageMs <= this.options.maxAgeMs) return this.byName;
    if (!this.staleReported) {
      this.staleReported = true;
      log.error({ copyAgeMs: ageMs, maxAgeMs: this.options.maxAgeMs }, 'credential cache older than its bound: lookups answer unavailable until a reload succeeds');
    }
    return null;
  }

  /** Before the first successful reload every lookup waits for the same one (its failure is logged). */
  private async firstCopy(): Promise<Map<string, CachedIntegration> | null> {
    const loaded = await (this.reloading ?? this.reload()).then(
      () => true,
      () => false,
    );
    return loaded ? (this.usableCopy() ?? null) : null;
  }

  private reload(): Promise<void> {
    const sequence = ++this.reloadsStarted;
    const startedAt = this.now();
    this.readsInFlight++;
    const read = this.reader
      .all()
      .then((rows) => {
        // A reload that started later already finished: its copy is newer than ours.
        if (sequence < this.newestReloadApplied) return;
        this.byName = new Map(rows.map((row) => [row.nombre.toLowerCase(), toCached(row)]));
        this.newestReloadApplied = sequence;
        this.copyReadAtMs = startedAt;
        this.staleReported = false;
      })
      .finally(() => this.readsInFlight--);
    const bounded = answerWithin(read, this.options.readDeadlineMs, 'reloading the credential cache: no answer from the database')
      .catch((error: unknown) => {
        // Keep serving the last good copy within its bound.
        log.error({ err: error }, 'credential cache refresh failed');
        throw error;
      })
      .finally(() => {
        if (this.reloading === bounded) this.reloading = undefined;
      });
    this.reloading = bounded;
    return bounded;
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
  if (!holder.__integrationDirectory) {
    const { INTEGRATION_CACHE_REFRESH_MS: refreshMs, INTEGRATION_CACHE_MAX_AGE_MS: maxAgeMs } = env();
    const directory = new IntegrationDirectory(databaseReader, { refreshMs, readDeadlineMs: Math.max(refreshMs, 1_000), maxAgeMs });
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
