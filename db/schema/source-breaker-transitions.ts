import { bigint, index, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The upstream sources' circuit breakers as each instance saw them (lib/reactions/status-page/recorder.ts):
// every opening and closing, so the public status page (/estado) and every instance see the same
// incidents. A breaker lives in one instance's memory; an incident lasts while any instance has
// the source's breaker open (lib/reactions/status-page/incidents.ts).
export const breakerTransition = pgEnum('breaker_transition', ['opened', 'closed']);
export type BreakerTransition = (typeof breakerTransition.enumValues)[number];

export const sourceBreakerTransitions = pgTable(
  'source_breaker_transitions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The instance whose breaker changed (lib/platform/jobs/lease.ts INSTANCE_NAME); never shown publicly. */
    instance: text('instance').notNull(),
    /** renap, rtu or catalog (lib/sources/guard.ts SourceName). */
    source: text('source').notNull(),
    transition: breakerTransition('transition').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    // For an opening: the last time its instance said the breaker was still open. An instance that
    // stops saying so (stopped or crashed while open) no longer holds the incident open.
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    // "Transitions since this instant" (the page's window), and openings still confirmed since then.
    index('source_breaker_transitions_at_idx').on(table.at),
    index('source_breaker_transitions_confirmed_idx').on(table.confirmedAt),
  ],
);

export type SourceBreakerTransition = typeof sourceBreakerTransitions.$inferSelect;
