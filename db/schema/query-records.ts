import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { LOOKUP_KINDS } from './lookups';

/**
 * A failure as the column holds it. Its full type (RecordFailure, lib/core/records/failure.ts) is the
 * domain's, which table definitions do not import; the code that reads records narrows it there.
 */
export interface StoredRecordFailure {
  kind: string;
}

export { CATALOG_LOOKUPS, isCatalogLookup, LOOKUP_FLAG_COLUMNS, LOOKUP_KINDS, type CatalogLookup, type LookupKind } from './lookups';

export const lookupKind = pgEnum('lookup_kind', LOOKUP_KINDS);

// Partitioned by month on created_at (docs/decisions.md, "Query records partitioned by month"): the
// partitions, the per-month unique index on request_id and the mirror used while an existing table is
// converted are made by migration 0066 and the functions it defines, which drizzle cannot declare.
// This file stays the columns' source of truth; the primary key includes created_at because a
// partitioned table's keys must include its partition key.
//
// Every index below is ascending: a backward scan of (…, created_at, id) yields exactly
// `ORDER BY created_at DESC, id DESC`, the console's newest-first order, and a forward scan its
// reverse (paging back). An index built `DESC NULLS LAST` (drizzle's `.desc()`) matches neither,
// because `DESC` alone means NULLS FIRST, and the planner would sort the whole range instead.
export const queryRecords = pgTable(
  'query_records',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    responseTimeMs: integer('response_time_ms').notNull(),
    // Identifiers as sent, sealed (AES-256-GCM under PERSONAL_DATA_KEY, lib/core/sealing/envelope.ts);
    // for /rtu/nits the NITs of the batch joined by commas, sealed as one value. Search goes through
    // query_record_identifiers, which holds keyed hashes of them normalized (search-keys.ts).
    nit: text('nit'),
    cui: text('cui'),
    chargedCentavos: bigint('charged_centavos', { mode: 'number' }).notNull().default(0),
    // Tariff in force when the query ran; null for lookups that are not billed.
    tariffCentavos: bigint('tariff_centavos', { mode: 'number' }),
    // The source's own detail (English or the upstream's text, identifiers scrubbed), for engineers.
    errorMessage: text('error_message'),
    // What went wrong, as data: a RecordFailure (lib/core/records/failure.ts), which the console explains
    // in Spanish. Null on a success and on records written before it was kept (migration 0016).
    failure: jsonb('failure').$type<StoredRecordFailure>(),
    // A 200 that carried no data (a catalog record whose every field is null, no person, no NIT
    // found): true; a 200 with data: false; null when not a 200 or written before it was kept.
    answerEmpty: boolean('answer_empty'),
    // The catalogs' request options: whether `actualizado` was true, whether `date_of_birth` was sent
    // (never the date itself: it is personal data). Null for the registries and older records.
    actualizado: boolean('actualizado'),
    dateOfBirthSent: boolean('date_of_birth_sent'),
    // Unique within each month (an index per partition, which the writes' ON CONFLICT DO NOTHING uses);
    // across months, writes that can repeat check the previous month first (lib/core/records/write.ts).
    requestId: text('request_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'query_records_pkey', columns: [table.id, table.createdAt] }),
    // The unfiltered list, date ranges, the CSV export and the retention purge.
    index('query_records_created_idx').on(table.createdAt, table.id),
    // Filter by integration, and the integration page's latest queries.
    index('query_records_integration_created_idx').on(table.integrationId, table.createdAt, table.id),
    // Filter by lookup.
    index('query_records_lookup_created_idx').on(table.lookup, table.createdAt, table.id),
    // Filter by exact status (all the 502s of the day).
    index('query_records_status_created_idx').on(table.httpStatus, table.createdAt, table.id),
  ],
);

/**
 * The identifiers of each record, normalized (normalize_tax_identifier: no spaces or hyphens,
 * upper case, no leading zeros), one row per distinct identifier: a NIT and a CUI of a catalog
 * query, or every NIT of an /rtu/nits batch. Written in the same statement as the record.
 * created_at repeats the record's so one index answers "newest records of this identifier", and
 * so the rows are partitioned by the same months as their records and dropped with them (hence no
 * foreign key: a month's identifiers go when its records' partition goes).
 */
export const queryRecordIdentifiers = pgTable(
  'query_record_identifiers',
  {
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    identifier: text('identifier').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'query_record_identifiers_pkey', columns: [table.recordId, table.identifier, table.createdAt] }),
    // The console's "NIT o CUI" search, newest first, by keyset (backward scan).
    index('query_record_identifiers_search_idx').on(table.identifier, table.createdAt, table.recordId),
  ],
);

export type QueryRecord = typeof queryRecords.$inferSelect;
export type NewQueryRecord = typeof queryRecords.$inferInsert;
