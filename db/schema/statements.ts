import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';

/**
 * Monthly statements as they were issued: the figures are computed once from the ledger and the
 * records and stored, so a statement reads the same every time it is downloaded, and a later
 * correction can only appear as an adjustment in a later month (lib/statements).
 */
export const monthlyStatements = pgTable(
  'monthly_statements',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    // The Guatemalan calendar month, YYYY-MM.
    month: text('month').notNull(),
    // The statement's number for its integration: 1 for its first, whatever month that covers.
    // Given when issued and never changed (it is printed on the PDF), so issuing an earlier month
    // later gives it the next number, not a smaller one.
    number: integer('number').notNull(),
    figures: jsonb('figures').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // One statement per integration and month, found by both.
    uniqueIndex('monthly_statements_integration_month_unique').on(table.integrationId, table.month),
    uniqueIndex('monthly_statements_integration_number_unique').on(table.integrationId, table.number),
    check('monthly_statements_month_format', sql`${table.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/**
 * Each reconciliation of the ledger (lib/billing/verify.ts): when, over what, and the differences
 * found. The job reports; it never changes money.
 */
export const ledgerVerifications = pgTable(
  'ledger_verifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // 'all', or one integration's id.
    scope: text('scope').notNull(),
    trigger: text('trigger').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }).notNull(),
    integrationsChecked: integer('integrations_checked').notNull(),
    ok: boolean('ok').notNull(),
    differences: jsonb('differences').notNull(),
  },
  // The console shows the latest run.
  (table) => [index('ledger_verifications_started_idx').on(table.startedAt)],
);

export type MonthlyStatement = typeof monthlyStatements.$inferSelect;
export type LedgerVerification = typeof ledgerVerifications.$inferSelect;
