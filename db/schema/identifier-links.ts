import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A NIT and a CUI that one source answer gave together (a catalog's `nit` and `cui`, or RTU's
 * `persona.dpi`): the same person's two identifiers, so "¿Quién consultó?" can list the lookups
 * made with either. Searched by the records' keyed hashes, never in clear;
 * the pair is kept sealed only so a rotation of the search key can hash it again
 * (lib/core/personal-data/reseal.ts). Written with the record of the answer that showed it
 * (lib/core/records/write.ts), and deleted with the last records that could have shown it (retention).
 */
export const identifierLinks = pgTable(
  'identifier_links',
  {
    nitKey: text('nit_key').notNull(),
    cuiKey: text('cui_key').notNull(),
    // "<nit>\n<cui>", sealed (lib/core/sealing/envelope.ts, purpose identifier_link).
    pairSealed: text('pair_sealed').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    // Moved on at most daily: the retention job deletes links no kept record can have shown.
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.nitKey, table.cuiKey] }),
    index('identifier_links_cui_idx').on(table.cuiKey),
    index('identifier_links_last_seen_idx').on(table.lastSeenAt),
  ],
);
