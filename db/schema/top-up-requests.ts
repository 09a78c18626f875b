import { sql } from 'drizzle-orm';
import { bigint, check, customType, index, integer, pgEnum, pgTable, text, timestamp, date, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { integrations } from './integrations';
import { ledgerEntries } from './ledger-entries';
import { portalUsers } from './portal-users';

export const topUpRequestState = pgEnum('top_up_request_state', ['pending', 'approved', 'rejected']);
export type TopUpRequestState = (typeof topUpRequestState.enumValues)[number];

// A deposit or transfer an integrator reports in the portal (issue 34, point 3): nothing moves
// money until an administrator approves it, and then the top-up's ledger entry is written in the
// same transaction as the state change (lib/top-ups). A rejected request keeps its row (the reason
// is what the integrator reads) and frees its bank reference for a corrected report.
export const topUpRequests = pgTable(
  'top_up_requests',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    reportedBy: integer('reported_by')
      .notNull()
      .references(() => portalUsers.id),
    // A code of lib/top-ups/banks.ts.
    bank: text('bank').notNull(),
    // As typed, for the people; normalized (trimmed, upper case, no spaces or hyphens) for the uniqueness.
    reference: text('reference').notNull(),
    normalizedReference: text('normalized_reference').notNull(),
    depositDate: date('deposit_date', { mode: 'string' }).notNull(),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    state: topUpRequestState('state').notNull().default('pending'),
    // The administrator's reason for a rejection (required then), shown to the integrator.
    reason: text('reason'),
    // Who decided (an audit actor's text) and when; null while pending.
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    // The top-up the approval wrote.
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }).references(() => ledgerEntries.id),
    createdAt: createdAt(),
  },
  (table) => [
    // A bank reference is credited at most once, under any concurrency: a second report of it is
    // refused while one is pending or approved, by this index and not only by a read before the
    // insert (docs/decisions.md, "Top-up requests").
    uniqueIndex('top_up_requests_bank_reference_unique').on(table.bank, table.normalizedReference).where(sql`${table.state} <> 'rejected'`),
    // The portal's list of an integration's requests, newest first.
    index('top_up_requests_integration_idx').on(table.integrationId, table.createdAt.desc(), table.id.desc()),
    // The console's "Recargas pendientes" (oldest first) and its navigation badge's count.
    index('top_up_requests_pending_idx').on(table.createdAt, table.id).where(sql`${table.state} = 'pending'`),
    check('top_up_requests_amount_positive', sql`${table.amountCentavos} > 0`),
    check('top_up_requests_decision', sql`(${table.state} = 'pending') = (${table.decidedAt} is null)`),
    check('top_up_requests_approved_entry', sql`(${table.state} = 'approved') = (${table.ledgerEntryId} is not null)`),
    check('top_up_requests_rejected_reason', sql`${table.state} <> 'rejected' or ${table.reason} is not null`),
  ],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

// The slip (a photo or PDF of the deposit), apart from the request so lists never read its bytes.
// In PostgreSQL, where every instance reads it; never on one instance's disk.
export const topUpSlips = pgTable('top_up_slips', {
  requestId: integer('request_id')
    .primaryKey()
    .references(() => topUpRequests.id),
  // Checked by its first bytes (lib/top-ups/slips.ts), not by what the browser declared.
  contentType: text('content_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  content: bytea('content').notNull(),
});

export type TopUpRequest = typeof topUpRequests.$inferSelect;
export type TopUpSlip = typeof topUpSlips.$inferSelect;
