import { bigint, boolean, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row (id 1): where the protection of query records' personal data stands (lib/core/personal-data).
 * `clear_records_remain` is true from the migration that introduced encryption until a full pass of
 * `personal-data:reseal` found no record left in clear: until then the console's search also looks
 * for the clear search key. `reseal_*` is the pass under way, so an interrupted one resumes after
 * the last record it finished, as long as the keys it was sealing to are still the current ones.
 */
export const personalDataState = pgTable('personal_data_state', {
  id: smallint('id').primaryKey(),
  clearRecordsRemain: boolean('clear_records_remain').notNull(),
  resealAfterId: bigint('reseal_after_id', { mode: 'number' }),
  resealKeyIds: text('reseal_key_ids'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
