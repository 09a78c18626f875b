import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { sealRecord, type IdentifierLink, type SealedQueryRecord } from '@/lib/personal-data/records';
import { storedFailure } from './failure';
import type { QueryRecordInput } from './types';

/**
 * What goes with every query record, in the record's own statement: its identifiers' search keys
 * (query_record_identifiers: keyed hashes, computed in the app so the key never reaches SQL) and a
 * row for the rollup job (query_rollup_queue). Both read the CTE `record (id, created_at,
 * charged_centavos)` that the caller's statement defines, so the record, its search keys and its
 * place in the rollups are written together or not at all. Takes a record already sealed.
 */
export function recordCompanions(record: SealedQueryRecord): SQL {
  const keys = record.searchKeys.map((key) => sql`${key}::text`);
  return sql`
    identifiers as (
      insert into query_record_identifiers (record_id, identifier, created_at)
      select record.id, sent.identifier, record.created_at
        from record, unnest(array[${sql.join(keys, sql`, `)}]::text[]) as sent(identifier)
    ),
    queued as (
      insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
      select ${record.integrationId}::integer, ${record.lookup}::lookup_kind, ${record.httpStatus}::smallint,
             ${record.responseTimeMs}::integer, record.charged_centavos, record.created_at
        from record
    )${record.link ? sql`,
    ${linkCompanion(record.link)}` : sql``}`;
}

/**
 * The NIT and CUI the answer gave together (identifier_links), with the record. A pair seen
 * within the last day is only read (no insert is tried, so no row lock: parallel lookups of one
 * person do not queue on it); an older one has its last sighting moved on, so it is written at
 * most about once a day per person.
 */
function linkCompanion(link: IdentifierLink): SQL {
  return sql`
    linked as (
      insert into identifier_links as l (nit_key, cui_key, pair_sealed, first_seen_at, last_seen_at)
      select ${link.nitKey}::text, ${link.cuiKey}::text, ${link.pairSealed}::text, record.created_at, record.created_at
        from record
       where not exists (select 1 from identifier_links seen
                          where seen.nit_key = ${link.nitKey}::text and seen.cui_key = ${link.cuiKey}::text
                            and seen.last_seen_at >= record.created_at - interval '1 day')
      on conflict (nit_key, cui_key) do update set last_seen_at = greatest(l.last_seen_at, excluded.last_seen_at)
    )`;
}

/**
 * The record's failure, empty-answer flag and catalog request options, as four SQL values in the
 * order of the columns failure, answer_empty, actualizado, date_of_birth_sent. A sealed record
 * from a journal written by an older release has none of them: they are stored as null.
 */
export function recordFacts(record: SealedQueryRecord): SQL {
  return sql`${storedFailure(record.failure)}::jsonb, ${record.answerEmpty ?? null}::boolean, ${record.actualizado ?? null}::boolean, ${record.dateOfBirthSent ?? null}::boolean`;
}

/**
 * Records a lookup that is not billed (person registry, RTU by NIT): one statement, once per request
 * id. Its NIT and CUI are stored encrypted (lib/personal-data); a sealed record (from the journal)
 * is written as it is.
 */
export async function recordUnbilledQuery(input: QueryRecordInput | SealedQueryRecord): Promise<void> {
  const record = sealRecord(input);
  await (await database()).rows(sql`
    with record as (
      insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, error_message,
                                 failure, answer_empty, actualizado, date_of_birth_sent, request_id)
      values (${record.integrationId}::integer, ${record.lookup}::lookup_kind, ${record.httpStatus}::smallint, ${record.responseTimeMs}::integer,
              ${record.nit}::text, ${record.cui}::text, 0, null, ${record.errorMessage}::text, ${recordFacts(record)}, ${record.requestId}::text)
      -- Written again from the journal (lib/record-journal) after a reply that never came: once.
      on conflict (request_id) do nothing
      returning id, created_at, charged_centavos
    ),
    ${recordCompanions(record)}
    select 1 as written`, { prepared: true });
}
