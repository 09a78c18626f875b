import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { queryRecords } from './query-records';

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
    queryRecordId: bigint('query_record_id', { mode: 'number' }).references(() => queryRecords.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // Ledger history per integration, newest first.
    index('ledger_entries_integration_created_idx').on(table.integrationId, table.createdAt.desc(), table.id.desc()),
    // A hold is settled at most once: the lookup and the crash sweeper cannot both settle it.
    uniqueIndex('ledger_entries_hold_settled_once').on(table.holdId).where(sql`${table.holdId} is not null`),
    // The sweeper looks for old holds only.
    index('ledger_entries_holds_idx').on(table.createdAt).where(sql`${table.kind} = 'hold'`),
  ],
);

export type LedgerEntry = typeof ledgerEntries.$inferSelect;
export type NewLedgerEntry = typeof ledgerEntries.$inferInsert;
