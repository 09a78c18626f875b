import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { csvHeader, csvTextStream } from '@/lib/platform/csv/csv';
import type { KeysetCursor } from '@/lib/platform/paging/keyset';
import { MASKED_RECORD_CSV_LINE, RECORD_CSV_COLUMNS, RECORD_CSV_LINE } from '@/lib/core/records/csv';
import { monthPeriod } from './figures';

const BATCH = 5_000;

/**
 * The charged queries of a statement's month as CSV, oldest first, in the records export's
 * columns: an integration's accountant can match every charge to a query. Walks the integration's
 * records of the month by keyset (query_records_integration_created_idx). The console's has the
 * identifiers in full (an administrator's logged export); the portal's masks them, as its people
 * (billing among them, who do not read the query records) are shown them.
 */
export function statementChargesCsvStream(
  integrationId: number,
  month: string,
  onError: (error: unknown) => void,
  identifiers: 'full' | 'masked' = 'full',
): ReadableStream<Uint8Array> {
  return csvTextStream(csvHeader(RECORD_CSV_COLUMNS), chargedLines(integrationId, month, identifiers === 'full' ? RECORD_CSV_LINE : MASKED_RECORD_CSV_LINE), onError);
}

async function* chargedLines(integrationId: number, month: string, line: typeof RECORD_CSV_LINE): AsyncGenerator<string[]> {
  const { from, until } = monthPeriod(month);
  const handle = await database();
  let cursor: KeysetCursor | undefined;
  for (;;) {
    const after = cursor ? sql`and (query_records.created_at, query_records.id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)` : sql``;
    const rows = await handle.rows<{ before: string; nit: string | null; cui: string | null; after: string; id: string | number; cursor_at: string }>(sql`
      select ${line.select.before} as before, query_records.nit, query_records.cui, ${line.select.after} as after, query_records.id,
             to_char(query_records.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
        from query_records join integrations on integrations.id = query_records.integration_id
       where query_records.integration_id = ${integrationId}::integer and query_records.charged_centavos > 0
         and query_records.created_at >= ${from.toISOString()}::timestamptz and query_records.created_at < ${until.toISOString()}::timestamptz
         ${after}
       order by query_records.created_at, query_records.id
       limit ${BATCH}::integer`);
    if (rows.length === 0) return;
    // The identifiers are decrypted in the app (lib/core/personal-data): the line is finished here.
    yield rows.map((row) => line.format(row));
    if (rows.length < BATCH) return;
    const last = rows.at(-1)!;
    cursor = { createdAt: last.cursor_at, id: Number(last.id) };
  }
}
