import { metrics } from '@/lib/platform/metrics/registry';
import { db } from '@/db/client';
import { integrationTokens, integrations, type Integration } from '@/db/schema';
import { isNull } from 'drizzle-orm';
import { listenForCredentialChanges } from '@/lib/core/credentials/changes';
import { flushTokenUses, noteTokenUse } from '@/lib/core/credentials/last-use';
import { tokenUsableAt } from '@/lib/core/credentials/token-state';
import { addressAllowed, compileAllowList, type Network } from '@/lib/core/credentials/allow-list';
import { flushRefusedAddresses } from '@/lib/core/credentials/refused-addresses';
import { integrationDirectorySettings } from './settings';
import { logger } from '@/lib/platform/logging/logger';
import { hashToken } from '@/lib/platform/security/tokens';
import { timingSafeEqual } from 'node:crypto';
import { FLAG_NAMES, type FlagName, type IntegrationFlags } from './flags';
import { runAsJob } from '@/lib/platform/jobs/context';
import { answerWithin } from '@/lib/platform/async/answer-within';
import { peekProcessSlot, processSlot } from '@/lib/platform/runtime/process-state';

/** What the lookup pipeline needs to know about an integration; money is read from the database. */
export interface AuthenticatedIntegration extends IntegrationFlags {
  id: number;
  nombre: string;
  /** Whether its lookups may ask for a constancia (lib/core/constancias). */
  constanciasEnabled: boolean;
}

interface CachedToken {
  id: number;
  hash: Buffer;
  /** Checked at each lookup, so a token stops at its expiry to the millisecond, reload or not. */
  expiresAtMs: number | null;
}

interface CachedIntegration {
  integration: AuthenticatedIntegration;
  /** The tokens not revoked (expired ones too: their expiry is checked per lookup). */
  tokens: CachedToken[];
  /** Empty: requests from anywhere. */
  allowList: Network[];
  active: boolean;
}

export type Authentication =
  | { status: 'missing' }
  | { status: 'partial' }
  | { status: 'unknown' }
  | { status: 'authenticated'; integration: AuthenticatedIntegration }
  /**
   * The right credentials from an address outside the integration's allow-list: answered exactly
   * like unknown credentials (it reveals nothing), counted as its own refusal reason.
   */
  | { status: 'address_refused'; integrationId: number; address: string | null }
  /**
   * No copy of the credentials may be used: none loaded yet and the first load failed, or the last
   * successful reload is older than INTEGRATION_CACHE_MAX_AGE_MS. The lookup answers its route
   * family's "unavailable" (nothing charged, nothing recorded), never a refusal: the client's
   * credentials may well be right.
   */
  | { status: 'unavailable' };

/** A token as the directory keeps it: never the token, only its hash. */
export interface StoredToken {
  id: number;
  integrationId: number;
  tokenHash: string;
  expiresAt: Date | null;
}

/** Where the directory reads integrations from: the database (tests give it others). */
export interface IntegrationReader {
  all(): Promise<{ integrations: Integration[]; tokens: StoredToken[] }>;
  /**
   * Optional: calls `onChange` when another process changed credentials (its promise settles once
   * the copy has the change) and `onReconnect` when the channel (re)opened (changes may have been
   * missed). Resolves to false when it cannot listen.
   */
  subscribe?(onChange: () => Promise<void>, onReconnect: () => void): Promise<boolean>;
}

const databaseReader: IntegrationReader = {
  all: async () => {
    const database = await db();
    // Two statements, not a join: the integrations are few, and their tokens a handful each.
    const [rows, tokens] = await Promise.all([
      database.select().from(integrations),
      database
        .select({ id: integrationTokens.id, integrationId: integrationTokens.integrationId, tokenHash: integrationTokens.tokenHash, expiresAt: integrationTokens.expiresAt })
        .from(integrationTokens)
        .where(isNull(integrationTokens.revokedAt)),
    ]);
    return { integrations: rows, tokens };
  },
  subscribe: async (onChange, onReconnect) => (await listenForCredentialChanges(onChange, onReconnect)) !== undefined,
};

