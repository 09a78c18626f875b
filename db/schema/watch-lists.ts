import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { integrations } from './integrations';

// A watch list (Vigilancia): an integration's saved list of NITs, run as an
// ordinary bulk job on its schedule (lib/flows/watch-lists), telling only what changed since the last
// run. The integrator knows it by `public_id` (vig_ and 20 random hex, like a job's lote_ id).
// Deleted outright when the integrator deletes it: its entries and changes (personal data) go with
// it, and its runs stay as ordinary jobs until their own retention.
export const watchLists = pgTable(
  'watch_lists',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    publicId: text('public_id').notNull(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // Only catalogs whose answer has a state that changes (docs/decisions.md, "Vigilancia").
    catalog: text('catalog', { enum: ['rtu', 'omisos'] }).notNull(),
    schedule: text('schedule', { enum: ['mensual', 'semanal'] }).notNull(),
    state: text('state', { enum: ['activa', 'en_pausa'] }).notNull().default('activa'),
    // Its runs' found entries each get a constancia de consulta (where the integration has them enabled).
    constancias: boolean('constancias').notNull().default(false),
    totalEntries: integer('total_entries').notNull(),
    // When its next run is due; the scheduler claims lists whose instant has passed.
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }).notNull(),
    // How many runs it has started: a run's number names the run's job and its changes.
    runs: integer('runs').notNull().default(0),
    // How many changes its runs have found, moved by the transaction that writes them
    // (lib/flows/watch-lists/runs.ts): every read of the list shows it without counting its history.
    changesTotal: integer('changes_total').notNull().default(0),
    // The Idempotency-Key it was created with (hashed as a job's is) and what was sent under it (an
    // HMAC of the name, catalog, schedule and NITs): a POST sent again after a lost answer finds this
    // list instead of saving a second one that would run, and charge, on every schedule.
    idempotencyKeyHash: text('idempotency_key_hash'),
    requestHash: text('request_hash'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('watch_lists_public_id_unique').on(table.publicId),
    uniqueIndex('watch_lists_idempotency_key_unique').on(table.integrationId, table.idempotencyKeyHash).where(sql`${table.idempotencyKeyHash} is not null`),
    // The scheduler's question: which active lists are due.
    index('watch_lists_due_idx').on(table.nextRunAt).where(sql`${table.state} = 'activa'`),
    // An integration's lists, newest first (API and portal).
    index('watch_lists_integration_created_idx').on(table.integrationId, table.createdAt, table.id),
    check('watch_lists_catalog', sql`${table.catalog} in ('rtu', 'omisos')`),
    check('watch_lists_schedule', sql`${table.schedule} in ('mensual', 'semanal')`),
    check('watch_lists_state', sql`${table.state} in ('activa', 'en_pausa')`),
  ],
);

// One row per NIT of the list, in the order sent. The identifier and the last known state of its
// watched fields are sealed with the personal-data key, as a job's items are. `snapshot_sealed` is
// null until a run answered it (the baseline).
export const watchListEntries = pgTable(
  'watch_list_entries',
  {
    watchListId: integer('watch_list_id')
      .notNull()
      .references(() => watchLists.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    identifierSealed: text('identifier_sealed').notNull(),
    snapshotSealed: text('snapshot_sealed'),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [primaryKey({ columns: [table.watchListId, table.position] })],
);

// What a run found changed for one entry: one row per watched field that changed, before and after
// sealed (they describe a taxpayer). Named by the run's number and the entry's position.
export const watchListChanges = pgTable(
  'watch_list_changes',
  {
    watchListId: integer('watch_list_id')
      .notNull()
      .references(() => watchLists.id, { onDelete: 'cascade' }),
    run: integer('run').notNull(),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['registro', 'omiso', 'cobro_coactivo', 'estado_rtu'] }).notNull(),
    // The run's job as the integrator knows it (the job may be purged before the change is).
    jobPublicId: text('job_public_id').notNull(),
    beforeSealed: text('before_sealed').notNull(),
    afterSealed: text('after_sealed').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.watchListId, table.run, table.position, table.kind] })],
);

export type WatchList = typeof watchLists.$inferSelect;
export type WatchListChangeKind = (typeof watchListChanges.kind.enumValues)[number];
