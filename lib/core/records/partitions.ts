import { sql } from 'drizzle-orm';
import { database } from '@/db/client';

/**
 * How many months ahead of the current one (by the database's clock, UTC) always have partitions.
 * An insert into a month without one fails, so the daily job and every migration run keep this
 * many ready: an instance whose jobs stopped for up to three months still writes.
 */
export const MONTHS_AHEAD = 3;

/** The start of the UTC calendar month an instant falls in: the partitions' unit. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function addMonths(month: Date, months: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + months, 1));
}

const day = (month: Date) => month.toISOString().slice(0, 10);

/** Whether query_records is partitioned (a large deployment stays unpartitioned until `records:partition`). */
export async function recordsArePartitioned(): Promise<boolean> {
  const [row] = await (await database()).rows<{ partitioned: boolean }>(sql`
    select exists (select 1 from pg_partitioned_table where partrelid = 'query_records'::regclass) as partitioned`);
  return row?.partitioned === true;
}

/**
 * Makes sure every month from `from` to `to` has its partitions; returns how many months it added.
 * By default from the current month to MONTHS_AHEAD months after it, by the database's clock (the
 * one `created_at` defaults to). A new database has only those: a record written with an older
 * `created_at` (a test moving records back, an import) needs its month added first with `from`.
 * Nothing on an unpartitioned table. Attaching takes no lock that stops lookups (db/migrations/0066).
 */
export async function ensureRecordMonths(options: { from?: Date; to?: Date } = {}): Promise<number> {
  const thisMonth = sql`date_trunc('month', now() at time zone 'UTC')`;
  const from = options.from ? sql`${day(monthStart(options.from))}::date` : sql`${thisMonth}::date`;
  const to = options.to ? sql`${day(monthStart(options.to))}::date` : sql`(${thisMonth} + make_interval(months => ${MONTHS_AHEAD}::integer))::date`;
  const [row] = await (await database()).rows<{ added: number }>(sql`select query_records_ensure_months(${from}, ${to}) as added`);
  return Number(row?.added ?? 0);
}

export interface RecordMonth {
  /** The month's first instant (UTC). */
  month: Date;
  records: string;
  identifiers: string;
  /** A detach interrupted half-way (DETACH … CONCURRENTLY): finished by the next drop. */
  detachPending: boolean;
}

const PARTITION_NAME = /^query_records_(\d{4})_(\d{2})$/;

/** The months that have partitions, oldest first. */
export async function recordMonths(): Promise<RecordMonth[]> {
  const rows = await (await database()).rows<{ name: string; pending: boolean }>(sql`
    select c.relname as name, i.inhdetachpending as pending
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'query_records'::regclass
     order by c.relname`);
  return rows.flatMap((row) => {
    const match = PARTITION_NAME.exec(row.name);
    if (!match) return [];
    const suffix = `${match[1]}_${match[2]}`;
    return [{ month: new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)), records: row.name, identifiers: `query_record_identifiers_${suffix}`, detachPending: row.pending }];
  });
}

export interface DroppedMonths {
  months: Date[];
  /** Records the dropped months held. */
  records: number;
}

/**
 * Detaches and drops every month that ended at or before `before` (a month's start): its records and
 * their search keys go whole, with no row deleted, no index to clean and nothing for vacuum. DETACH …
 * CONCURRENTLY waits for the queries reading the month instead of stopping the lookups behind it.
 */
export async function dropRecordMonthsBefore(before: Date): Promise<DroppedMonths> {
  const handle = await database();
  const dropped: DroppedMonths = { months: [], records: 0 };
  for (const month of await recordMonths()) {
    if (addMonths(month.month, 1).getTime() > before.getTime()) continue;
    const [count] = await handle.rows<{ n: string | number }>(sql`select count(*) as n from ${sql.identifier(month.records)}`);
    for (const [parent, child] of [['query_record_identifiers', month.identifiers], ['query_records', month.records]] as const) {
      const attached = await handle.rows(sql`select 1 from pg_inherits where inhrelid = to_regclass(${child}::text) and inhparent = ${parent}::regclass`);
      if (attached.length > 0) {
        const pending = parent === 'query_records' ? month.detachPending : await detachPending(child);
        await handle.rows(sql`alter table ${sql.identifier(parent)} detach partition ${sql.identifier(child)} ${pending ? sql`finalize` : sql`concurrently`}`);
      }
      await handle.rows(sql`drop table if exists ${sql.identifier(child)}`);
    }
    dropped.months.push(month.month);
    dropped.records += Number(count!.n);
  }
  return dropped;
}

async function detachPending(child: string): Promise<boolean> {
  const [row] = await (await database()).rows<{ pending: boolean }>(sql`select inhdetachpending as pending from pg_inherits where inhrelid = to_regclass(${child}::text)`);
  return row?.pending === true;
}

/**
 * Whether a write failed because its month has no partition: only possible after three months in
 * which no instance started, no migration ran and every daily job failed. The writer adds the
 * month then (lib/core/record-journal), so the next write is taken.
 */
export function isMissingMonth(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  const text = `${(error as Error | undefined)?.message ?? ''} ${(cause as Error | undefined)?.message ?? ''}`;
  return /no partition of relation "query_record/.test(text);
}
