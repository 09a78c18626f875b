import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, index, integer, pgEnum, pgTable, text, timestamp, date, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { integrations } from './integrations';
import { ledgerEntries } from './ledger-entries';
import { portalUsers } from './portal-users';

export const topUpRequestState = pgEnum('top_up_request_state', ['pending', 'approved', 'rejected', 'cancelled']);
export type TopUpRequestState = (typeof topUpRequestState.enumValues)[number];

// A deposit or transfer an integrator reports in the portal: nothing moves
// money until an administrator approves it, and then the top-up's ledger entry is written in the
// same transaction as the state change (lib/flows/top-ups). A rejected request keeps its row (the reason
// is what the integrator reads) and frees its bank reference for a corrected report; so does one its
// reporter (or an owner) cancelled while it was pending.
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
    // A code of lib/platform/guatemala/banks.ts.
    bank: text('bank').notNull(),
    // As typed (trimmed, on one line), for the people.
    reference: text('reference').notNull(),
    // What makes two reports one deposit: the reference's letters and digits only, upper case and
    // without accents ("dup 777", "DUP-777" and "DUP.777" are all DUP777). Computed by PostgreSQL,
    // so every writer keys a reference alike; referenceKey (lib/flows/top-ups) is the same rule.
    referenceKey: text('reference_key')
      .notNull()
      .generatedAlwaysAs(sql`upper(regexp_replace(normalize("reference", NFD), '[^A-Za-z0-9]', '', 'g'))`),
    // The key before reference_key (spaces and case folded, punctuation kept). Only instances of the
    // previous release still write it, during a rolling deploy; nothing reads it: drop it later.
    normalizedReference: text('normalized_reference'),
    // True for a report that already shared its bank and key with another when references started
    // to be compared by letters and digits only: left out of the unique index, so the migration
    // kept both, and listed by `top-ups:duplicates` for the administrators to decide.
    legacyDuplicate: boolean('legacy_duplicate').notNull().default(false),
    depositDate: date('deposit_date', { mode: 'string' }).notNull(),
    // As reported; what was credited may differ (approvedAmountCentavos).
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    state: topUpRequestState('state').notNull().default('pending'),
    // The administrator's reason for a rejection (required then), shown to the integrator.
    reason: text('reason'),
    // What an approval credited: the reported amount unless the administrator saw another on the
    // bank's statement, and then with approvalNote saying why (both shown to the integrator). Null
    // for approvals from before it was kept, which credited the reported amount.
    approvedAmountCentavos: bigint('approved_amount_centavos', { mode: 'number' }),
    approvalNote: text('approval_note'),
    // Who decided (an audit actor's text: an administrator, or the portal user who cancelled) and when; null while pending.
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
    uniqueIndex('top_up_requests_bank_reference_key_unique')
      .on(table.bank, table.referenceKey)
      .where(sql`${table.state} in ('pending', 'approved') and not ${table.legacyDuplicate}`),
    // The few earlier duplicates, found without reading the table (the console's pending list asks each time).
    index('top_up_requests_legacy_duplicate_idx').on(table.bank, table.referenceKey).where(sql`${table.legacyDuplicate}`),
    // The portal's list of an integration's requests, newest first.
    index('top_up_requests_integration_idx').on(table.integrationId, table.createdAt.desc(), table.id.desc()),
    // The console's "Recargas pendientes" (oldest first) and its navigation badge's count.
    index('top_up_requests_pending_idx').on(table.createdAt, table.id).where(sql`${table.state} = 'pending'`),
    // The console's history of decided requests (approved, rejected, cancelled), newest decision first.
    index('top_up_requests_decided_idx').on(table.decidedAt.desc(), table.id.desc()).where(sql`${table.decidedAt} is not null`),
    check('top_up_requests_amount_positive', sql`${table.amountCentavos} > 0`),
    check('top_up_requests_approved_amount_positive', sql`${table.approvedAmountCentavos} is null or ${table.approvedAmountCentavos} > 0`),
    // Crediting another amount than reported says why.
    check('top_up_requests_approved_amount_note', sql`${table.approvedAmountCentavos} is null or ${table.approvedAmountCentavos} = ${table.amountCentavos} or ${table.approvalNote} is not null`),
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
  // Checked by its first bytes (lib/flows/top-ups/slips.ts), not by what the browser declared.
  contentType: text('content_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  content: bytea('content').notNull(),
});

export type TopUpRequest = typeof topUpRequests.$inferSelect;
export type TopUpSlip = typeof topUpSlips.$inferSelect;
