import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import type postgres from 'postgres';
import { env } from '@/lib/platform/settings/env';
import { logger } from '@/lib/platform/logging/logger';
import { currentLookupTrace } from '@/lib/platform/http/lookup-trace';
import { metrics } from '@/lib/platform/metrics/registry';
import { claimDirectory, waitForExit, type DirectoryClaim } from './embedded-lock';
import { statementParameters, type CompiledStatement } from './compiled-statement';
import type { SharedDatabase } from './embedded-share';
import * as schema from './schema';
import { processSlot } from '@/lib/platform/runtime/process-state';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** The database or a transaction in it: what a write that may join its caller's transaction takes. */
export type Executor = Database | Transaction;

/** One open database per process: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export interface DatabaseHandle {
  kind: 'postgres' | 'pglite';
  db: Database;
  /** Runs raw SQL and returns its rows, whichever driver is underneath. */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
  /**
   * Runs a statement compiled once (db/compiled-statement.ts) with this call's values for its
   * placeholders: the lookups' hot path, whose text comes in a few fixed shapes. On PostgreSQL it
   * is kept prepared on each connection (DATABASE_PREPARED_STATEMENTS), so it costs one round trip.
   */
  compiled<T extends Record<string, unknown>>(statement: CompiledStatement, values: Record<string, unknown>): Promise<T[]>;
  close(): Promise<void>;
  /**
   * LISTENs to a channel: `onNotify` for each notification, `onListening` each time the listening
   * connection is (re)established. Returns a function that stops. Absent when notifications cannot
   * reach this process (the embedded database reached through another process's socket). On the
   * embedded database this process shares, a notification raised by a client of its socket (the
   * CLI) is answered to that client only once `onNotify`'s promise settles (db/embedded-share.ts).
   */
  listen?(channel: string, onNotify: () => void | Promise<void>, onListening: () => void): Promise<() => Promise<void>>;
  /** The embedded database reached through the process that has it open (its pid). */
  servedBy?: number;
}

interface DatabaseState {
  handle?: Promise<DatabaseHandle>;
  /** This process's own PGlite, when it has the embedded database open. */
  embedded?: { client: PGlite; dataDir: string; announce(socket: string): void; shared?: SharedDatabase; listeners: ChannelListeners };
}

/** This process's listeners per channel, told of the notifications the socket's clients raise. */
type ChannelListeners = Map<string, Set<() => void | Promise<void>>>;

// One per process (lib/platform/runtime/process-state.ts): hot reloads, duplicate module copies and route
// bundles share one handle.
const state = processSlot<DatabaseState>('database', () => ({}));

/** Opens the database on first use (never at import time: `next build` must not touch it). */
export function database(): Promise<DatabaseHandle> {
  state.handle ??= openDatabase().catch((error: unknown) => {
    state.handle = undefined;
    throw error;
  });
  return state.handle;
}

/** Anything raw SQL runs on: the database, or a transaction a caller opened on it. */
export type SqlExecutor = { execute(query: SQL): Promise<unknown> };

/**
 * The rows of raw SQL run inside `transaction` when one is given (drizzle's execute answers an
 * array on postgres.js and `{ rows }` on PGlite), else on this process's database.
 */
export async function rowsIn<T>(transaction: SqlExecutor | undefined, query: SQL): Promise<T[]> {
  if (!transaction) return (await database()).rows(query) as Promise<T[]>;
  const result = await transaction.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export async function db(): Promise<Database> {
  return (await database()).db;
}

/** Closes the process's database (CLI and tests); the next call to database() reopens it. */
export async function closeDatabase(): Promise<void> {
  const pending = state.handle;
  state.handle = undefined;
  if (pending) await (await pending).close();
}

async function openDatabase(): Promise<DatabaseHandle> {
  const settings = env();
  if (settings.DATABASE_URL) return openPostgres(settings.DATABASE_URL, settings.DATABASE_POOL_MAX, settings.DATABASE_PREPARED_STATEMENTS);
  return openPglite(path.resolve(settings.PGLITE_DIR));
}

/**
 * Counts every statement drizzle sends (both drivers call this once per query), per instance and
 * per lookup: the budget of a billed lookup is two. BEGIN and COMMIT of a transaction are not
 * counted; no lookup uses one.
 */
const roundTripCounter = {
  logQuery(): void {
    metrics().databaseRoundTrips.inc();
    const trace = currentLookupTrace();
    if (trace) trace.databaseRoundTrips++;
  },
};

/**
 * Seconds before postgres.js tries a failed connection again. Its default grows to 20 s, and a
 * statement waits for that attempt: with the server stopped, lookups waited 6-17 s for their
 * failure, and after it came back an instance kept failing for up to 20 s. Capped at 1 s, a
 * statement fails within about a second while the server is away, and the pool is back within a
 * second of it (a few connection attempts a second at a stopped server cost nothing).
 */
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1);
}

