import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { compiledPerShape, compiledWithCompanion, type StatementCompanion } from '@/db/compiled-statement';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { sealRecord, type LookupSeals, type SealedQueryRecord } from '@/lib/core/records/sealed';
import { storedFailure } from './failure';
import type { QueryRecordInput } from './types';

/**
 * The shape of a record's statement: how many distinct search keys it stores, and "+link" when it
 * links a NIT and a CUI. Its statements are compiled once per shape (db/compiled-statement.ts).
 */
export type RecordShape = `${number}` | `${number}+link`;

export function recordShape(record: SealedQueryRecord): RecordShape {
  return record.link ? `${record.searchKeys.length}+link` : `${record.searchKeys.length}`;
}

/**
 * A sealed record's values, under the names of the placeholders its statements use: recordFacts,
 * recordCompanions, and the statements that insert the record itself.
 */
export function recordValues(record: SealedQueryRecord): Record<string, unknown> {
  const values: Record<string, unknown> = {
    integrationId: record.integrationId,
    lookup: record.lookup,
    httpStatus: record.httpStatus,
    responseTimeMs: record.responseTimeMs,
    nit: record.nit,
    cui: record.cui,
    errorMessage: record.errorMessage,
    requestId: record.requestId,
    // A sealed record from a journal written by an older release has none of these four: null.
    failure: storedFailure(record.failure),
    answerEmpty: record.answerEmpty ?? null,
    actualizado: record.actualizado ?? null,
    dateOfBirthSent: record.dateOfBirthSent ?? null,
  };
  record.searchKeys.forEach((key, index) => (values[`searchKey${index}`] = key));
  if (record.link) {
    values.linkNitKey = record.link.nitKey;
    values.linkCuiKey = record.link.cuiKey;
    values.linkPairSealed = record.link.pairSealed;
  }
  return values;
}

/**
 * What goes with every query record, in the record's own statement: its identifiers' search keys
 * (query_record_identifiers: keyed hashes, computed in the app so the key never reaches SQL) and a
 * row for the rollup job (query_rollup_queue). Both read the CTE `record (id, created_at,
 * charged_centavos)` that the caller's statement defines, so the record, its search keys and its
 * place in the rollups are written together or not at all. Its values are recordValues' placeholders.
 */
export function recordCompanions(shape: RecordShape): SQL {
  const keyCount = Number.parseInt(shape, 10);
  const keys = Array.from({ length: keyCount }, (_, index) => sql`${sql.placeholder(`searchKey${index}`)}::text`);
  return sql`
    identifiers as (
      insert into query_record_identifiers (record_id, identifier, created_at)
      select record.id, sent.identifier, record.created_at
        from record, unnest(array[${sql.join(keys, sql`, `)}]::text[]) as sent(identifier)
    ),
    queued as (
      insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
      select ${sql.placeholder('integrationId')}::integer, ${sql.placeholder('lookup')}::lookup_kind, ${sql.placeholder('httpStatus')}::smallint,
             ${sql.placeholder('responseTimeMs')}::integer, record.charged_centavos, record.created_at
        from record
    )${shape.endsWith('+link') ? sql`,
    ${linkCompanion()}` : sql``}`;
}

/**
 * The NIT and CUI the answer gave together (identifier_links), with the record. A pair seen
 * within the last day is only read (no insert is tried, so no row lock: parallel lookups of one
 * person do not queue on it); an older one has its last sighting moved on, so it is written at
 * most about once a day per person.
 */
function linkCompanion(): SQL {
  const [nitKey, cuiKey] = [sql.placeholder('linkNitKey'), sql.placeholder('linkCuiKey')];
  return sql`
    linked as (
      insert into identifier_links as l (nit_key, cui_key, pair_sealed, first_seen_at, last_seen_at)
      select ${nitKey}::text, ${cuiKey}::text, ${sql.placeholder('linkPairSealed')}::text, record.created_at, record.created_at
        from record
       where not exists (select 1 from identifier_links seen
                          where seen.nit_key = ${nitKey}::text and seen.cui_key = ${cuiKey}::text
                            and seen.last_seen_at >= record.created_at - interval '1 day')
      on conflict (nit_key, cui_key) do update set last_seen_at = greatest(l.last_seen_at, excluded.last_seen_at)
    )`;
}

