// Whether a credited top-up is invoiced is the running service's decision, kept in one row that
// every process reads (db/schema/invoices.ts, invoicing_decision). A CLI started from a shell
// without the FEL settings once credited Q 150 and wrote no invoice, because it asked its own
// environment; now each app instance publishes its settings when it starts and every credit, from
// whichever process, reads the published row in its own transaction.
import { hostname } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { db, type Database } from '@/db/client';
import { invoicingDecision } from '@/db/schema';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';
import { DOCUMENT_TYPE_OF_AFFILIATION, type DocumentType } from '@/lib/providers/fel/document';
import { felSettings, type FelSettings } from '@/lib/providers/fel/settings';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export type InvoicingDecision = { invoices: false } | { invoices: true; documentType: Exclude<DocumentType, 'NCRE'> };

/** The decision a process's own settings make: what an app instance publishes. */
export function decisionOfSettings(settings: Pick<FelSettings, 'FEL_ENABLED' | 'FEL_ISSUER_AFFILIATION'>): InvoicingDecision {
  if (!settings.FEL_ENABLED) return { invoices: false };
  return { invoices: true, documentType: DOCUMENT_TYPE_OF_AFFILIATION[settings.FEL_ISSUER_AFFILIATION ?? 'GEN'] };
}

function sameDecision(a: InvoicingDecision, b: InvoicingDecision): boolean {
  return a.invoices === b.invoices && (!a.invoices || (b.invoices && a.documentType === b.documentType));
}

export interface PublishedDecision {
  decision: InvoicingDecision;
  publishedBy: string;
  publishedAt: Date;
}

function fromRow(row: typeof invoicingDecision.$inferSelect): PublishedDecision {
  const decision: InvoicingDecision = row.invoices ? { invoices: true, documentType: row.documentType as 'FACT' | 'FPEQ' } : { invoices: false };
  return { decision, publishedBy: row.publishedBy, publishedAt: row.publishedAt };
}

/**
 * An app instance's start: its settings become the service's decision. Returns what was published
 * before when it differed (two instances configured apart: the operator is told by the caller).
 */
export async function publishInvoicingDecision(
  handle: Pick<Database, 'transaction'>,
  settings: Pick<FelSettings, 'FEL_ENABLED' | 'FEL_ISSUER_AFFILIATION'> = felSettings(),
  publishedBy = `${hostname()} pid ${process.pid}`,
): Promise<{ previous: PublishedDecision | null; changed: boolean }> {
  const decision = decisionOfSettings(settings);
  const values = { id: 1, invoices: decision.invoices, documentType: decision.invoices ? decision.documentType : null, publishedBy };
  return handle.transaction(async (tx) => {
    const [before] = await tx.select().from(invoicingDecision).where(eq(invoicingDecision.id, 1)).for('update');
    await tx
      .insert(invoicingDecision)
      .values(values)
      .onConflictDoUpdate({ target: invoicingDecision.id, set: { invoices: values.invoices, documentType: values.documentType, publishedBy, publishedAt: sql`now()` } });
    const previous = before ? fromRow(before) : null;
    return { previous, changed: previous !== null && !sameDecision(previous.decision, decision) };
  });
}

/** The service's published decision, or null when no instance has started on this database yet. */
export async function readInvoicingDecision(tx: Pick<Transaction, 'select'>): Promise<PublishedDecision | null> {
  const [row] = await tx.select().from(invoicingDecision).where(eq(invoicingDecision.id, 1));
  return row ? fromRow(row) : null;
}

/**
 * Marks this process as one that cannot decide on its own (the CLI): with nothing published it
 * refuses to credit rather than guess from the shell it was started in.
 */
export function decideFromPublishedOnly(): void {
  setProcessSlot('invoicingDecidedByService', true);
}

/**
 * The decision a credit follows: the published one; before any instance published, this process's
 * own settings when it runs the service (the app itself, a test standing in for it), and null (a
 * refusal) in a process that does not.
 */
export async function invoicingDecisionFor(tx: Pick<Transaction, 'select'>): Promise<InvoicingDecision | null> {
  const published = await readInvoicingDecision(tx);
  if (published) return published.decision;
  return peekProcessSlot<boolean>('invoicingDecidedByService') ? null : decisionOfSettings(felSettings());
}

/** Whether the service invoices top-ups, as its instances published it ('undecided': none started yet). */
export async function publishedInvoicing(): Promise<'on' | 'off' | 'undecided'> {
  const published = await readInvoicingDecision(await db());
  return published === null ? 'undecided' : published.decision.invoices ? 'on' : 'off';
}
