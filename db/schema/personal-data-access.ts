import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgEnum, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { consoleUsers } from './console-users';

/**
 * What a console user did with personal data (lib/core/personal-data/access-log.ts):
 *   reveal          a console user showed one record's identifiers, with a reason
 *   view            an administrator opened a record's detail page (identifiers in full; entries
 *                   written when it masked them for administrators too are kept)
 *   export          records with identifiers in full, with a reason: the console's CSV (filters,
 *                   row count) or the CLI's records:list
 *   subject_report  "¿Quién consultó este CUI o NIT?" produced (page, CSV or PDF)
 */
export const personalDataAccessKind = pgEnum('personal_data_access_kind', ['reveal', 'view', 'export', 'subject_report']);
export type PersonalDataAccessKind = (typeof personalDataAccessKind.enumValues)[number];

/**
 * The access log of personal data. It never holds an identifier in clear: it points at the record
 * (kept after the record is purged, so no foreign key) and, for exports and reports, keeps the
 * identifier searched for only masked.
 */
export const personalDataAccess = pgTable(
  'personal_data_access',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // The console user; null for an operator's CLI command, named by `actor` (cli:<system user>).
    userId: integer('user_id').references(() => consoleUsers.id),
    actor: text('actor'),
    kind: personalDataAccessKind('kind').notNull(),
    recordId: bigint('record_id', { mode: 'number' }),
    // Required for a reveal: a short text or a support ticket number.
    reason: text('reason'),
    // For exports: the filters (identifier masked), the date range and the rows sent; for reports: the masked identifier, format and rows.
    details: jsonb('details'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // The page lists newest first by keyset (backward scans), unfiltered or by user or by record.
    index('personal_data_access_created_idx').on(table.createdAt, table.id),
    index('personal_data_access_user_idx').on(table.userId, table.createdAt, table.id),
    index('personal_data_access_record_idx').on(table.recordId, table.createdAt, table.id),
    // An owner's "Actividad" in the portal: the entries of its integration's people, whose actor
    // is 'integrator:<user> <integration> …' (lib/core/audit/audit.ts), by the integration's id.
    index('personal_data_access_integrator_idx')
      .on(sql`split_part(${table.actor}, ' ', 2)`, table.createdAt, table.id)
      .where(sql`${table.actor} like 'integrator:%'`),
  ],
);

export type PersonalDataAccess = typeof personalDataAccess.$inferSelect;
