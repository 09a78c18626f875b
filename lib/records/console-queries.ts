import { and, asc, between, desc, eq, gte, lt, not, or, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, ledgerEntries, queryRecords, type LedgerEntry, type QueryRecord } from '@/db/schema';
import { startOfGuatemalanDay } from '@/lib/console/time';
import type { RecordFilters } from './filters';

export type ConsoleRecord = QueryRecord & { integrationNombre: string };

/**
 * A position in the newest-first order of (created_at, id). The timestamp keeps PostgreSQL's
 * microseconds: a cursor rounded to JavaScript's milliseconds would skip or repeat rows.
 */
interface RecordCursor {
  createdAt: string;
  id: number;
}

export function encodeCursor(cursor: RecordCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string | undefined): RecordCursor | undefined {
  if (!text) return undefined;
  const [createdAt, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !/^\d+$/.test(id) || Number.isNaN(Date.parse(createdAt))) return undefined;
  return { createdAt, id: Number(id) };
}

// The exact instant as text, for cursors.
const cursorTimestamp = sql<string>`to_char(${queryRecords.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function filterConditions(filters: RecordFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.integracion !== undefined) conditions.push(eq(queryRecords.integrationId, filters.integracion));
  if (filters.consulta) conditions.push(eq(queryRecords.lookup, filters.consulta));
  if (filters.estado === 'success') conditions.push(between(queryRecords.httpStatus, 200, 299));
  else if (filters.estado === 'client_error') conditions.push(and(not(between(queryRecords.httpStatus, 200, 299)), lt(queryRecords.httpStatus, 500))!);
  else if (filters.estado === 'source_error') conditions.push(gte(queryRecords.httpStatus, 500));
  else if (filters.estado) conditions.push(eq(queryRecords.httpStatus, Number(filters.estado)));
  if (filters.desde) conditions.push(gte(queryRecords.createdAt, startOfGuatemalanDay(filters.desde)));
  if (filters.hasta) {
    const dayAfter = new Date(startOfGuatemalanDay(filters.hasta).getTime() + 86_400_000);
    conditions.push(lt(queryRecords.createdAt, dayAfter));
  }
  // Exact matches, so the partial indexes on nit and cui answer it at any table size.
  if (filters.identificador) conditions.push(or(eq(queryRecords.nit, filters.identificador), eq(queryRecords.cui, filters.identificador))!);
  return conditions;
}

/**
 * One batch in newest-first order strictly after `cursor` (or from the newest), or, with
 * direction 'newer', the batch just before it. Keyset on (created_at, id) walks the matching
 * index from the cursor: every page costs the same at millions of rows; OFFSET would not.
 */
async function fetchBatch(
  filters: RecordFilters,
  cursor: RecordCursor | undefined,
  direction: 'older' | 'newer',
  limit: number,
): Promise<Array<ConsoleRecord & { cursor: string }>> {
  const conditions = filterConditions(filters);
  if (cursor) {
    const position = sql`(${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)`;
    conditions.push(
      direction === 'older'
        ? sql`(${queryRecords.createdAt}, ${queryRecords.id}) < ${position}`
        : sql`(${queryRecords.createdAt}, ${queryRecords.id}) > ${position}`,
    );
  }
  const order = direction === 'older' ? [desc(queryRecords.createdAt), desc(queryRecords.id)] : [asc(queryRecords.createdAt), asc(queryRecords.id)];
  const rows = await (await db())
    .select({ record: queryRecords, integrationNombre: integrations.nombre, cursorTimestamp })
    .from(queryRecords)
    .innerJoin(integrations, eq(integrations.id, queryRecords.integrationId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(...order)
    .limit(limit);
  const mapped = rows.map(({ record, integrationNombre, cursorTimestamp: createdAt }) => ({
    ...record,
    integrationNombre,
    cursor: encodeCursor({ createdAt, id: record.id }),
  }));
  return direction === 'older' ? mapped : mapped.reverse();
}

export interface RecordPage {
  rows: ConsoleRecord[];
  /** Cursor for the next page of older records, when there is one. */
  older?: string;
  /** Cursor for the previous page of newer records, when there is one. */
  newer?: string;
}

export const RECORDS_PAGE_SIZE = 50;

/** One page of the console's record list: `after` walks to older records, `before` back to newer. */
export async function listRecordsPage(
  filters: RecordFilters,
  position: { after?: string; before?: string },
  pageSize = RECORDS_PAGE_SIZE,
): Promise<RecordPage> {
  const before = decodeCursor(position.before);
  if (before) {
    const rows = await fetchBatch(filters, before, 'newer', pageSize + 1);
    const hasNewer = rows.length > pageSize;
    const page = hasNewer ? rows.slice(1) : rows;
    return { rows: page, newer: hasNewer ? page[0]?.cursor : undefined, older: page.at(-1)?.cursor };
  }
  const after = decodeCursor(position.after);
  const rows = await fetchBatch(filters, after, 'older', pageSize + 1);
  const hasOlder = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  return { rows: page, older: hasOlder ? page.at(-1)?.cursor : undefined, newer: after ? page[0]?.cursor : undefined };
}

/** Every matching record, newest first, in batches (for the CSV export). */
export async function* iterateRecords(filters: RecordFilters, batchSize = 1_000): AsyncGenerator<ConsoleRecord[]> {
  let cursor: RecordCursor | undefined;
  for (;;) {
    const batch = await fetchBatch(filters, cursor, 'older', batchSize);
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < batchSize) return;
    cursor = decodeCursor(batch.at(-1)!.cursor);
  }
}

export interface RecordDetail {
  record: ConsoleRecord;
  /** The hold and its capture or void: what the query cost and why. */
  ledger: LedgerEntry[];
}

export async function findRecordDetail(id: number): Promise<RecordDetail | undefined> {
  const database = await db();
  const [row] = await database
    .select({ record: queryRecords, integrationNombre: integrations.nombre })
    .from(queryRecords)
    .innerJoin(integrations, eq(integrations.id, queryRecords.integrationId))
    .where(eq(queryRecords.id, id));
  if (!row) return undefined;
  const record = { ...row.record, integrationNombre: row.integrationNombre };
  // Ledger rows of this request sit within minutes of the record (the hold before the source call,
  // a sweeper's void at most a couple of minutes after): a range on the integration's ledger index.
  const around = 10 * 60_000;
  const ledger = await database
    .select()
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.integrationId, record.integrationId),
        between(ledgerEntries.createdAt, new Date(record.createdAt.getTime() - around), new Date(record.createdAt.getTime() + around)),
        eq(ledgerEntries.requestId, record.requestId),
      ),
    )
    .orderBy(asc(ledgerEntries.id));
  return { record, ledger };
}
