import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { storableRecord } from './storable';
import type { QueryRecordInput } from './types';

/**
 * What goes with every query record, in the record's own statement: its identifiers normalized
 * for search (query_record_identifiers) and a row for the rollup job (query_rollup_queue). Both
 * read the CTE `record (id, created_at, charged_centavos)` that the caller's statement defines,
 * so the record, its search keys and its place in the rollups are written together or not at all.
 * Takes a record already through storableRecord (which fills in `identifiers`).
 */
export function recordCompanions(record: QueryRecordInput): SQL {
  const sent = (record.identifiers ?? []).map((identifier) => sql`${identifier}::text`);
  return sql`
    identifiers as (
      insert into query_record_identifiers (record_id, identifier, created_at)
      select distinct record.id, normalize_tax_identifier(sent.identifier), record.created_at
        from record, unnest(array[${sql.join(sent, sql`, `)}]::text[]) as sent(identifier)
       where normalize_tax_identifier(sent.identifier) is not null
    ),
    queued as (
      insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
      select ${record.integrationId}::integer, ${record.lookup}::lookup_kind, ${record.httpStatus}::smallint,
             ${record.responseTimeMs}::integer, record.charged_centavos, record.created_at
        from record
    )`;
}

/** Records a lookup that is not billed (person registry, RTU by NIT): one statement, once per request id. */
export async function recordUnbilledQuery(input: QueryRecordInput): Promise<void> {
  const record = storableRecord(input);
  await (await database()).rows(sql`
    with record as (
      insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, error_message, request_id)
      values (${record.integrationId}::integer, ${record.lookup}::lookup_kind, ${record.httpStatus}::smallint, ${record.responseTimeMs}::integer,
              ${record.nit}::text, ${record.cui}::text, 0, null, ${record.errorMessage}::text, ${record.requestId}::text)
      -- Written again from the journal (lib/record-journal) after a reply that never came: once.
      on conflict (request_id) do nothing
      returning id, created_at, charged_centavos
    ),
    ${recordCompanions(record)}
    select 1 as written`);
}