async function openPostgres(url: string, poolMax: number, preparedStatements: boolean): Promise<DatabaseHandle> {
  const { default: connect } = await import('postgres');
  // connect_timeout: a server that does not answer (not one that refuses) fails a statement in 5 s, not 30.
  return postgresHandle('postgres', connect(url, { max: poolMax, backoff: reconnectDelaySeconds, connect_timeout: 5, onnotice: () => {} }), preparedStatements);
}

/**
 * drizzle sends every statement unnamed (`db.execute`, and any query not given a name), and
 * postgres.js then asks the server to describe a statement with parameters before it can send
 * their values: two round trips per statement, the whole text each time (3.5 KB for a catalog's
 * record). A compiled statement (`compiled`) is described once per connection and then costs one
 * round trip with only its values (postgres.js keeps it per connection, by its text and types).
 * Only the hot path's few fixed shapes are run so: a console query built from filters would leave
 * a prepared statement per shape on every connection.
 */
async function postgresHandle(kind: DatabaseHandle['kind'], client: postgres.Sql, preparedStatements = false): Promise<DatabaseHandle> {
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const database = drizzle(client, { schema, logger: roundTripCounter }) as unknown as Database;
  return {
    kind,
    db: database,
    rows: async <T extends Record<string, unknown>>(query: SQL) => (await database.execute(query)) as unknown as T[],
    compiled: async <T extends Record<string, unknown>>(statement: CompiledStatement, values: Record<string, unknown>) => {
      const params = statementParameters(statement, values) as postgres.ParameterOrJSON<never>[];
      roundTripCounter.logQuery();
      // Unprepared, as drizzle sends its own statements, when prepared statements are off.
      return (await client.unsafe(statement.text, params, { prepare: preparedStatements })) as unknown as T[];
    },
    close: () => client.end({ timeout: 5 }),
    // postgres.js keeps one dedicated connection for LISTEN and re-establishes it (calling onListening) after a drop.
    listen: async (channel, onNotify, onListening) => {
      const { unlisten } = await client.listen(channel, () => onNotify(), onListening);
      return unlisten;
    },
  };
}

