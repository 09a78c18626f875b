import { ledgerActorSql } from '@/lib/vocabulary/actor-labels';
import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import type { POSTED_KINDS } from '@/db/schema';
import { csvHeader, csvLineSql, csvTextStream, type CsvColumn } from '@/lib/platform/csv/csv';
import { GUATEMALA_OFFSET_HOURS, startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { HISTORY_KIND_LABELS } from '@/lib/vocabulary/labels';
import { CURRENCY } from '@/lib/platform/money';
import { decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';
import { isPosted } from './checkpoints';

// The balance history as people read it: one row per posted movement (a top-up, an adjustment,
// a charged query), each with the balance after it. Holds in flight are listed apart; voids are
// not movements at all (ledger-entries.ts, posted_centavos).

export type PostedKind = (typeof POSTED_KINDS)[number];

/** Filters of the history, read from the URL (lib/presentation/history-filters.ts: the page, its CSV export and the CLI share them). */
export interface HistoryFilters {
  tipo?: PostedKind;
  desde?: string;
  hasta?: string;
}

export interface HistoryRow {
  id: number;
  kind: PostedKind;
  /** Posted money: positive adds to the balance, negative takes from it. */
  amountCentavos: number;
  balanceAfterCentavos: number;
  createdAt: Date;
  actor: string;
  note: string | null;
  /** The charged query (captures). */
  queryRecordId: number | null;
  /** The audit entry of a top-up or adjustment made by a person, and where it sits in the audit list. */
  auditId: number | null;
  auditCursor: string | null;
  /** The FEL invoice of a top-up (a sale), if one was written. */
  invoiceId: number | null;
}

export interface HistoryPage {
  rows: HistoryRow[];
  older?: string;
  newer?: string;
}

export interface HeldInFlight {
  holds: number;
  centavos: number;
}

export const HISTORY_PAGE_SIZE = 50;

/** The conditions shared by the page and the export: one integration's posted entries, filtered. */
function historyConditions(integrationId: number, filters: HistoryFilters): SQL {
  const conditions: SQL[] = [sql`e.integration_id = ${integrationId}::integer`];
  conditions.push(filters.tipo ? sql`e.kind = ${filters.tipo}::ledger_entry_kind` : isPosted('e'));
  if (filters.desde) conditions.push(sql`e.created_at >= ${startOfGuatemalanDay(filters.desde).toISOString()}::timestamptz`);
  if (filters.hasta) conditions.push(sql`e.created_at < ${startOfNextGuatemalanDay(filters.hasta).toISOString()}::timestamptz`);
  return sql.join(conditions, sql` and `);
}

/**
 * The posted balance right after entry `e`: the last hourly checkpoint before its hour (one probe
 * of ledger_hourly_balances' key) plus the posted entries from that checkpoint up to `e` (an
 * index-only range of ledger_entries_posted_idx, at most the hour's entries plus the hours not
 * checkpointed yet). Every column is qualified: the subqueries read the same table as the outer
 * query.
 */
const BALANCE_AFTER_E = sql`
  coalesce(base.closing_centavos, 0) + (
    select coalesce(sum(p.posted_centavos), 0) from ledger_entries p
     where p.integration_id = e.integration_id and ${isPosted('p')}
       and p.created_at >= coalesce(base.hour + interval '1 hour', '-infinity'::timestamptz)
       and (p.created_at, p.id) <= (e.created_at, e.id))`;

const BASE_CHECKPOINT_OF_E = sql`
  left join lateral (
    select c.hour, c.closing_centavos from ledger_hourly_balances c
     where c.integration_id = e.integration_id
       and c.hour < date_bin('1 hour', e.created_at, timestamptz '2000-01-01 00:00:00+00')
     order by c.hour desc limit 1) base on true`;

interface HistoryQueryRow extends Record<string, unknown> {
  id: string | number;
  kind: PostedKind;
  posted_centavos: string | number;
  balance_after: string | number;
  created_ms: string | number;
  cursor_at: string;
  actor: string;
  note: string | null;
  query_record_id: string | number | null;
  audit_id: string | number | null;
  audit_at: string | null;
  invoice_id: string | number | null;
}

/**
 * One page of the history, newest first (`after`) or the page before (`before`): a backward or
 * forward scan of ledger_entries_posted_idx (or, filtered by kind, ledger_entries_kind_idx) from
 * the cursor, each row with its balance.
 */
export async function listHistoryPage(
  integrationId: number,
  filters: HistoryFilters,
  position: { after?: string; before?: string } = {},
  pageSize = HISTORY_PAGE_SIZE,
): Promise<HistoryPage> {
  const before = decodeCursor(position.before);
  const after = before ? undefined : decodeCursor(position.after);
  const direction = before ? 'newer' : 'older';
  const rows = await fetchHistory(integrationId, filters, before ?? after, direction, pageSize + 1);
  if (direction === 'newer') {
    const hasNewer = rows.length > pageSize;
    const page = hasNewer ? rows.slice(1) : rows;
    return { rows: page.map(toHistoryRow), newer: hasNewer ? cursorOf(page[0]) : undefined, older: cursorOf(page.at(-1)) };
  }
  const hasOlder = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  return { rows: page.map(toHistoryRow), older: hasOlder ? cursorOf(page.at(-1)) : undefined, newer: after ? cursorOf(page[0]) : undefined };
}

async function fetchHistory(
  integrationId: number,
  filters: HistoryFilters,
  cursor: KeysetCursor | undefined,
  direction: 'older' | 'newer',
  limit: number,
): Promise<HistoryQueryRow[]> {
  const rows = await (await database()).rows<HistoryQueryRow>(historyQuery(integrationId, filters, cursor, direction, limit));
  return direction === 'older' ? rows : rows.reverse();
}

/** The SQL of one history page (exported for the plan tests, which EXPLAIN it). */
export function historyQuery(integrationId: number, filters: HistoryFilters, cursor: KeysetCursor | undefined, direction: 'older' | 'newer', limit: number): SQL {
  const position = cursor
    ? direction === 'older'
      ? sql`and (e.created_at, e.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)`
      : sql`and (e.created_at, e.id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)`
    : sql``;
  const order = direction === 'older' ? sql`e.created_at desc, e.id desc` : sql`e.created_at asc, e.id asc`;
  return sql`
    select e.id, e.kind, e.posted_centavos, e.actor, e.note, e.query_record_id, e.audit_id,
           extract(epoch from e.created_at) * 1000 as created_ms,
           to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
           (select to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from audit_log a where a.id = e.audit_id) as audit_at,
           (select i.id from invoices i where i.ledger_entry_id = e.id order by i.id desc limit 1) as invoice_id,
           ${BALANCE_AFTER_E} as balance_after
      from (select * from ledger_entries e where ${historyConditions(integrationId, filters)} ${position} order by ${order} limit ${limit}::integer) e
      ${BASE_CHECKPOINT_OF_E}
     order by ${order}`;
}

function cursorOf(row: HistoryQueryRow | undefined): string | undefined {
  return row ? encodeCursor({ createdAt: row.cursor_at, id: Number(row.id) }) : undefined;
}

function toHistoryRow(row: HistoryQueryRow): HistoryRow {
  const auditId = row.audit_id === null ? null : Number(row.audit_id);
  return {
    id: Number(row.id),
    kind: row.kind,
    amountCentavos: Number(row.posted_centavos),
    balanceAfterCentavos: Number(row.balance_after),
    createdAt: new Date(Number(row.created_ms)),
    actor: row.actor,
    note: row.note,
    queryRecordId: row.query_record_id === null ? null : Number(row.query_record_id),
    auditId,
    // The audit list starts right at this entry when given a cursor just past it.
    auditCursor: auditId !== null && row.audit_at ? encodeCursor({ createdAt: row.audit_at, id: auditId + 1 }) : null,
    invoiceId: row.invoice_id === null ? null : Number(row.invoice_id),
  };
}

/** Holds placed and not settled yet (lookups in flight): money held, not yet moved. */
export async function heldInFlight(integrationId: number): Promise<HeldInFlight> {
  const [row] = await (await database()).rows<{ holds: string | number; centavos: string | number }>(sql`
    select count(*) as holds, coalesce(sum(-h.amount_centavos), 0) as centavos
      from ledger_open_holds o join ledger_entries h on h.id = o.hold_id
     where h.integration_id = ${integrationId}::integer`);
  return { holds: Number(row?.holds ?? 0), centavos: Number(row?.centavos ?? 0) };
}

const CSV_BATCH = 5_000;

const KIND_LABEL_SQL = (column: SQL) =>
  sql.join(
    [sql`case ${column}`, ...Object.entries(HISTORY_KIND_LABELS).map(([kind, label]) => sql`when ${kind}::ledger_entry_kind then ${label}::text`), sql`end`],
    sql` `,
  );

const HISTORY_CSV_COLUMNS: readonly CsvColumn[] = [
  { header: 'id', number: sql`w.id` },
  { header: 'fecha_utc', text: sql`to_char(w.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` },
  { header: 'fecha_guatemala', text: sql`to_char(w.created_at at time zone 'UTC' + make_interval(hours => ${GUATEMALA_OFFSET_HOURS}::integer), 'YYYY-MM-DD HH24:MI:SS')` },
  { header: 'movimiento', text: KIND_LABEL_SQL(sql`w.kind`) },
  { header: 'monto', number: sql`centavos_decimal(w.posted_centavos)` },
  { header: 'saldo', number: sql`centavos_decimal(w.balance_after)` },
  { header: 'moneda', text: sql`${CURRENCY}::text` },
  { header: 'nota', text: sql`w.note` },
  { header: 'quien', text: ledgerActorSql(sql`w.actor`) },
  { header: 'consulta', number: sql`w.query_record_id` },
  { header: 'auditoria', number: sql`w.audit_id` },
];

/**
 * The history as CSV, newest first, with the balance after each row. The export walks every
 * posted entry of the range in batches, each batch's balances following on from the previous
 * batch's (one checkpoint lookup for the whole file), and writes the rows of the kind asked for.
 */
export function historyCsvStream(integrationId: number, filters: HistoryFilters, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  return csvTextStream(csvHeader(HISTORY_CSV_COLUMNS), historyLines(integrationId, filters), onError);
}

async function* historyLines(integrationId: number, filters: HistoryFilters): AsyncGenerator<string[]> {
  const walk: HistoryFilters = { desde: filters.desde, hasta: filters.hasta };
  const [newest] = await fetchHistory(integrationId, walk, undefined, 'older', 1);
  if (!newest) return;
  let balanceAfterNext = Number(newest.balance_after);
  let cursor: KeysetCursor | undefined;
  const handle = await database();
  const line = csvLineSql(HISTORY_CSV_COLUMNS);
  for (;;) {
    const position = cursor ? sql`and (e.created_at, e.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)` : sql``;
    const rows = await handle.rows<{ line: string | null; id: string | number; cursor_at: string; posted_centavos: string | number; balance_after: string | number }>(sql`
      select case when ${filters.tipo ? sql`w.kind = ${filters.tipo}::ledger_entry_kind` : sql`true`} then ${line} end as line,
             w.id, w.cursor_at, w.posted_centavos, w.balance_after
        from (
          select e.*, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
                 (${balanceAfterNext}::bigint - coalesce(sum(e.posted_centavos) over (order by e.created_at desc, e.id desc rows between unbounded preceding and 1 preceding), 0))::bigint as balance_after
            from (select * from ledger_entries e where ${historyConditions(integrationId, walk)} ${position}
                   order by e.created_at desc, e.id desc limit ${CSV_BATCH}::integer) e
        ) w
       order by w.created_at desc, w.id desc`);
    if (rows.length === 0) return;
    const lines = rows.flatMap((row) => (row.line === null ? [] : [row.line]));
    if (lines.length > 0) yield lines;
    if (rows.length < CSV_BATCH) return;
    const last = rows.at(-1)!;
    balanceAfterNext = Number(last.balance_after) - Number(last.posted_centavos);
    cursor = { createdAt: last.cursor_at, id: Number(last.id) };
  }
}