export interface DirectoryOptions {
  refreshMs: number;
  /** How long a read may take before it counts as failed (it may still finish later). */
  readDeadlineMs: number;
  /** The oldest copy (since its reload started) a lookup is answered from. */
  maxAgeMs: number;
  /**
   * Note each accepted token's use and write them in batches this often (TOKEN_LAST_USE_FLUSH_MS);
   * unset in tests of the cache alone.
   */
  lastUseFlushMs?: number;
  now?: () => number;
}

const log = logger('integrations');

/** How long the start waits for the first copy of the credentials. */
const START_LOAD_LIMIT_MS = 60_000;
/** How long the start waits for the channel that announces other processes' changes. */
const START_LISTEN_LIMIT_MS = 5_000;

/**
 * An in-process copy of every integration's credentials and flags: every lookup, refused ones
 * included, is authenticated from it without a database trip, so neither a burst of valid lookups
 * nor a flood of wrong tokens turns into database reads. The whole table is reloaded in the
 * background every `refreshMs` (INTEGRATION_CACHE_REFRESH_MS, 2 s by default), one reload at a
 * time: a change made through any instance, the console or the CLI (a new integration, a new or
 * revoked token, a flag) reaches every instance within that interval plus one query. On top of
 * that, every change is announced on a PostgreSQL channel (lib/core/credentials/changes.ts) that each
 * instance LISTENs to and reloads on at once: a revoked token is refused everywhere within a
 * round trip; the periodic reload stays as the bound when a notification is lost (the listening
 * connection dropped: it reloads again when it is back). Changes made in this process reload at
 * once. Reloads are numbered when they start and only a newer one replaces the copy, so a slow
 * reload never undoes a later one.
 *
 * A token's expiry (the end of a rotation's overlap window) is checked at each lookup against the
 * copy, so it needs no reload. Each accepted token's last use is noted in memory and written in
 * batches (lib/core/credentials/last-use.ts), never a database write per lookup.
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
  /** A change was announced while a reload ran (it may have read before the change): reload once more after it. */
  private reloadAgain = false;
  /** Settles when that reload once more has finished. */
  private reloadedAgain?: { done: Promise<void>; settle: () => void };
  private listening = false;
  /** Between the start's listening and its load: announcements then are covered by that load. */
  private startLoadPending = false;
  private readonly now: () => number;

  constructor(
    private readonly reader: IntegrationReader,
    private readonly options: DirectoryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** `clientAddress`: the request's own address (lib/core/limits/client-ip.ts), for the allow-lists. */
  async authenticate(login: string | null, token: string | null, clientAddress: string | null = null): Promise<Authentication> {
    if (!login && !token) return { status: 'missing' };
    if (!login || !token) return { status: 'partial' };
    let copy = this.usableCopy();
    if (copy === undefined) copy = await this.firstCopy();
    if (copy === null) return { status: 'unavailable' };
    const nowMs = this.now();
    const accepted = acceptedToken(copy.get(login.toLowerCase()), token, nowMs);
    if (!accepted) return { status: 'unknown' };
    if (!addressAllowed(accepted.allowList, clientAddress)) return { status: 'address_refused', integrationId: accepted.integration.id, address: clientAddress };
    if (this.options.lastUseFlushMs) noteTokenUse(accepted.tokenId, nowMs);
    return { status: 'authenticated', integration: accepted.integration };
  }

  /** The integration an authenticated lookup named, as this copy holds it (no reload, no token check). */
  authenticatedByName(nombre: string): AuthenticatedIntegration | undefined {
    return this.usableCopy()?.get(nombre.toLowerCase())?.integration;
  }

  /**
   * Loads the copy before the first lookup arrives (the server's start) and starts the refreshes:
   * otherwise the first lookups, often a burst, wait for that load together, and all of them answer
   * "unavailable" if it misses its deadline on a busy instance. Here the load may take up to
   * START_LOAD_LIMIT_MS. If it fails (a database not migrated yet, say) the start goes on: the
   * failure is logged and the first lookups try again, as before.
   */
  async start(): Promise<void> {
    // Listening first, then the load: a change committed between the two would otherwise wait for
    // the periodic reload, and an instance reported ready would serve a new integration's first
    // lookups with 401 for up to a refresh interval. Bounded: a database that cannot listen leaves
    // the periodic reload as the bound, as before.
    this.startLoadPending = true;
    await answerWithin(this.listen(), START_LISTEN_LIMIT_MS, 'listening for credential changes').catch(() => {});
    // Loaded, then the refreshes start: they would otherwise begin with a second load. The load
    // covers every change announced before it (the channel's own "listening" included).
    const load = this.reload(START_LOAD_LIMIT_MS);
    this.startLoadPending = false;
    await load.catch(() => {});
    this.scheduleRefresh();
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

  private reload(deadlineMs = this.options.readDeadlineMs): Promise<void> {
    const sequence = ++this.reloadsStarted;
    const startedAt = this.now();
    this.readsInFlight++;
    const read = this.reader
      .all()
      .then((rows) => {
        // A reload that started later already finished: its copy is newer than ours.
        if (sequence < this.newestReloadApplied) return;
        this.byName = toCopy(rows.integrations, rows.tokens);
        this.newestReloadApplied = sequence;
        this.copyReadAtMs = startedAt;
        this.staleReported = false;
      })
      .finally(() => this.readsInFlight--);
    const bounded = answerWithin(read, deadlineMs, 'reloading the credential cache: no answer from the database')
      .catch((error: unknown) => {
        // Keep serving the last good copy within its bound.
        log.error({ err: error }, 'credential cache refresh failed');
        throw error;
      })
      .finally(() => {
        if (this.reloading === bounded) this.reloading = undefined;
        if (this.reloadAgain && this.readsInFlight === 0) {
          this.reloadAgain = false;
          const waiting = this.reloadedAgain;
          this.reloadedAgain = undefined;
          void this.reload()
            .catch(() => {})
            .finally(() => waiting?.settle());
        }
      });
    this.reloading = bounded;
    return bounded;
  }

  /**
   * Another process announced a change: reload now, or right after the reload in flight. Settles
   * when that reload has finished (failed ones too: the copy then ages out within its bound).
   */
  private changedElsewhere(): Promise<void> {
    if (this.startLoadPending) return Promise.resolve();
    if (this.readsInFlight === 0) return runAsJob('credential-refresh', () => this.reload()).catch(() => {});
    this.reloadAgain = true;
    if (!this.reloadedAgain) {
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      this.reloadedAgain = { done, settle };
    }
    return this.reloadedAgain.done;
  }

  /** Starts listening once; resolves when the channel is open (or listening turned out impossible). */
  private listen(): Promise<void> {
    if (this.listening || !this.reader.subscribe) return Promise.resolve();
    this.listening = true;
    return runAsJob('credential-changes', () => this.reader.subscribe!(() => this.changedElsewhere(), () => void this.changedElsewhere())).then(
      (listening) => {
        if (!listening) log.warn({ refreshMs: this.options.refreshMs }, 'credential changes are not announced to this process: other processes\' changes arrive with the periodic reload');
      },
      (error: unknown) => {
        // Retried with the next lookup's scheduleRefresh; meanwhile the periodic reload is the bound.
        this.listening = false;
        log.error({ err: error }, 'listening for credential changes failed');
      },
    );
  }

  private scheduleRefresh(): void {
    void this.listen();
    if (this.timer) return;
    // Started by the first lookup; its reloads are the process's own work, not that lookup's.
    this.timer = runAsJob('credential-refresh', () =>
      setInterval(() => {
        // A hung reload keeps its connection: never pile another one on top of it.
        if (this.readsInFlight === 0) void this.reload().catch(() => {});
      }, this.options.refreshMs),
    );
    this.timer.unref();
    const flushMs = this.options.lastUseFlushMs;
    if (flushMs) {
      runAsJob('token-last-use', () =>
      setInterval(() => {
        flushTokenUses().catch((error: unknown) => log.error({ err: error }, 'writing tokens\' last use failed'));
          flushRefusedAddresses().catch((error: unknown) => log.error({ err: error }, 'writing refused addresses failed'));
        }, flushMs),
      ).unref();
    }
    if (this.copyReadAtMs === undefined && this.readsInFlight === 0) void runAsJob('credential-refresh', () => this.reload()).catch(() => {});
  }
}

/** Compared against for names no integration has, so timing does not reveal which names exist. */
const NO_TOKEN_HASH = Buffer.alloc(32);

/**
 * The token of `cached` that `presented` is, if usable at `nowMs` and the integration is active.
 * The presented token is hashed once and compared with every token in constant time.
 */
function acceptedToken(
  cached: CachedIntegration | undefined,
  presented: string,
  nowMs: number,
): { integration: AuthenticatedIntegration; tokenId: number; allowList: Network[] } | undefined {
  const presentedHash = Buffer.from(hashToken(presented), 'hex');
  let matched: CachedToken | undefined;
  for (const token of cached?.tokens.length ? cached.tokens : [{ id: 0, hash: NO_TOKEN_HASH, expiresAtMs: null }]) {
    if (timingSafeEqual(presentedHash, token.hash) && cached) matched = token;
  }
  if (!cached?.active || !matched || !tokenUsableAt(matched, nowMs)) return undefined;
  return { integration: cached.integration, tokenId: matched.id, allowList: cached.allowList };
}

function toCopy(rows: Integration[], tokens: StoredToken[]): Map<string, CachedIntegration> {
  const byId = new Map<number, CachedIntegration>();
  for (const row of rows) {
    const flags = Object.fromEntries(FLAG_NAMES.map((flag: FlagName) => [flag, row[flag]])) as IntegrationFlags;
    byId.set(row.id, { integration: { id: row.id, nombre: row.nombre, constanciasEnabled: row.constanciasEnabled, ...flags }, tokens: [], allowList: compileAllowList(row.allowedNetworks ?? []), active: row.active });
  }
  for (const token of tokens) {
    const hash = Buffer.from(token.tokenHash, 'hex');
    if (hash.length !== 32) continue;
    byId.get(token.integrationId)?.tokens.push({ id: token.id, hash, expiresAtMs: token.expiresAt?.getTime() ?? null });
  }
  return new Map([...byId.values()].map((cached) => [cached.integration.nombre.toLowerCase(), cached]));
}

function createIntegrationDirectory(): IntegrationDirectory {
  const { INTEGRATION_CACHE_REFRESH_MS: refreshMs, INTEGRATION_CACHE_MAX_AGE_MS: maxAgeMs, TOKEN_LAST_USE_FLUSH_MS: lastUseFlushMs } = integrationDirectorySettings();
  const directory = new IntegrationDirectory(databaseReader, { refreshMs, readDeadlineMs: Math.max(refreshMs, 1_000), maxAgeMs, lastUseFlushMs });
  metrics().probes.integrationCacheAgeSeconds = () => {
    const ageMs = directory.copyAgeMs();
    return ageMs === undefined ? undefined : ageMs / 1000;
  };
  return directory;
}

export function integrationDirectory(): IntegrationDirectory {
  return processSlot('integrationDirectory', createIntegrationDirectory);
}

/** Called by every change to an integration made in this process. */
export async function notifyIntegrationChanged(): Promise<void> {
  await peekProcessSlot<IntegrationDirectory>('integrationDirectory')?.invalidate();
}
