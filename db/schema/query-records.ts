import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';

export const lookupKind = pgEnum('lookup_kind', ['renap', 'rtu_nits', 'cui_nit', 'rtu', 'omisos']);
export type LookupKind = (typeof lookupKind.enumValues)[number];

export const queryRecords = pgTable(
  'query_records',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    responseTimeMs: integer('response_time_ms').notNull(),
    // Identifiers as sent; for /rtu/nits the NITs of the batch joined by commas.
    nit: text('nit'),
    cui: text('cui'),
    chargedCentavos: bigint('charged_centavos', { mode: 'number' }).notNull().default(0),
    // Tariff in force when the query ran; null for lookups that are not billed.
    tariffCentavos: bigint('tariff_centavos', { mode: 'number' }),
    errorMessage: text('error_message'),
    requestId: text('request_id').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // Console keyset pagination walks (created_at, id) newest first, with or without filters.
    index('query_records_created_idx').on(table.createdAt.desc(), table.id.desc()),
    // Filter "by integration" (and the integration detail page's latest queries).
    index('query_records_integration_created_idx').on(table.integrationId, table.createdAt.desc(), table.id.desc()),
    // Filter "by lookup" and the dashboard's per-lookup series.
    index('query_records_lookup_created_idx').on(table.lookup, table.createdAt.desc(), table.id.desc()),
    // Filter "by status" (e.g. all 502s of the day).
    index('query_records_status_created_idx').on(table.httpStatus, table.createdAt.desc(), table.id.desc()),
    // Filter "by identifier": support staff search by the NIT or CUI a customer gives them.
    index('query_records_nit_idx').on(table.nit).where(sql`${table.nit} is not null`),
    index('query_records_cui_idx').on(table.cui).where(sql`${table.cui} is not null`),
  ],
);

export type QueryRecord = typeof queryRecords.$inferSelect;
export type NewQueryRecord = typeof queryRecords.$inferInsert;
