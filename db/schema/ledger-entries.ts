import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';

export const ledgerEntryKind = pgEnum('ledger_entry_kind', ['top_up', 'adjustment', 'hold', 'capture', 'void', 'constancia']);
export type LedgerEntryKind = (typeof ledgerEntryKind.enumValues)[number];

/**
 * Why the service itself gave a hold back, as a code in the row (lib/presentation/ledger-notes.ts
 * says it in words): the source was not asked (its breaker open or no capacity), the lookup stopped
 * before the source when the database did not confirm the hold, or the crash sweeper voided a hold
 * whose process ended. Entries written before the code keep those words in `note`.
 */
export const ledgerNoteCode = pgEnum('ledger_note_code', ['source_not_sent', 'hold_abandoned', 'hold_swept']);
export type LedgerNoteCode = (typeof ledgerNoteCode.enumValues)[number];

// Append-only: rows are inserted, never updated or deleted. The integration's balance equals
// the sum of amount_centavos over its entries. A hold subtracts the tariff; its capture adds 0
// (the hold becomes final); its void adds the tariff back.
//
// posted_centavos is the same money as people read it: a top-up or an adjustment moves its
// amount, a charged query (capture) moves minus the tariff its hold took, and holds and voids
// move nothing (a hold in flight is shown apart, a void never happened for the reader). So the
// sum of posted_centavos equals the balance plus the holds still in flight, and a history of
// posted entries has a running balance (lib/core/billing/history.ts). A receipt's charge
// (constancia) is posted as it is written, with its lookup's record.
export const POSTED_KINDS = ['top_up', 'adjustment', 'capture', 'constancia'] as const;
/** The kinds that move no posted money: a hold in flight and its void. */
export const UNPOSTED_KINDS = ['hold', 'void'] as const;
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    kind: ledgerEntryKind('kind').notNull(),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    postedCentavos: bigint('posted_centavos', { mode: 'number' }).notNull(),
    actor: text('actor').notNull(),
    note: text('note'),
    // A note the service writes, as a code (ledgerNoteCode); null on entries people wrote a note for.
    noteCode: ledgerNoteCode('note_code'),
    // For capture and void: the hold they settle.
    holdId: bigint('hold_id', { mode: 'number' }).references((): AnyPgColumn => ledgerEntries.id),
    // For holds, captures and voids: the request the money was held for.
    requestId: text('request_id'),
    // For captures and voids written with their record: that query record. Not a foreign key:
    // the ledger is kept for good, while records are purged after QUERY_RECORD_RETENTION_MONTHS.
    queryRecordId: bigint('query_record_id', { mode: 'number' }),
    // For top-ups and adjustments made by people: the audit row written in the same transaction.
    auditId: bigint('audit_id', { mode: 'number' }),
    // A top-up credited with no invoice, and why: 'invoicing_off' (the service did not invoice
    // then). Every other top-up has its invoice row; the books check (lib/core/billing/books.ts)
    // names a top-up with neither.
    noInvoiceReason: text('no_invoice_reason'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // The balance history (posted entries, newest first: a backward scan gives created_at DESC,
    // id DESC) and its running balance: posted_centavos in the key makes the range sums index-only.
    index('ledger_entries_posted_idx')
      .on(table.integrationId, table.createdAt, table.id, table.postedCentavos)
      // Said as the kinds it leaves out: a migration cannot name an enum value added in its own transaction.
      .where(sql`${table.kind} not in ('hold', 'void')`),
    // One kind of an integration's entries in order: the history filtered by kind, a month's
    // top-ups for a statement, the holds around a record.
    index('ledger_entries_kind_idx').on(table.integrationId, table.kind, table.createdAt, table.id),
    // A hold is settled at most once: the lookup and the crash sweeper cannot both settle it.
    uniqueIndex('ledger_entries_hold_settled_once').on(table.holdId).where(sql`${table.holdId} is not null`),
    // The top-ups credited before any instance decided whether to invoice: every start looks for
    // them (lib/core/invoices/sales.ts), so that look must not scan the ledger. Empty but for those.
    index('ledger_entries_awaiting_decision_idx').on(table.id).where(sql`${table.noInvoiceReason} = 'awaiting_decision'`),
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
  // The query record the hold sweeper writes if the lookup never settles (its instance died while
  // the source was being asked): sealed like any record, status 500, "resultado desconocido, sin
  // cobro" (lib/core/billing/holds.ts). Null for holds placed by older releases.
  recordIntent: jsonb('record_intent'),
});

/**
 * The posted balance of each integration at the end of each hour that moved money, kept by a job
 * (lib/core/billing/checkpoints.ts) for hours that ended at least a few minutes ago. A running balance
 * at any entry is the last checkpoint before its hour plus the posted entries since: at most an
 * hour of entries to add, at any depth of the history.
 */
export const ledgerHourlyBalances = pgTable(
  'ledger_hourly_balances',
  {
    integrationId: integer('integration_id').notNull(),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    // Posted money moved during the hour, and the posted balance when it ended.
    postedCentavos: bigint('posted_centavos', { mode: 'number' }).notNull(),
    closingCentavos: bigint('closing_centavos', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ name: 'ledger_hourly_balances_pkey', columns: [table.integrationId, table.hour] })],
);

export type LedgerEntry = typeof ledgerEntries.$inferSelect;
export type NewLedgerEntry = typeof ledgerEntries.$inferInsert;
