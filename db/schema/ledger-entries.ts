import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';

export const ledgerEntryKind = pgEnum('ledger_entry_kind', ['top_up', 'adjustment', 'hold', 'capture', 'void']);
export type LedgerEntryKind = (typeof ledgerEntryKind.enumValues)[number];

// Append-only: rows are inserted, never updated or deleted. The integration's balance equals
// the sum of amount_centavos over its entries. A hold subtracts the tariff; its capture adds 0
// (the hold becomes final); its void adds the tariff back.
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    kind: ledgerEntryKind('kind').notNull(),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    actor: text('actor').notNull(),
    note: text('note'),
    // For capture and void: the hold they settle.
    holdId: bigint('hold_id', { mode: 'number' }).references((): AnyPgColumn => ledgerEntries.id),
    // For holds, captures and voids: the request the money was held for.
    requestId: text('request_id'),
    // For captures and voids written with their record: that query record. Not a foreign key:
    // the ledger is kept for good, while records are purged after QUERY_RECORD_RETENTION_MONTHS.
    queryRecordId: bigint('query_record_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // Ledger history per integration, newest first (a backward scan gives created_at DESC, id DESC).
    index('ledger_entries_integration_created_idx').on(table.integrationId, table.createdAt, table.id),
    // A hold is settled at most once: the lookup and the crash sweeper cannot both settle it.
    uniqueIndex('ledger_entries_hold_settled_once').on(table.holdId).where(sql`${table.holdId} is not null`),
  ],
);

/**
 * Holds not settled yet: a row is added in the hold's statement and removed in the settlement's,
 * so the crash sweeper probes the few holds in flight instead of every hold ever placed. The
 * hold's own ledger row stays the truth for its amount and age.
 */
export const ledgerOpenHolds = pgTable('ledger_open_holds', {
  holdId: bigint('hold_id', { mode: 'number' })
    .primaryKey()
    .references(() => ledgerEntries.id),
});

export type LedgerEntry = typeof ledgerEntries.$inferSelect;
export type NewLedgerEntry = typeof ledgerEntries.$inferInsert;
