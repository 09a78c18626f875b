import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { purgeExpiredConstancias, type ConstanciaPurge } from '@/lib/core/constancias/retention';
import { database } from '@/db/client';
import { recordsCsvStreamFrom } from '@/lib/core/records/csv';
import { purgeExpiredSearchReferences } from '@/lib/core/personal-data/search-references';
import { purgeOldSubmissions } from '@/lib/core/submissions/claim';
import { purgeExpiredRequestTraces } from '@/lib/core/request-traces/read';
import { requestTraceSettings } from '@/lib/core/request-traces/settings';
import { bulkSettings } from '@/lib/flows/bulk/settings';
import { purgeExpiredBulkJobs } from '@/lib/flows/bulk/retention';
import { retentionCutoff } from '@/lib/core/records/retention-cutoff';
import { dropRecordMonthsBefore, ensureRecordMonths, monthStart, recordsArePartitioned } from '@/lib/core/records/partitions';

const BATCH_ROWS = 5_000;

export interface PurgeOptions {
  now?: Date;
  /** When set, the records are first written there as gzipped CSV; nothing is purged if that fails. */
  exportDir?: string;
  months?: number;
  batchRows?: number;
  /** Pause between batches, so the purge never competes for long with live traffic. */
  pauseMs?: number;
}

export interface PurgeResult {
  cutoff: Date;
  /**
   * Records older than this are gone: the start of the cutoff's month on a partitioned table (whole
   * months are dropped, the month the cutoff falls in is kept until it is whole), else the cutoff.
   */
  keptFrom: Date;
  /** Query records deleted. */
  purged: number;
  /** The months whose partitions were dropped (none on an unpartitioned table). */
  monthsDropped: Date[];
  /** Months ahead that got their partitions in this run. */
  monthsAdded: number;
  exportFile?: string;
  /** Alert deliveries deleted, with their attempts. */
  alertDeliveriesPurged: number;
  /** Constancias whose text, or whose row, went (lib/core/constancias/retention.ts). */
  constancias: ConstanciaPurge;
}

/**
 * Deletes what is kept only for the retention period and is older than its cutoff: the query
 * records with their search keys, and the alert deliveries (their attempts go with them). Query
 * records partitioned by month (db/migrations/0066) go a whole month at a time, once the month has
 * wholly passed the cutoff: its partitions are detached and dropped, no row is deleted, so a record
 * lives between QUERY_RECORD_RETENTION_MONTHS and one month more (docs/decisions.md, "Query records
 * partitioned by month"). The same run first makes sure the months ahead have partitions. On a table
 * not yet partitioned, and for the alert deliveries, rows are deleted oldest first in batches of a
 * few thousand, each one short statement. Rollups, statements and the ledger are kept. With an
 * export directory, the query records go to one file per run first
 * (query-records-before-<boundary>.csv.gz), written under a temporary name and renamed when
 * complete; if that fails nothing is deleted.
 */
export async function purgeExpiredRecords(options: PurgeOptions = {}): Promise<PurgeResult> {
  const cutoff = retentionCutoff(options.now, options.months);
  const handle = await database();
  const partitioned = await recordsArePartitioned();
  const monthsAdded = partitioned ? await ensureRecordMonths() : 0;
  const keptFrom = partitioned ? monthStart(cutoff) : cutoff;
  const [oldest] = await handle.rows<{ id: string | number }>(sql`select id from query_records where created_at < ${keptFrom.toISOString()}::timestamptz limit 1`);
  const exportFile = oldest && options.exportDir ? await exportRecordsBefore(keptFrom, options.exportDir) : undefined;
  let purged = 0;
  let monthsDropped: Date[] = [];
  if (partitioned) ({ records: purged, months: monthsDropped } = await dropRecordMonthsBefore(keptFrom));
  else if (oldest) purged = await deleteCreatedBefore('query_records', cutoff, options);
  const alertDeliveriesPurged = await deleteCreatedBefore('alert_deliveries', cutoff, options);
  // Form sending keys are needed for a day at most (lib/core/submissions).
  await purgeOldSubmissions(options.now);
  // Request traces, a few days (lib/core/request-traces).
  await purgeExpiredRequestTraces(requestTraceSettings().REQUEST_TRACE_RETENTION_DAYS, options.now);
  // Bulk jobs' results, BULK_RESULT_RETENTION_DAYS after the job ended (lib/flows/bulk).
  await purgeExpiredBulkJobs(bulkSettings().BULK_RESULT_RETENTION_DAYS, options.now);
  // And a search's identifier behind its reference, an hour (lib/core/personal-data/search-references.ts).
  await purgeExpiredSearchReferences(options.now);
  // A person's NIT-CUI link goes with the last record that could have shown it: its last sighting
  // is moved on at most daily (lib/core/records/write.ts), so a day more than the records.
  await handle.rows(sql`delete from identifier_links where last_seen_at < ${keptFrom.toISOString()}::timestamptz - interval '1 day'`);
  // Constancias: their text with the records, their rows with each integration's proof retention.
  const constancias = await purgeExpiredConstancias(keptFrom, options.now, { batchRows: options.batchRows, pauseMs: options.pauseMs });
  return { cutoff, keptFrom, purged, monthsDropped, monthsAdded, exportFile, alertDeliveriesPurged, constancias };
}

/** Deletes the table's rows created before the cutoff, oldest first, one batch per statement. */
async function deleteCreatedBefore(table: 'query_records' | 'alert_deliveries', cutoff: Date, options: PurgeOptions): Promise<number> {
  const handle = await database();
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const name = sql.identifier(table);
  let deleted = 0;
  for (;;) {
    const rows = await handle.rows<{ id: string | number }>(sql`
      delete from ${name}
       where id in (select id from ${name}
                     where created_at < ${cutoff.toISOString()}::timestamptz
                     order by created_at, id
                     limit ${batchRows}::integer)
      returning id`);
    deleted += rows.length;
    if (rows.length < batchRows) return deleted;
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
}

async function exportRecordsBefore(cutoff: Date, directory: string): Promise<string> {
  fs.mkdirSync(directory, { recursive: true });
  const name = `query-records-before-${cutoff.toISOString().slice(0, 13)}h.csv.gz`;
  const file = path.join(directory, name);
  const partial = `${file}.partial`;
  let failure: unknown;
  const csv = recordsCsvStreamFrom({ createdAt: cutoff.toISOString(), id: 0 }, (error) => (failure = error));
  await pipeline(Readable.fromWeb(csv as never), createGzip(), fs.createWriteStream(partial));
  if (failure) throw failure;
  fs.renameSync(partial, file);
  return file;
}
