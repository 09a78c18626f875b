import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { LATENCY_BUCKET_BOUNDS_MS, LATENCY_BUCKET_COLUMNS } from '@/db/schema';
import { GUATEMALA_OFFSET_HOURS } from '@/lib/platform/time/guatemala-time';

const BATCH_ROWS = 20_000;

// "count(*) filter (where response_time_ms > previous and response_time_ms <= bound)" per bucket.
const bucketCounts = sql.raw(
  LATENCY_BUCKET_COLUMNS.map((column, index) => {
    const lower = index === 0 ? null : LATENCY_BUCKET_BOUNDS_MS[index - 1];
    const upper = LATENCY_BUCKET_BOUNDS_MS[index];
    const conditions = [lower == null ? null : `response_time_ms > ${lower}`, upper === undefined ? null : `response_time_ms <= ${upper}`].filter(Boolean);
    return `count(*) filter (where ${conditions.join(' and ')}) as ${column}`;
  }).join(',\n           '),
);
const bucketColumns = sql.raw(LATENCY_BUCKET_COLUMNS.join(', '));
const addMeasures = (table: string) =>
  sql.raw(
    ['queries', 'charged_centavos', 'response_time_ms_total', ...LATENCY_BUCKET_COLUMNS]
      .map((column) => `${column} = ${table}.${column} + excluded.${column}`)
      .join(', '),
  );

const dimensions = {
  query_hourly_rollups: ['hour', 'lookup', 'http_status'],
  query_hourly_rollups_by_integration: ['integration_id', 'hour', 'lookup', 'http_status'],
  query_daily_rollups: ['day', 'lookup', 'http_status'],
  query_daily_rollups_by_integration: ['integration_id', 'day', 'lookup', 'http_status'],
} as const;

/** "insert into <table> … select … from batch group by … on conflict … add": one rollup table. */
function addBatchTo(table: keyof typeof dimensions): SQL {
  const keys = dimensions[table].join(', ');
  return sql`
    ${sql.raw(table)} as (
      insert into ${sql.raw(table)} as t (${sql.raw(keys)}, queries, charged_centavos, response_time_ms_total, ${bucketColumns})
      select ${sql.raw(keys)}, count(*), sum(charged_centavos), sum(response_time_ms), ${bucketCounts}
        from batch group by ${sql.raw(keys)}
      on conflict (${sql.raw(keys)}) do update set ${addMeasures('t')}
    )`;
}

// Guatemala's calendar day of an instant, at its fixed UTC offset (no time zone data involved).
const guatemalanDay = sql.raw(`(created_at at time zone 'UTC' + interval '${GUATEMALA_OFFSET_HOURS} hours')::date`);

/**
 * Moves one batch of queued records into the rollups and deletes it, in one statement: a row is
 * added exactly once whatever fails or runs concurrently (rows queued by transactions that commit
 * later are simply not in this batch). Hours are whole UTC hours (date_bin, independent of the
 * session's time zone); Guatemala's fixed UTC-6 makes them whole Guatemalan hours too.
 * Returns how many records it rolled up.
 */
export async function rollUpQueuedRecords(batchRows = BATCH_ROWS): Promise<number> {
  const handle = await database();
  const [row] = await handle.rows<{ rolled_up: number | string }>(sql`
    with batch as (
      delete from query_rollup_queue
       where ctid = any(array(select ctid from query_rollup_queue limit ${batchRows}::integer for update skip locked))
      returning integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at,
                date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00') as hour, ${guatemalanDay} as day
    ),
    ${sql.join(
      (Object.keys(dimensions) as Array<keyof typeof dimensions>).map((table) => addBatchTo(table)),
      sql`,`,
    )},
    activity as (
      insert into integration_activity as t (integration_id, last_query_at)
      select integration_id, max(created_at) from batch group by integration_id
      on conflict (integration_id) do update set last_query_at = greatest(t.last_query_at, excluded.last_query_at)
    )
    select count(*) as rolled_up from batch`);
  return Number(row?.rolled_up ?? 0);
}

/** Rolls up batches until the queue is empty or `budgetMs` has passed; returns the records rolled up. */
export async function rollUpQueue(budgetMs = 5_000): Promise<number> {
  const deadline = performance.now() + budgetMs;
  let total = 0;
  for (;;) {
    const rolledUp = await rollUpQueuedRecords();
    total += rolledUp;
    if (rolledUp < BATCH_ROWS || performance.now() > deadline) return total;
  }
}
