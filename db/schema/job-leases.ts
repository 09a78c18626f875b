import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per periodic job (rollups, retention…): which instance holds it and until when, and
 * when it last started and finished. An instance runs a job only while it holds the lease and only when the
 * job is due, so a group of instances runs each job on its own schedule, once, and another
 * instance takes over when the holder dies (the lease expires).
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true, mode: 'date' }).notNull(),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true, mode: 'date' }),
});

/**
 * How far an incremental job has processed (the ledger's hourly checkpoints: every hour before
 * `through` is done), moved forward in the same transaction as the work it covers.
 */
export const jobWatermarks = pgTable('job_watermarks', {
  name: text('name').primaryKey(),
  through: timestamp('through', { withTimezone: true, mode: 'date' }).notNull(),
});
