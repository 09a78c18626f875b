import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { recordsCsvStreamFrom } from '@/lib/records/csv';
import { retentionCutoff } from './policy';

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
  purged: number;
  exportFile?: string;
}

/**
 * Deletes the query records older than the retention cutoff (their identifiers go with them, by
 * cascade), oldest first, in batches of a few thousand rows: each batch is one short statement,
 * so no lock is held for long and live lookups keep writing. Rollups, statements and the ledger
 * are kept. With an export directory, the records go to one file per run first
 * (query-records-before-<cutoff>.csv.gz), written under a temporary name and renamed when complete.
 */
export async function purgeExpiredRecords(options: PurgeOptions = {}): Promise<PurgeResult> {
  const cutoff = retentionCutoff(options.now, options.months);
  const handle = await database();
  const [oldest] = await handle.rows<{ id: string | number }>(sql`select id from query_records where created_at < ${cutoff.toISOString()}::timestamptz limit 1`);
  if (!oldest) return { cutoff, purged: 0 };

  let exportFile: string | undefined;
  if (options.exportDir) exportFile = await exportRecordsBefore(cutoff, options.exportDir);

  let purged = 0;
  for (;;) {
    const rows = await handle.rows<{ id: string | number }>(sql`
      delete from query_records
       where id in (select id from query_records
                     where created_at < ${cutoff.toISOString()}::timestamptz
                     order by created_at, id
                     limit ${options.batchRows ?? BATCH_ROWS}::integer)
      returning id`);
    purged += rows.length;
    if (rows.length < (options.batchRows ?? BATCH_ROWS)) return { cutoff, purged, exportFile };
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
