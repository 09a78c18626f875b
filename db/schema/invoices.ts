import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { integrations } from './integrations';
import { ledgerEntries } from './ledger-entries';

/**
 * pending: to be sent (or sent again after a confirmed not-found); indeterminate: sent without a
 * readable answer, settled by the certifier's lookup before anything is sent again; certified;
 * to_correct: the certifier refused the data (the receptor, say) and a person must fix it;
 * awaiting_receptor: a sale credited without a receptor SAT takes for its amount (consumidor final
 * from Q 2,500.00): never sent until the integration registers its NIT or CUI, then pending.
 */
export const invoiceState = pgEnum('invoice_state', ['pending', 'indeterminate', 'certified', 'to_correct', 'awaiting_receptor']);
export type InvoiceState = (typeof invoiceState.enumValues)[number];

/**
 * What became of a certified invoice since: a void or a credit note requested (under way) or done;
 * or its receptor corrected (correction_pending while its void or credit note is under way,
 * corrected once another invoice replaced it), which never moves the balance.
 * Null while it stands as certified. Kept on the invoice, by the statements that write its
 * reversal, so the console's list finds each standing in index order.
 */
export const invoiceReversalStanding = pgEnum('invoice_reversal_standing', ['void_pending', 'voided', 'credit_note_pending', 'credited', 'correction_pending', 'corrected']);
export type InvoiceReversalStanding = (typeof invoiceReversalStanding.enumValues)[number];

export const invoiceReceptorKind = pgEnum('invoice_receptor_kind', ['nit', 'cui', 'cf']);
export type InvoiceReceptorKind = (typeof invoiceReceptorKind.enumValues)[number];

// One FEL invoice per credited sale (a top-up's ledger entry), written in the credit's transaction
// (lib/core/invoices). Its identifier is fixed there for good: the certifier certifies an identifier
// once, so every resend of this invoice can only ever name this one document. The amounts and the
// receptor are as they were at the sale; the worker (lib/flows/invoicing) claims due rows with a lease.
export const invoices = pgTable(
  'invoices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerEntries.id),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    // Random, not derived from the time or a sequence: a restored or reset database must never
    // send the certifier an identifier it already certified for another sale.
    identifier: text('identifier').notNull().default(sql`gen_random_uuid()::text`),
    // FACT or FPEQ, from the issuer's affiliation at the sale.
    documentType: text('document_type').notNull(),
    // FechaHoraEmision, fixed at creation: every resend carries the same (SAT allows 5 days before the certification).
    emittedAt: timestamp('emitted_at', { withTimezone: true, mode: 'date' }).notNull(),
    totalCentavos: bigint('total_centavos', { mode: 'number' }).notNull(),
    // MontoGravable = round(total / 1.12) and MontoImpuesto = total − MontoGravable (an FPEQ: the total and 0).
    taxableCentavos: bigint('taxable_centavos', { mode: 'number' }).notNull(),
    taxCentavos: bigint('tax_centavos', { mode: 'number' }).notNull(),
    // The buyer as it was at the sale: personal data (never logged).
    receptorKind: invoiceReceptorKind('receptor_kind').notNull(),
    // The NIT (normalized), the CUI, or CF.
    receptorId: text('receptor_id').notNull(),
    // SAT's name for it; null for CF.
    receptorName: text('receptor_name'),
    state: invoiceState('state').notNull().default('pending'),
    // Calls to the certifier so far (certify and lookups), and when the worker may try next.
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    leaseHolder: text('lease_holder'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    // Which certifier it went to ("infile"), and its numbers once certified.
    certifier: text('certifier'),
    uuid: text('uuid'),
    serie: text('serie'),
    numero: text('numero'),
    certifiedAt: timestamp('certified_at', { withTimezone: true, mode: 'date' }),
    certifiedXml: text('certified_xml'),
    // The last failure: SAT's or the certifier's code and its message (may name the receptor: shown, never logged).
    lastErrorCode: text('last_error_code'),
    lastErrorMessage: text('last_error_message'),
    // When every listener of its "certified" event took it (the integrator's notice queued): until
    // then the worker tells it again (lib/flows/invoicing/worker.ts), the notice keyed to go once.
    noticeEmittedAt: timestamp('notice_emitted_at', { withTimezone: true, mode: 'date' }),
    // Its live void or credit note (invoice_reversals), if any.
    reversal: invoiceReversalStanding('reversal'),
    // The invoice this one replaces, reissued to a corrected receptor for the same sale and amount
    // once that one was voided or credited back (lib/flows/invoicing/reversals.ts).
    correctsInvoiceId: integer('corrects_invoice_id').references((): AnyPgColumn => invoices.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // One invoice per sale, besides the ones that replace it after a correction of its receptor;
    // each invoice replaced at most once.
    uniqueIndex('invoices_ledger_entry_unique').on(table.ledgerEntryId).where(sql`${table.correctsInvoiceId} is null`),
    uniqueIndex('invoices_corrects_unique').on(table.correctsInvoiceId).where(sql`${table.correctsInvoiceId} is not null`),
    index('invoices_ledger_entry_idx').on(table.ledgerEntryId),
    uniqueIndex('invoices_identifier_unique').on(table.identifier),
    // The worker's queue: due rows in order.
    index('invoices_due_idx').on(table.nextAttemptAt, table.id).where(sql`${table.state} in ('pending', 'indeterminate')`),
    // Certified and not yet told: empty but for a crash or a failed listener, so every round looks cheaply.
    index('invoices_untold_idx').on(table.updatedAt, table.id).where(sql`${table.state} = 'certified' and ${table.noticeEmittedAt} is null`),
    index('invoices_integration_idx').on(table.integrationId, table.createdAt),
    // The console's "Facturas": every invoice newest first, or one state's (a month is a range of either).
    index('invoices_created_idx').on(table.createdAt, table.id),
    index('invoices_state_created_idx').on(table.state, table.createdAt, table.id),
    index('invoices_reversal_created_idx').on(table.reversal, table.createdAt, table.id).where(sql`${table.reversal} is not null`),
    check('invoices_amounts_add_up', sql`${table.totalCentavos} > 0 and ${table.taxableCentavos} + ${table.taxCentavos} = ${table.totalCentavos}`),
    check('invoices_certified_has_numbers', sql`${table.state} <> 'certified' or (${table.uuid} is not null and ${table.serie} is not null and ${table.numero} is not null)`),
    check('invoices_receptor_named', sql`(${table.receptorKind} = 'cf') = (${table.receptorName} is null)`),
  ],
);

// Every call the worker made to the certifier for an invoice and what became of it: the log an
// administrator reads when an invoice is late or wrong. Never a credential, NIT or name.
export const invoiceAttempts = pgTable(
  'invoice_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    // certify or lookup.
    call: text('call').notNull(),
    certifier: text('certifier').notNull(),
    // The certifier's outcome (certified, already_certified, rejected, retry_later, credentials_refused,
    // indeterminate; found, not_found, unavailable) and its reason or codes.
    outcome: text('outcome').notNull(),
    detail: text('detail'),
    // Which instance's worker made it.
    holder: text('holder').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('invoice_attempts_invoice_idx').on(table.invoiceId, table.id)],
);

