import { and, asc, between, desc, eq, gte, inArray, lt, SQL, sql, type SQLWrapper } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { db, type Database } from '@/db/client';
import { integrations, ledgerEntries, queryRecordIdentifiers, queryRecords, type LedgerEntry, type QueryRecord } from '@/db/schema';
import { startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { openRecord } from '@/lib/core/records/sealed';
import { searchKeysToLookUp } from '@/lib/core/sealing/search-keys';
import { clearRecordsMayRemain } from '@/lib/core/sealing/state';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';
import { matchingDays, scanRange, type MatchingDays } from './count';
import type { RecordFilters } from './filters';
import { statusFilter } from './outcomes';

export type ConsoleRecord = QueryRecord & { integrationNombre: string };

/**
 * The stored search keys for what support typed ("576937-k", "2415 75181 0101"): its keyed hash,
 * computed here as the record writers did (lib/core/sealing/search-keys.ts), plus the forms older
 * records may still hold during a key rotation or before the migration finished. One key is one
 * index range; two or three are as many short ranges. None (it normalizes to nothing): no match.
 */
function matchesSearchKeys(keys: string[]): SQL {
  if (keys.length === 1) return eq(queryRecordIdentifiers.identifier, keys[0]!);
  return keys.length === 0 ? sql`false` : inArray(queryRecordIdentifiers.identifier, keys);
}

/** The search keys to look for, for a list about to run (whether clear ones may remain is read from the database). */
async function searchKeysFor(filters: RecordFilters): Promise<string[]> {
  return filters.identificador ? searchKeysToLookUp(filters.identificador, await clearRecordsMayRemain()) : [];
}

/**
 * The rows a list walks, with the columns its order and cursor use. Without an identifier the
 * records themselves; with one, that identifier's rows of query_record_identifiers joined to
 * their records, so one index range (identifier, created_at, record_id) gives the order.
 *
 * Indexes that serve each filter (every scan is backward, newest first; EXPLAIN in
 * `npm run bench:console`):
 *   none, or dates only         query_records_created_idx (created_at, id)
 *   integration (+ others)      query_records_integration_created_idx (integration_id, created_at, id)
 *   lookup (+ status)           query_records_lookup_created_idx (lookup, created_at, id)
 *   exact status                query_records_status_created_idx (http_status, created_at, id)
 *   NIT o CUI (+ others)        query_record_identifiers_search_idx (identifier, created_at, record_id)
 *   request id (+ others)       query_records_request_id_unique (request_id): one row at most
 * Other filters are checked on the rows the index yields; the planner picks the most selective.
 */
function listSource(filters: RecordFilters, searchKeys: string[]) {
  const conditions: SQL[] = [];
  if (filters.integracion !== undefined) conditions.push(eq(queryRecords.integrationId, filters.integracion));
  if (filters.consulta) conditions.push(eq(queryRecords.lookup, filters.consulta));
  if (filters.estado) conditions.push(statusFilter(queryRecords.httpStatus, filters.estado));
  if (filters.solicitud) conditions.push(eq(queryRecords.requestId, filters.solicitud));
  const keys = filters.identificador
    ? { createdAt: queryRecordIdentifiers.createdAt, id: queryRecordIdentifiers.recordId }
    : { createdAt: queryRecords.createdAt, id: queryRecords.id };
  if (filters.identificador) conditions.push(matchesSearchKeys(searchKeys));
  // Dates bound the ordering column itself, so they narrow the index range of any of the above.
  if (filters.desde) conditions.push(gte(keys.createdAt, startOfGuatemalanDay(filters.desde)));
  if (filters.hasta) conditions.push(lt(keys.createdAt, startOfNextGuatemalanDay(filters.hasta)));
  return { conditions, keys };
}

/**
 * The query for one batch in newest-first order strictly after `cursor` (or from the newest), or,
 * with direction 'newer', the batch just before it, oldest first. Keyset paging walks the index
 * from the cursor, so every page costs the same at any depth; OFFSET would not. `range` narrows
 * the scan to the days known to hold the batch (scanRange). Exported unrun so the plan tests can
 * EXPLAIN exactly what the console runs.
 */
export function recordsQuery(
  database: Database,
  filters: RecordFilters,
  cursor: KeysetCursor | undefined,
  direction: 'older' | 'newer',
  limit: number,
  range: ScanRange = {},
  searchKeys: string[] = filters.identificador ? searchKeysToLookUp(filters.identificador, false) : [],
): SQLWrapper & PromiseLike<Array<{ record: QueryRecord; integrationNombre: string; cursorTimestamp: string }>> {
  return selectRecords(database, filters, searchKeys, cursor, direction, limit, range, (keys) => ({
    record: queryRecords,
    integrationNombre: integrations.nombre,
    cursorTimestamp: cursorInstant(keys.createdAt),
  }));
}

type Keys = ReturnType<typeof listSource>['keys'];

/**
 * The list's query with the columns a caller needs (the console's rows, or CSV lines). Drizzle
 * cannot type a join over a generic selection, so callers state the row type they select.
 */
function selectRecords<Row>(
  database: Database,
  filters: RecordFilters,
  searchKeys: string[],
  cursor: KeysetCursor | undefined,
  direction: 'older' | 'newer',
  limit: number,
  range: ScanRange,
  columns: (keys: Keys) => SelectedFields,
): SQLWrapper & PromiseLike<Row[]> {
  const { conditions, keys } = listSource(filters, searchKeys);
  if (cursor) conditions.push(beyondCursor(keys.createdAt, keys.id, cursor, direction));
  if (range.from) conditions.push(gte(keys.createdAt, range.from));
  if (range.until) conditions.push(lt(keys.createdAt, range.until));
  const order = direction === 'older' ? [desc(keys.createdAt), desc(keys.id)] : [asc(keys.createdAt), asc(keys.id)];
  const selection = columns(keys);
  const source = filters.identificador
    ? database
        .select(selection)
        .from(queryRecordIdentifiers)
        .innerJoin(queryRecords, eq(queryRecords.id, queryRecordIdentifiers.recordId))
        .innerJoin(integrations, eq(integrations.id, queryRecords.integrationId))
    : database.select(selection).from(queryRecords).innerJoin(integrations, eq(integrations.id, queryRecords.integrationId));
  return source
    .where(and(...conditions))
    .orderBy(...order)
    .limit(limit) as unknown as SQLWrapper & PromiseLike<Row[]>;
}

type ScanRange = ReturnType<typeof scanRange>;

async function fetchBatch(
  filters: RecordFilters,
  cursor: KeysetCursor | undefined,
  direction: 'older' | 'newer',
  limit: number,
  matching?: MatchingDays,
): Promise<Array<ConsoleRecord & { cursor: string }>> {
  const range = matching ? scanRange(matching, cursor?.createdAt, direction, limit) : {};
  const rows = await recordsQuery(await db(), filters, cursor, direction, limit, range, await searchKeysFor(filters));
  const mapped = rows.map(({ record, integrationNombre, cursorTimestamp }) => ({
    ...openRecord(record),
    integrationNombre,
    cursor: encodeCursor({ createdAt: cursorTimestamp, id: record.id }),
  }));
  return direction === 'older' ? mapped : mapped.reverse();
}

export interface RecordPage {
  rows: ConsoleRecord[];
  /** How many records match, from the rollups; undefined for an identifier search. */
  matching?: number;
  /** Cursor for the next page of older records, when there is one. */
  older?: string;
  /** Cursor for the previous page of newer records, when there is one. */
  newer?: string;
}

export const RECORDS_PAGE_SIZE = 50;

/** One page of the console's record list: `after` walks to older records, `before` back to newer. */
export async function listRecordsPage(
  filters: RecordFilters,
  position: { after?: string; before?: string } = {},
  pageSize = RECORDS_PAGE_SIZE,
): Promise<RecordPage> {
  const matching = await matchingDays(filters);
  const before = decodeCursor(position.before);
  if (before) {
    const rows = await fetchBatch(filters, before, 'newer', pageSize + 1, matching);
    const hasNewer = rows.length > pageSize;
    const page = hasNewer ? rows.slice(1) : rows;
    return { rows: page, matching: matching?.total, newer: hasNewer ? page[0]?.cursor : undefined, older: page.at(-1)?.cursor };
  }
  const after = decodeCursor(position.after);
  const rows = await fetchBatch(filters, after, 'older', pageSize + 1, matching);
  const hasOlder = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  return { rows: page, matching: matching?.total, older: hasOlder ? page.at(-1)?.cursor : undefined, newer: after ? page[0]?.cursor : undefined };
}

/** The newest records matching the filters (the integration page, the CLI). */
export async function listLatestRecords(filters: RecordFilters, limit: number): Promise<ConsoleRecord[]> {
  const rows = await fetchBatch(filters, undefined, 'older', Math.min(Math.max(limit, 1), 1_000), await matchingDays(filters));
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return rows.map(({ cursor, ...record }) => record);
}

export interface IterateOptions {
  /** Start strictly older than this position instead of at the newest record. */
  startAfter?: KeysetCursor;
  batchSize?: number;
  /**
   * The first batch's size, each next one four times the last up to batchSize: a download starts
   * with its first rows at once, and one abandoned after its first bytes leaves little work behind.
   */
  firstBatchSize?: number;
  /** The most records to yield in all. */
  limit?: number;
  /** With an identifier filter: more search keys to match (a person's linked identifiers). */
  alsoSearchKeys?: string[];
}

/**
 * A line made of columns selected in SQL and finished in the app: what must be decrypted (a
 * record's NIT and CUI) can only be formatted here, since the keys never reach SQL.
 */
export interface RecordLineFormat {
  select: Record<string, SQL>;
  format(row: Record<string, unknown>): string;
}

/**
 * Every matching record as a line (CSV exports), newest first, in batches: one keyset query per
 * batch, each narrowed to the days that hold it, yielding only the lines. `line` is formatted in
 * SQL, or selected in SQL and finished by `format`.
 */
export async function* iterateRecordLines(filters: RecordFilters, line: SQL<string> | RecordLineFormat, options: IterateOptions = {}): AsyncGenerator<string[]> {
  const format: RecordLineFormat = line instanceof SQL ? { select: { line }, format: (row) => row.line as string } : line;
  for await (const rows of iterateRecordRows<Record<string, unknown>>(filters, format.select, options)) yield rows.map((row) => format.format(row));
}

/**
 * Every matching record with the columns `columns` selects, newest first, in batches (as
 * iterateRecordLines): for exports whose lines the app completes, such as identifiers it decrypts
 * and masks.
 */
export async function* iterateRecordRows<Row>(filters: RecordFilters, columns: SelectedFields, options: IterateOptions = {}): AsyncGenerator<Row[]> {
  const batchSize = options.batchSize ?? 2_000;
  let nextBatch = Math.min(options.firstBatchSize ?? batchSize, batchSize);
  const matching = await matchingDays(filters);
  const database = await db();
  const searchKeys = [...(await searchKeysFor(filters)), ...(options.alsoSearchKeys ?? [])];
  let cursor = options.startAfter;
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  while (remaining > 0) {
    const limit = Math.min(nextBatch, remaining);
    nextBatch = Math.min(nextBatch * 4, batchSize);
    const range = matching ? scanRange(matching, cursor?.createdAt, 'older', limit) : {};
    const rows = await selectRecords<Row & { keysetId: number; keysetTimestamp: string }>(database, filters, searchKeys, cursor, 'older', limit, range, (keys) => ({
      ...columns,
      keysetId: keys.id,
      keysetTimestamp: cursorInstant(keys.createdAt),
    }));
    if (rows.length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    yield rows.map(({ keysetId, keysetTimestamp, ...row }) => row as unknown as Row);
    remaining -= rows.length;
    if (rows.length < limit) return;
    const last = rows.at(-1)!;
    cursor = { createdAt: last.keysetTimestamp, id: last.keysetId };
  }
}

/** What "¿Quién consultó este CUI o NIT?" lists: each query of the identifier, without the identifiers themselves. */
export interface IdentifierLookup {
  recordId: number;
  createdAt: Date;
  integrationId: number;
  integrationNombre: string;
  lookup: QueryRecord['lookup'];
  httpStatus: number;
  /** Made with one of `linkedKeys` (the person's other identifier), not with the identifier asked about. */
  byLinkedIdentifier: boolean;
}

/**
 * Every recorded query of one identifier (any spelling; the NITs of batches included), and of the
 * search keys in `linkedKeys` (the same person's other identifiers), newest first, at most
 * `limit`, each record once: the console's identifier search, so it walks the same index.
 */
export async function listIdentifierLookups(identifier: string, limit: number, linkedKeys: string[] = []): Promise<IdentifierLookup[]> {
  const linked = new Set(linkedKeys);
  const lookups: IdentifierLookup[] = [];
  const seen = new Map<number, IdentifierLookup>();
  for await (const rows of iterateRecordRows<Omit<IdentifierLookup, 'byLinkedIdentifier'> & { matchedKey: string }>(
    { identificador: identifier },
    {
      recordId: queryRecords.id,
      createdAt: queryRecords.createdAt,
      integrationId: queryRecords.integrationId,
      integrationNombre: integrations.nombre,
      lookup: queryRecords.lookup,
      httpStatus: queryRecords.httpStatus,
      matchedKey: queryRecordIdentifiers.identifier,
    },
    { limit, alsoSearchKeys: linkedKeys },
  )) {
    for (const { matchedKey, ...row } of rows) {
      // A record made with both of a person's identifiers matches twice, side by side in the order:
      // listed once, as made with the identifier asked about.
      const byLinkedIdentifier = linked.has(matchedKey);
      const listed = seen.get(row.recordId);
      if (listed) {
        listed.byLinkedIdentifier &&= byLinkedIdentifier;
        continue;
      }
      const lookup = { ...row, byLinkedIdentifier };
      seen.set(row.recordId, lookup);
      lookups.push(lookup);
    }
  }
  return lookups;
}

export interface RecordDetail {
  record: ConsoleRecord;
  /** The hold and its capture or void: what the query cost and why. */
  ledger: LedgerEntry[];
}

export async function findRecordDetail(id: number): Promise<RecordDetail | undefined> {
  return recordDetailWhere(eq(queryRecords.id, id));
}

/**
 * The detail of the record with this request id, only when it is `integrationId`'s (the portal):
 * another integration's record is not read at all, so it is answered exactly as an id no record has.
 * One probe of query_records_request_id_unique.
 */
export async function findIntegrationRecordDetail(integrationId: number, requestId: string): Promise<RecordDetail | undefined> {
  return recordDetailWhere(and(eq(queryRecords.requestId, requestId), eq(queryRecords.integrationId, integrationId))!);
}

async function recordDetailWhere(condition: SQL): Promise<RecordDetail | undefined> {
  const database = await db();
  const [row] = await database
    .select({ record: queryRecords, integrationNombre: integrations.nombre })
    .from(queryRecords)
    .innerJoin(integrations, eq(integrations.id, queryRecords.integrationId))
    .where(condition);
  if (!row) return undefined;
  const record = { ...openRecord(row.record), integrationNombre: row.integrationNombre };
  // Ledger rows of this request sit within minutes of the record (the hold before the source call,
  // a sweeper's void at most a couple of minutes after): for each kind a query has,
  // one short range of ledger_entries_kind_idx (integration, kind, created_at); a receipt's charge too.
  const around = 10 * 60_000;
  const ledger = await database
    .select()
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.integrationId, record.integrationId),
        inArray(ledgerEntries.kind, ['hold', 'capture', 'void', 'constancia']),
        between(ledgerEntries.createdAt, new Date(record.createdAt.getTime() - around), new Date(record.createdAt.getTime() + around)),
        eq(ledgerEntries.requestId, record.requestId),
      ),
    )
    .orderBy(asc(ledgerEntries.id));
  return { record, ledger };
}