/** Another process holds the embedded database and does not share it (the CLI says so in Spanish). */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
    readonly ownerHasSocket: boolean,
  ) {
    super(
      `The embedded database ${dataDir} is in use by process ${ownerPid}${ownerHasSocket ? ', which does not answer on its socket' : ''}. ` +
        'Stop it first (the app shares the database with the CLI while it runs; other processes do not), ' +
        'or point DATABASE_URL at PostgreSQL to share one database between processes.',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

/**
 * The embedded database: opened here when no other process has it, or reached through the socket
 * of the process that has it open and shares it (the app in development: db/embedded-share.ts).
 */
async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const claim = claimDirectory(dataDir);
    if (claim.claimed) return openInProcess(dataDir, claim);
    const { owner } = claim;
    if (owner.socket) {
      try {
        return await openThroughOwner(owner.pid, owner.socket);
      } catch (error) {
        if (!['ECONNREFUSED', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
      // Nobody answers on the socket: the owner is exiting (or gone, its pid reused). Once it has
      // exited its lock file is stale, and the next claim takes the directory.
      if (await waitForExit(owner.pid, 3_000)) continue;
    }
    throw new EmbeddedDatabaseInUseError(dataDir, owner.pid, Boolean(owner.socket));
  }
  throw new Error(`Could not open the embedded database ${dataDir}`);
}

async function openInProcess(dataDir: string, claim: Extract<DirectoryClaim, { claimed: true }>): Promise<DatabaseHandle> {
  try {
    const { PGlite, types } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    // Timestamps, dates, intervals and their arrays as PostgreSQL writes them: how drizzle reads raw
    // SQL from PGlite, so a compiled statement's rows read like `rows`'.
    const asWritten = (value: string) => value;
    const rawRows = {
      rowMode: 'object' as const,
      parsers: { [types.TIMESTAMP]: asWritten, [types.TIMESTAMPTZ]: asWritten, [types.INTERVAL]: asWritten, [types.DATE]: asWritten, 1231: asWritten, 1115: asWritten, 1185: asWritten, 1187: asWritten, 1182: asWritten },
    };
    const client: PGlite = await PGlite.create(dataDir);
    const database = drizzle(client, { schema, logger: roundTripCounter }) as unknown as Database;
    const listeners: ChannelListeners = new Map();
    state.embedded = { client, dataDir, announce: claim.announce, listeners };
    return {
      kind: 'pglite',
      db: database,
      rows: async <T extends Record<string, unknown>>(query: SQL) =>
        ((await database.execute(query)) as unknown as { rows: T[] }).rows,
      compiled: async <T extends Record<string, unknown>>(statement: CompiledStatement, values: Record<string, unknown>) => {
        roundTripCounter.logQuery();
        return (await client.query<T>(statement.text, statementParameters(statement, values), rawRows)).rows;
      },
      listen: async (channel, onNotify, onListening) => {
        // PGlite tells its own listeners of this process's notifications; the socket's clients'
        // reach the same session but not those listeners, and come through `listeners` instead.
        const stop = await client.listen(channel, () => void onNotify());
        const ofChannel = listeners.get(channel) ?? new Set();
        listeners.set(channel, ofChannel.add(onNotify));
        onListening();
        return async () => {
          ofChannel.delete(onNotify);
          await stop();
        };
      },
      close: async () => {
        const embedded = state.embedded;
        state.embedded = undefined;
        await embedded?.shared?.close();
        await client.close();
        claim.release();
      },
    };
  } catch (error) {
    claim.release();
    throw error;
  }
}

/** One connection, taking turns with the owner and its other clients; no named statements to collide. */
async function openThroughOwner(pid: number, socket: string): Promise<DatabaseHandle> {
  const { default: connect } = await import('postgres');
  const client = connect({ path: socket, max: 1, prepare: false, connect_timeout: 5, onnotice: () => {} });
  const handle = await postgresHandle('pglite', client);
  try {
    await client`select 1`;
  } catch (error) {
    await client.end({ timeout: 1 });
    throw error;
  }
  // A notification raised in the owner's database does not reach this connection reliably: no listen.
  return { ...handle, listen: undefined, servedBy: pid };
}

/** True while this process has the embedded database open and serves it on its socket. */
export function embeddedDatabaseShared(): boolean {
  return Boolean(state.embedded?.shared);
}

// Unix socket paths have a small fixed limit (108 bytes on Linux, 104 on macOS).
const MAX_SOCKET_PATH_BYTES = 100;

/**
 * Development: lets the CLI (and any other process) use this process's embedded database while
 * it runs, through a unix socket next to the data directory, announced in its lock file.
 * Returns the socket's path, or undefined when this process does not have the database open.
 */
export async function shareEmbeddedDatabase(): Promise<string | undefined> {
  await database();
  const embedded = state.embedded;
  if (!embedded) return undefined;
  const socketPath = `${embedded.dataDir}.sock`;
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    logger('database').warn({ socketPath }, 'embedded database not shared: its socket path is too long; the CLI cannot run beside the app');
    return undefined;
  }
  if (!embedded.shared) {
    const { serveEmbeddedDatabase } = await import('./embedded-share');
    const { listeners } = embedded;
    embedded.shared = await serveEmbeddedDatabase(embedded.client, socketPath, async (channel) => {
      await Promise.allSettled([...(listeners.get(channel) ?? [])].map(async (listener) => listener()));
    });
    embedded.announce(socketPath);
  }
  return socketPath;
}
