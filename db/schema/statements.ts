import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';

/**
 * Monthly statements as they were issued: the figures are computed once from the ledger and the
 * records and stored, so a statement reads the same every time it is downloaded, and a later
 * correction can only appear as an adjustment in a later month (lib/flows/statements).
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
 * Each reconciliation of the ledger (lib/core/billing/verify.ts): when, over what, and the differences
 * found. The job reports; it never changes money. A run's row exists from its start and records
 * each finished check, so the console can show a run in progress; `heartbeat_at` moves while the
 * run's process lives, so a run whose process died reads as interrupted, not as running forever.
 */
export const ledgerVerifications = pgTable(
  'ledger_verifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // 'all', or one integration's id.
    scope: text('scope').notNull(),
    // 'job' (daily), 'cli' (ledger:verify) or 'console' ("Verificar ahora").
    trigger: text('trigger').notNull(),
    // Who started it: the audit actor of a console user or of the CLI; null for the daily job.
    startedBy: text('started_by'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    // Null while the run is in progress (or after its process died: see heartbeat_at).
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }),
    // Checks finished so far, out of steps_total; step_name is the check under way (Spanish, shown as is).
    stepsDone: integer('steps_done').notNull().default(0),
    stepsTotal: integer('steps_total').notNull().default(0),
    stepName: text('step_name'),
    integrationsChecked: integer('integrations_checked'),
    // Null until finished, and for a run that failed (failure says why, in Spanish).
    ok: boolean('ok'),
    failure: text('failure'),
    differences: jsonb('differences').notNull().default([]),
  },
  // The console shows the latest run.
  (table) => [index('ledger_verifications_started_idx').on(table.startedAt)],
);

export type MonthlyStatement = typeof monthlyStatements.$inferSelect;
export type LedgerVerification = typeof ledgerVerifications.$inferSelect;