/**
 * Whether no record of this request id was written in the last month. request_id is unique within a
 * month (an index per partition, which the insert's ON CONFLICT DO NOTHING uses, concurrent writes
 * included); a write repeated after a month boundary (a journal's replay of a record whose first
 * write committed just before midnight UTC on the last day) is caught here, by the same indexes.
 * Only the writes that can repeat one already committed ask it: on a lookup's own first write the
 * probe cost up to a sixth of the lookups' throughput (docs/decisions.md, "Query records partitioned by month").
 */
export function notRecordedYet(requestId: SQL | ReturnType<typeof sql.placeholder>): SQL {
  return sql`not exists (select 1 from query_records seen where seen.request_id = ${requestId}::text and seen.created_at >= now() - interval '1 month')`;
}

/**
 * The record's failure, empty-answer flag and catalog request options, as four SQL values in the
 * order of the columns failure, answer_empty, actualizado, date_of_birth_sent (recordValues').
 */
export function recordFacts(): SQL {
  return sql`${sql.placeholder('failure')}::jsonb, ${sql.placeholder('answerEmpty')}::boolean, ${sql.placeholder('actualizado')}::boolean, ${sql.placeholder('dateOfBirthSent')}::boolean`;
}

function unbilledRecordSql(shape: RecordShape, repeated: boolean, receipt?: StatementCompanion): SQL {
  return sql`
    with record as (
      insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, error_message,
                                 failure, answer_empty, actualizado, date_of_birth_sent, request_id)
      select ${sql.placeholder('integrationId')}::integer, ${sql.placeholder('lookup')}::lookup_kind, ${sql.placeholder('httpStatus')}::smallint,
             ${sql.placeholder('responseTimeMs')}::integer, ${sql.placeholder('nit')}::text, ${sql.placeholder('cui')}::text, 0, null,
             ${sql.placeholder('errorMessage')}::text, ${recordFacts()}, ${sql.placeholder('requestId')}::text
      ${repeated ? sql`where ${notRecordedYet(sql.placeholder('requestId'))}` : sql``}
      -- Written again from the journal (lib/core/record-journal) after a reply that never came: once.
      on conflict do nothing
      returning id, created_at, charged_centavos
    ),
    ${recordCompanions(shape)}${receipt ? sql`,
    ${receipt.fee(sql`0`)},
    ${receipt.cte},
    ${receipt.charge}` : sql``}
    select ${receipt ? receipt.written : sql`false`} as companion_written`;
}

const firstUnbilledRecordStatement = compiledWithCompanion((shape: RecordShape, receipt?: StatementCompanion) => unbilledRecordSql(shape, false, receipt));
const repeatedUnbilledRecordStatement = compiledPerShape((shape: RecordShape) => unbilledRecordSql(shape, true));

/**
 * Records a lookup that is not billed (person registry, RTU by NIT): one statement, once per request
 * id. Its NIT and CUI are stored encrypted (lib/core/personal-data); a sealed record (from the journal)
 * is written as it is.
 */
export async function recordUnbilledQuery(input: QueryRecordInput | SealedQueryRecord, seals?: LookupSeals, receipt?: StatementCompanion): Promise<void> {
  const record = sealRecord(input, personalDataKeys(), seals);
  const rows = await (await database()).compiled<{ companion_written: boolean }>(firstUnbilledRecordStatement(recordShape(record), receipt), { ...recordValues(record), ...receipt?.values });
  receipt?.committed?.(rows[0]?.companion_written === true);
}

/**
 * Writes again a record whose first write may have committed without the writer learning it (a
 * journal's replay, a registry intent its process left): nothing if its request id was recorded in
 * the last month, before a month boundary included.
 */
export async function recordUnbilledQueryAgain(input: QueryRecordInput | SealedQueryRecord): Promise<void> {
  const record = sealRecord(input, personalDataKeys());
  await (await database()).compiled(repeatedUnbilledRecordStatement(recordShape(record)), recordValues(record));
}