export type Invoice = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
export type InvoiceAttempt = typeof invoiceAttempts.$inferSelect;

export const invoiceReversalKind = pgEnum('invoice_reversal_kind', ['void', 'credit_note']);
export type InvoiceReversalKind = (typeof invoiceReversalKind.enumValues)[number];

/**
 * pending and indeterminate as an invoice's (an indeterminate credit note is settled by lookup, a
 * void by sending it again with its identifier); done: voided, or the credit note certified;
 * refused: the certifier refused it and the balance was given back; to_correct: a credit note on
 * another flow's entry (an online payment's refund) the certifier refused: nothing is given back, it
 * waits to be sent again with the same identifier.
 */
export const invoiceReversalState = pgEnum('invoice_reversal_state', ['pending', 'indeterminate', 'done', 'refused', 'to_correct']);
export type InvoiceReversalState = (typeof invoiceReversalState.enumValues)[number];

// A certified invoice undone: a void within SAT's deadline, or a credit note (NCRE) that references
// it after. Written with the ledger entry that takes its amount back from the balance, in one
// transaction (lib/core/billing/invoice-reversals.ts), with its identifier fixed there for good like an
// invoice's; the invoice worker sends it. At most one that is not refused per invoice, besides the
// credit notes of an online payment's refunds. A correction of the receptor is one with no entry:
// the sale stays paid, and once it is done the same transaction writes the invoice that replaces it.
export const invoiceReversals = pgTable(
  'invoice_reversals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    kind: invoiceReversalKind('kind').notNull(),
    identifier: text('identifier').notNull().default(sql`gen_random_uuid()::text`),
    // MotivoAnulacion or MotivoAjuste, 1 to 255 characters.
    reason: text('reason').notNull(),
    // The void's FechaHoraAnulacion or the credit note's FechaHoraEmision: every resend carries the same.
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }).notNull(),
    // The entry that took the amount back from the balance, and the one that returned it if refused.
    // None for a correction of the receptor, which moves no money.
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }).references(() => ledgerEntries.id),
    refundEntryId: bigint('refund_entry_id', { mode: 'number' }).references(() => ledgerEntries.id),
    // False when the entry is another flow's (an online payment's refund: the money already went
    // back to the customer), so a refusal returns nothing to the balance.
    returnsOnRefusal: boolean('returns_on_refusal').notNull().default(true),
    // A correction of the receptor: whom the invoice that replaces it names (as the integration's
    // billing data said when it was asked for), and that invoice once written, when this is done.
    correctionReceptorKind: invoiceReceptorKind('correction_receptor_kind'),
    correctionReceptorId: text('correction_receptor_id'),
    correctionReceptorName: text('correction_receptor_name'),
    replacementInvoiceId: integer('replacement_invoice_id').references(() => invoices.id),
    // Who asked for it (describeActor).
    requestedBy: text('requested_by').notNull(),
    state: invoiceReversalState('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    leaseHolder: text('lease_holder'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
    certifier: text('certifier'),
    // A credit note's numbers once certified.
    uuid: text('uuid'),
    serie: text('serie'),
    numero: text('numero'),
    certifiedXml: text('certified_xml'),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    lastErrorCode: text('last_error_code'),
    lastErrorMessage: text('last_error_message'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('invoice_reversals_identifier_unique').on(table.identifier),
    // The balance moves back once: one entry per reversal, and one live reversal per invoice.
    uniqueIndex('invoice_reversals_ledger_entry_unique').on(table.ledgerEntryId),
    uniqueIndex('invoice_reversals_refund_entry_unique').on(table.refundEntryId).where(sql`${table.refundEntryId} is not null`),
    // One live void or credit note of the console's per invoice; the credit notes of an online
    // payment's refunds (one per refund, adding up to at most the invoice) are not counted here.
    uniqueIndex('invoice_reversals_one_live').on(table.invoiceId).where(sql`${table.state} <> 'refused' and (${table.returnsOnRefusal} or ${table.correctionReceptorKind} is not null)`),
    index('invoice_reversals_invoice_idx').on(table.invoiceId, table.id),
    index('invoice_reversals_due_idx').on(table.nextAttemptAt, table.id).where(sql`${table.state} in ('pending', 'indeterminate')`),
    check('invoice_reversals_amount_positive', sql`${table.amountCentavos} > 0`),
    // Money moves with every reversal but a correction, which names whom the replacement invoices.
    check('invoice_reversals_entry_or_correction', sql`(${table.ledgerEntryId} is null) = (${table.correctionReceptorKind} is not null)`),
    check('invoice_reversals_correction_named', sql`${table.correctionReceptorKind} is null or (${table.correctionReceptorId} is not null and (${table.correctionReceptorKind} = 'cf') = (${table.correctionReceptorName} is null))`),
    check('invoice_reversals_done_note_numbered', sql`${table.kind} <> 'credit_note' or ${table.state} <> 'done' or ${table.uuid} is not null`),
  ],
);

export type InvoiceReversal = typeof invoiceReversals.$inferSelect;
export type NewInvoiceReversal = typeof invoiceReversals.$inferInsert;

// Whether credited top-ups are invoiced, and as which document, as the running service decided it
// (lib/core/invoices/decision.ts): every app instance publishes its settings here when it starts,
// and every process that credits (the app, the CLI, a job) reads it here, never from its own shell.
// One row; none until an instance first started, which a process that cannot decide takes as
// "unknown" and refuses to credit.
export const invoicingDecision = pgTable(
  'invoicing_decision',
  {
    id: integer('id').primaryKey(),
    invoices: boolean('invoices').notNull(),
    // FACT or FPEQ (the issuer's affiliation) while invoicing; null when it is off.
    documentType: text('document_type'),
    // Which instance published it ("host pid 123"), for the operator who wonders why.
    publishedBy: text('published_by').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    check('invoicing_decision_one_row', sql`${table.id} = 1`),
    check('invoicing_decision_document_type', sql`${table.invoices} = (${table.documentType} is not null)`),
  ],
);

export type InvoicingDecisionRow = typeof invoicingDecision.$inferSelect;
