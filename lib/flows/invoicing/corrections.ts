// "Por corregir": invoices the certifier refused for their data. An administrator fixes the
// integration's receptor and sends the invoice back to the queue with the SAME identifier: a
// certifier certifies an identifier once, and one it refused was never used, so the resend can only
// ever make this one document. Putting it back is a state change the worker picks up (the lease
// keeps two instances off it), made only while the invoice is still to correct: a second click, on
// any instance, changes nothing.
import { and, eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoices, type InvoiceState } from '@/db/schema';
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
