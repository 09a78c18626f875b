// "Por corregir": invoices the certifier refused for their data. An administrator fixes the
// integration's receptor and sends the invoice back to the queue with the SAME identifier: a
// certifier certifies an identifier once, and one it refused was never used, so the resend can only
// ever make this one document. Putting it back is a state change the worker picks up (the lease
// keeps two instances off it), made only while the invoice is still to correct: a second click, on
// any instance, changes nothing.
import { and, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, type InvoiceReversalState, type InvoiceState } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { receptorOfIntegration } from '@/lib/core/invoices/receptor';
import { formatQuetzales } from '@/lib/platform/money';
import { CF_LIMIT_CENTAVOS, checkReceptor, receptorId } from '@/lib/providers/fel/document';
import { EMISSION_WINDOW_MS } from './worker';

/** A retried invoice keeps its emission time unless the certifier would find it past SAT's window by then. */
const REDATE_MARGIN_MS = 3_600_000;

export const CORRECTION_MESSAGES = {
  queued: 'La factura volvió a la cola con el mismo identificador: se enviará al certificador en unos segundos.',
  notToCorrect: 'La factura ya no está por corregir: no se cambió nada.',
  notFound: 'No existe esa factura.',
  cfOverLimit: `El receptor de la integración es consumidor final (CF), que SAT no admite desde ${formatQuetzales(CF_LIMIT_CENTAVOS)}: registre su NIT o CUI en «Receptor de las facturas» y reintente.`,
  receptorInvalid: 'El receptor de la integración no sirve para facturar: corríjalo en «Receptor de las facturas» y reintente.',
} as const;

export type RetryResult =
  | { ok: true; value: { queued: true } | { queued: false; state: InvoiceState } }
  | { ok: false; error: { code: 'not_found' | 'receptor_refused'; message: string } };

/**
 * Puts an invoice that is to correct back in the queue, naming the integration's receptor as it is
 * now, with its identifier unchanged. Audited with the certifier's last message and the receptor
 * before and after. An invoice in any other state is left as it is (`queued: false`).
 */
export async function retryInvoice(actor: Actor, invoiceId: number, now = new Date()): Promise<RetryResult> {
  return (await db()).transaction(async (tx) => {
    const [row] = await tx
      .select({ invoice: invoices, receptor: { receptorKind: integrations.receptorKind, receptorId: integrations.receptorId, receptorName: integrations.receptorName } })
      .from(invoices)
      .innerJoin(integrations, eq(integrations.id, invoices.integrationId))
      .where(eq(invoices.id, invoiceId))
      .for('update', { of: invoices });
    if (!row) return { ok: false, error: { code: 'not_found', message: CORRECTION_MESSAGES.notFound } };
    const { invoice } = row;
    if (invoice.state !== 'to_correct') return { ok: true, value: { queued: false, state: invoice.state } };
    const checked = checkReceptor(receptorOfIntegration(row.receptor), invoice.totalCentavos);
    if (!checked.ok) {
      return { ok: false, error: { code: 'receptor_refused', message: checked.problem.code === 'cf_over_limit' ? CORRECTION_MESSAGES.cfOverLimit : CORRECTION_MESSAGES.receptorInvalid } };
    }
    const { receptor } = checked;
    // Nothing was certified under this identifier, so a later emission time is still one document.
    const redate = now.getTime() - invoice.emittedAt.getTime() > EMISSION_WINDOW_MS - REDATE_MARGIN_MS;
    const change = {
      receptorKind: receptor.kind,
      receptorId: receptorId(receptor),
      receptorName: receptor.kind === 'cf' ? null : receptor.name,
      ...(redate ? { emittedAt: now } : {}),
    };
    const [updated] = await tx
      .update(invoices)
      .set({ ...change, state: 'pending', nextAttemptAt: sql`now()`, lastErrorCode: null, lastErrorMessage: null, leaseHolder: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(invoices.id, invoiceId), eq(invoices.state, 'to_correct')))
      .returning({ id: invoices.id });
    if (!updated) return { ok: true, value: { queued: false, state: invoice.state } };
    await writeAudit(tx, actor, {
      action: 'invoice.retry',
      targetType: 'integration',
      targetId: invoice.integrationId,
      before: {
        invoiceId,
        identifier: invoice.identifier,
        lastErrorCode: invoice.lastErrorCode,
        lastErrorMessage: invoice.lastErrorMessage,
        receptorKind: invoice.receptorKind,
        receptorId: invoice.receptorId,
        receptorName: invoice.receptorName,
      },
      after: { invoiceId, identifier: invoice.identifier, ...change },
    });
    return { ok: true, value: { queued: true } };
  });
}

/**
 * Puts a credit note the certifier refused back in the queue with its identifier unchanged (one
 * written on an online payment's refund: `to_correct`, nothing was given back). Redated like an
 * invoice when SAT's window would have passed by the time it is sent. A second click, on any
 * instance, finds it queued already and changes nothing (`queued: false`).
 */
export async function retryCreditNote(actor: Actor, reversalId: number, now = new Date()): Promise<{ queued: true } | { queued: false; state: InvoiceReversalState } | null> {
  return (await db()).transaction(async (tx) => {
    const [reversal] = await tx.select().from(invoiceReversals).where(eq(invoiceReversals.id, reversalId)).for('update');
    if (!reversal) return null;
    if (reversal.state !== 'to_correct') return { queued: false, state: reversal.state };
    const redate = now.getTime() - reversal.requestedAt.getTime() > EMISSION_WINDOW_MS - REDATE_MARGIN_MS;
    await tx
      .update(invoiceReversals)
      .set({ state: 'pending', ...(redate ? { requestedAt: now } : {}), nextAttemptAt: sql`now()`, lastErrorCode: null, lastErrorMessage: null, leaseHolder: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(eq(invoiceReversals.id, reversalId));
    await writeAudit(tx, actor, {
      action: 'invoice.reversal_retry',
      targetType: 'integration',
      targetId: reversal.integrationId,
      before: { invoiceReversalId: reversal.id, identifier: reversal.identifier, lastErrorCode: reversal.lastErrorCode, lastErrorMessage: reversal.lastErrorMessage },
      after: { invoiceReversalId: reversal.id, identifier: reversal.identifier, ...(redate ? { requestedAt: now.toISOString() } : {}) },
    });
    return { queued: true };
  });
}
