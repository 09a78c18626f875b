// Voids and credit notes in the invoice worker's rounds, with an invoice's discipline: claimed with a
// lease, marked indeterminate before each call, and settled before anything new is sent. A credit
// note (an NCRE, a document like an invoice) is settled by the certifier's lookup by identifier; a
// void has no lookup, so it is sent again with its own fixed identifier, which the certifier answers
// as already done ("Documento enviado previamente.") if the first one went through. A void or credit
// note the certifier refuses gives its amount back to the balance, once, in the refusal's transaction;
// a credit note on an online payment's refund (whose money already went back) waits to be corrected.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, invoiceReversals, invoices, ledgerEntries, type Invoice, type InvoiceReversal, type NewInvoiceReversal } from '@/db/schema';
import { describeActor, writeAudit, type Actor } from '@/lib/core/audit/audit';
import { afterBalanceMoved, type Transaction } from '@/lib/core/billing/ledger';
import { TOP_UP_LINE_DESCRIPTION } from '@/lib/vocabulary/labels';
import { logger } from '@/lib/platform/logging/logger';
import { felIdentifier, type CertifierMessage, type CertifyOutcome, type FelCertifier, type VoidOutcome } from '@/lib/providers/fel/certifier';
import { emissionDay, prepareDocument, prepareVoid, type Issuer, type Receptor } from '@/lib/providers/fel/document';
import { logAttempt } from './queue';

const IN_QUEUE = ['pending', 'indeterminate'] as const;
const WORKER_ACTOR: Actor = { kind: 'system', name: 'facturacion' };

export interface ReversalSettlerOptions {
  certifier: FelCertifier;
  issuer: Issuer;
  /** The worker's name in the attempt log. */
  name: string;
  leaseSeconds: number;
  /** When to try again after `attempts` calls; `anchor` is the document's emission (SAT's 5-day window). */
  backoff: (anchor: Date, attempts: number, now: Date) => Date;
  credentialsPauseMs: number;
  /** The certifier refused the credentials: the worker stops its queue. */
  onCredentialsRefused: () => Promise<void>;
}

type Change = Partial<NewInvoiceReversal>;

async function claimDueReversals(holder: string, limit: number, leaseSeconds: number): Promise<InvoiceReversal[]> {
  const handle = await db();
  const due = sql`select ${invoiceReversals.id} from ${invoiceReversals}
     where ${invoiceReversals.state} in ('pending', 'indeterminate') and ${invoiceReversals.nextAttemptAt} <= now()
       and (${invoiceReversals.leaseUntil} is null or ${invoiceReversals.leaseUntil} < now())
     order by ${invoiceReversals.nextAttemptAt}, ${invoiceReversals.id}
     limit ${limit}::integer
     for update skip locked`;
  return handle
    .update(invoiceReversals)
    .set({ leaseHolder: holder, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds}::integer)`, updatedAt: sql`now()` })
    .where(sql`${invoiceReversals.id} in (${due})`)
    .returning();
}

async function updateClaimed(id: number, holder: string, change: Change, release = true): Promise<boolean> {
  return (await db()).transaction(async (tx) => {
    const rows = await tx
      .update(invoiceReversals)
      .set({ ...change, ...(release ? { leaseHolder: null, leaseUntil: null } : {}), updatedAt: sql`now()` })
      .where(and(eq(invoiceReversals.id, id), eq(invoiceReversals.leaseHolder, holder), inArray(invoiceReversals.state, [...IN_QUEUE])))
      .returning();
    const done = rows[0];
    if (done?.correctionReceptorKind && change.state === 'done') {
      await writeReplacementInvoice(tx, done);
      return true;
    }
    // The invoice's standing (its lists filter by it) moves in the same transaction as its reversal;
    // with several credit notes (parts of a refunded payment), once the last one under way is done.
    if (done && change.state === 'done') {
      await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.id, done.invoiceId)).for('update');
      const [other] = await tx
        .select({ id: invoiceReversals.id })
        .from(invoiceReversals)
        .where(and(eq(invoiceReversals.invoiceId, done.invoiceId), ne(invoiceReversals.id, done.id), inArray(invoiceReversals.state, ['pending', 'indeterminate', 'to_correct'])));
      if (!other) await tx.update(invoices).set({ reversal: done.kind === 'void' ? 'voided' : 'credited' }).where(eq(invoices.id, done.invoiceId));
    }
    return rows.length === 1;
  });
}

/**
 * A correction's void or credit note is done: the invoice reads corrected and the one that replaces
 * it is written, for the same sale and amounts, naming the receptor the correction asked for, with
 * its own identifier fixed here. In the transaction that marks the reversal done, which happens
 * once (only its lease holder, only from the queue), so a sale is reissued once.
 */
async function writeReplacementInvoice(tx: Transaction, reversal: InvoiceReversal): Promise<void> {
  const [original] = await tx.select().from(invoices).where(eq(invoices.id, reversal.invoiceId)).for('update');
  if (!original) return;
  const [replacement] = await tx
    .insert(invoices)
    .values({
      ledgerEntryId: original.ledgerEntryId,
      integrationId: original.integrationId,
      documentType: original.documentType,
      emittedAt: new Date(),
      totalCentavos: original.totalCentavos,
      taxableCentavos: original.taxableCentavos,
      taxCentavos: original.taxCentavos,
      receptorKind: reversal.correctionReceptorKind!,
      receptorId: reversal.correctionReceptorId!,
      receptorName: reversal.correctionReceptorName,
      correctsInvoiceId: original.id,
    })
    .returning({ id: invoices.id });
  await tx.update(invoices).set({ reversal: 'corrected' }).where(eq(invoices.id, original.id));
  await tx.update(invoiceReversals).set({ replacementInvoiceId: replacement!.id }).where(eq(invoiceReversals.id, reversal.id));
  await writeAudit(tx, WORKER_ACTOR, {
    action: 'invoice.reissued',
    targetType: 'integration',
    targetId: original.integrationId,
    before: { invoiceId: original.id, invoice: `${original.serie}-${original.numero}` },
    after: { invoiceId: replacement!.id, invoiceReversalId: reversal.id },
  });
}

/**
 * A correction's void or credit note refused for good: it moved no money, so nothing goes back; the
 * invoice stands as it was, and the refusal shows on its page for a person to read.
 */
async function refuseCorrection(reversal: InvoiceReversal, invoice: Invoice, holder: string, code: string | null, message: string): Promise<void> {
  await (await db()).transaction(async (tx) => {
    const [claimed] = await tx
      .update(invoiceReversals)
      .set({ state: 'refused', lastErrorCode: code, lastErrorMessage: message, leaseHolder: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(invoiceReversals.id, reversal.id), eq(invoiceReversals.leaseHolder, holder), inArray(invoiceReversals.state, [...IN_QUEUE])))
      .returning();
    if (!claimed) return;
    await tx.update(invoices).set({ reversal: null }).where(eq(invoices.id, invoice.id));
    await writeAudit(tx, WORKER_ACTOR, {
      action: 'invoice.correction_refused',
      targetType: 'integration',
      targetId: reversal.integrationId,
      before: { invoiceReversalId: reversal.id, state: reversal.state },
      after: { invoiceReversalId: reversal.id, state: 'refused', invoiceId: invoice.id, code },
    });
  });
}

/**
 * Refused for good: the row becomes refused and the amount goes back to the balance in one
 * transaction, only while this claim holds it, so a refund is written once.
 */
async function refuseAndRefund(reversal: InvoiceReversal, invoice: Invoice, holder: string, code: string | null, message: string): Promise<void> {
  if (reversal.correctionReceptorKind) return refuseCorrection(reversal, invoice, holder, code, message);
  if (!reversal.returnsOnRefusal) return refuseToCorrect(reversal, invoice, holder, code, message);
  const refunded = await (await db()).transaction(async (tx) => {
    const [integration] = await tx.select().from(integrations).where(eq(integrations.id, reversal.integrationId)).for('update');
    const [claimed] = await tx
      .update(invoiceReversals)
      .set({ state: 'refused', lastErrorCode: code, lastErrorMessage: message, leaseHolder: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(invoiceReversals.id, reversal.id), eq(invoiceReversals.leaseHolder, holder), inArray(invoiceReversals.state, [...IN_QUEUE])))
      .returning();
    if (!integration || !claimed) return null;
    await tx.update(invoices).set({ reversal: null }).where(eq(invoices.id, invoice.id));
    const amount = reversal.amountCentavos;
    const [after] = await tx
      .update(integrations)
      .set({ balanceCentavos: sql`${integrations.balanceCentavos} + ${amount}`, updatedAt: sql`now()` })
      .where(eq(integrations.id, integration.id))
      .returning();
    const what = reversal.kind === 'void' ? 'la anulación' : 'la nota de crédito';
    const auditId = await writeAudit(tx, WORKER_ACTOR, {
      action: 'invoice.reversal_refused',
      targetType: 'integration',
      targetId: integration.id,
      before: { balanceCentavos: integration.balanceCentavos },
      after: { balanceCentavos: after!.balanceCentavos, amountCentavos: amount, invoiceId: invoice.id, code },
    });
    const [entry] = await tx
      .insert(ledgerEntries)
      .values({
        integrationId: integration.id,
        kind: 'adjustment',
        amountCentavos: amount,
        postedCentavos: amount,
        actor: describeActor(WORKER_ACTOR),
        note: `Devolución: el certificador rechazó ${what} de la factura ${invoice.serie}-${invoice.numero}${code ? ` (${code})` : ''}.`,
        auditId,
      })
      .returning();
    await tx.update(invoiceReversals).set({ refundEntryId: entry!.id }).where(eq(invoiceReversals.id, reversal.id));
    return after!;
  });
  if (refunded) await afterBalanceMoved(refunded, reversal.amountCentavos);
}

/**
 * A credit note written on another flow's entry (an online payment's refund: the money went back to
 * the customer at the provider) refused for good: nothing returns to the balance. It stays the
 * invoice's live reversal, to correct and send again with the same identifier (never used, since
 * the certifier refused it), so no second reversal can take the amount from the balance again.
 */
async function refuseToCorrect(reversal: InvoiceReversal, invoice: Invoice, holder: string, code: string | null, message: string): Promise<void> {
  await (await db()).transaction(async (tx) => {
    const [claimed] = await tx
      .update(invoiceReversals)
      .set({ state: 'to_correct', lastErrorCode: code, lastErrorMessage: message, leaseHolder: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(invoiceReversals.id, reversal.id), eq(invoiceReversals.leaseHolder, holder), inArray(invoiceReversals.state, [...IN_QUEUE])))
      .returning();
    if (!claimed) return;
    await writeAudit(tx, WORKER_ACTOR, {
      action: 'invoice.reversal_to_correct',
      targetType: 'integration',
      targetId: reversal.integrationId,
      before: { invoiceReversalId: reversal.id, state: reversal.state },
      after: { invoiceReversalId: reversal.id, state: 'to_correct', invoiceId: invoice.id, code },
    });
  });
}

function messagesText(errors: CertifierMessage[]): string {
  return errors.map((error) => (error.code ? `${error.code}: ${error.message}` : error.message)).join(' · ') || 'El certificador la rechazó.';
}

function receptorOf(invoice: Invoice): Receptor {
  if (invoice.receptorKind === 'cf') return { kind: 'cf' };
  const name = invoice.receptorName ?? '';
  return invoice.receptorKind === 'nit' ? { kind: 'nit', nit: invoice.receptorId, name } : { kind: 'cui', cui: invoice.receptorId, name };
}

export function createReversalSettler(options: ReversalSettlerOptions) {
  const { certifier, issuer, name } = options;
  const log = logger('invoicing');

  async function attempt<T extends { kind: string }>(invoiceId: number, holder: string, call: 'void' | 'credit_note' | 'credit_note_lookup', run: () => Promise<T>): Promise<T> {
    const started = Date.now();
    const outcome = await run();
    const durationMs = Date.now() - started;
    const detail = 'reason' in outcome ? String(outcome.reason) : 'errors' in outcome ? (outcome.errors as CertifierMessage[]).map((error) => error.code ?? 'sin código').join(',') : 'detail' in outcome ? String(outcome.detail) : null;
    await logAttempt({ invoiceId, call, certifier: certifier.name, outcome: outcome.kind, detail, holder: name, durationMs });
    log.info({ invoiceId, call, outcome: outcome.kind, detail, durationMs, holder }, 'FEL reversal attempt');
    return outcome;
  }

  const retry = (reversal: InvoiceReversal, attempts: number, code: string, message: string, state: 'pending' | 'indeterminate'): Change => ({
    state,
    attempts,
    nextAttemptAt: options.backoff(reversal.requestedAt, attempts, new Date()),
    lastErrorCode: code,
    lastErrorMessage: message,
  });
  const paused = (attempts: number): Change => ({
    state: 'pending',
    attempts,
    nextAttemptAt: new Date(Date.now() + options.credentialsPauseMs),
    lastErrorCode: 'CREDENCIALES',
    lastErrorMessage: 'El certificador rechazó las credenciales: revise FEL_SIGNING_* y FEL_API_*.',
  });
  const unclear = 'El certificador no respondió con claridad; se resolverá antes de enviar algo nuevo.';
  const later = 'El certificador pidió reintentar más tarde; se reenviará con el mismo identificador.';

  async function settleVoid(reversal: InvoiceReversal, invoice: Invoice, holder: string): Promise<void> {
    const identifier = felIdentifier(reversal.identifier);
    const prepared = prepareVoid({ uuid: invoice.uuid ?? '', issuerNit: issuer.nit, receptorId: invoice.receptorId, originalEmittedAt: invoice.emittedAt, voidedAt: reversal.requestedAt, reason: reversal.reason });
    if (!identifier || !prepared.ok) {
      await refuseAndRefund(reversal, invoice, holder, 'DOCUMENTO', `La anulación no se pudo armar (${prepared.ok ? 'identifier_invalid' : prepared.problems.map((problem) => problem.code).join(',')}).`);
      return;
    }
    // Written before the call; an indeterminate void is sent again as it is: its identifier makes that harmless.
    const attempts = reversal.attempts + 1;
    if (!(await updateClaimed(reversal.id, holder, { state: 'indeterminate', attempts, certifier: certifier.name }, false))) return;
    const outcome = await attempt(invoice.id, holder, 'void', () => certifier.voidDocument(prepared.request, identifier));
    switch (outcome.kind) {
      case 'voided':
        await updateClaimed(reversal.id, holder, { state: 'done', doneAt: outcome.voidedAt, lastErrorCode: null, lastErrorMessage: null });
        return;
      default:
        await settleUnfinished(reversal, invoice, holder, attempts, outcome);
    }
  }

  /** What a void's or a credit note's call answered when it did not end it: the same for both. */
  async function settleUnfinished(reversal: InvoiceReversal, invoice: Invoice, holder: string, attempts: number, outcome: Exclude<VoidOutcome | CertifyOutcome, { kind: 'voided' | 'certified' | 'already_certified' }>): Promise<void> {
    switch (outcome.kind) {
      case 'rejected':
        await refuseAndRefund(reversal, invoice, holder, outcome.errors[0]?.code ?? null, messagesText(outcome.errors));
        return;
      case 'retry_later':
        await updateClaimed(reversal.id, holder, retry(reversal, attempts, outcome.reason.toUpperCase(), later, 'pending'));
        return;
      case 'indeterminate':
        await updateClaimed(reversal.id, holder, retry(reversal, attempts, 'SIN_RESPUESTA', unclear, 'indeterminate'));
        return;
      case 'credentials_refused':
        await updateClaimed(reversal.id, holder, paused(attempts));
        await options.onCredentialsRefused();
        return;
    }
  }

  async function settleCreditNote(reversal: InvoiceReversal, invoice: Invoice, holder: string): Promise<void> {
    const identifier = felIdentifier(reversal.identifier);
    const prepared = prepareDocument({
      type: 'NCRE',
      issuer,
      receptor: receptorOf(invoice),
      lines: [{ goodsOrService: 'S', quantity: 1, description: TOP_UP_LINE_DESCRIPTION, unitPriceCentavos: reversal.amountCentavos }],
      emittedAt: reversal.requestedAt,
      reference: { uuid: invoice.uuid ?? '', emittedAt: invoice.emittedAt, reason: reversal.reason },
    });
    if (!identifier || !prepared.ok) {
      await refuseAndRefund(reversal, invoice, holder, 'DOCUMENTO', `La nota de crédito no se pudo armar (${prepared.ok ? 'identifier_invalid' : prepared.problems.map((problem) => problem.code).join(',')}).`);
      return;
    }
    const document = prepared.document;
    let attempts = reversal.attempts;
    if (reversal.state === 'indeterminate') {
      attempts += 1;
      const found = await attempt(invoice.id, holder, 'credit_note_lookup', () =>
        certifier.lookupByIdentifier({ identifier, issuerNit: document.issuer.nit, documentType: 'NCRE', establishmentCode: document.issuer.establishmentCode, emittedOn: emissionDay(document) }),
      );
      if (found.kind === 'found') {
        await updateClaimed(reversal.id, holder, { state: 'done', attempts, uuid: found.uuid, serie: found.serie, numero: found.numero, doneAt: new Date(), lastErrorCode: null, lastErrorMessage: null });
        return;
      }
      if (found.kind === 'unavailable') {
        await updateClaimed(reversal.id, holder, retry(reversal, attempts, 'CONSULTA', 'No se pudo consultar al certificador si la nota de crédito quedó certificada; se volverá a consultar.', 'indeterminate'));
        return;
      }
    }
    attempts += 1;
    if (!(await updateClaimed(reversal.id, holder, { state: 'indeterminate', attempts, certifier: certifier.name }, false))) return;
    const outcome = await attempt(invoice.id, holder, 'credit_note', () => certifier.certify(document, identifier));
    switch (outcome.kind) {
      case 'certified':
        await updateClaimed(reversal.id, holder, { state: 'done', uuid: outcome.uuid, serie: outcome.serie, numero: outcome.numero, certifiedXml: outcome.xml, doneAt: outcome.certifiedAt, lastErrorCode: null, lastErrorMessage: null });
        return;
      case 'already_certified':
        await updateClaimed(reversal.id, holder, { state: 'done', uuid: outcome.uuid, serie: outcome.serie, numero: outcome.numero, doneAt: new Date(), lastErrorCode: null, lastErrorMessage: null });
        return;
      default:
        await settleUnfinished(reversal, invoice, holder, attempts, outcome);
    }
  }

  return {
    /** One round of due voids and credit notes under `holder`; how many it claimed. `stopped` halts the rest. */
    async runOnce(holder: string, batch: number, stopped: () => Date | null): Promise<number> {
      const claimed = await claimDueReversals(holder, batch, options.leaseSeconds);
      for (const reversal of claimed) {
        const pausedUntil = stopped();
        if (pausedUntil !== null) {
          await updateClaimed(reversal.id, holder, { nextAttemptAt: pausedUntil });
          continue;
        }
        try {
          const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.id, reversal.invoiceId));
          if (!invoice) continue;
          if (reversal.kind === 'void') await settleVoid(reversal, invoice, holder);
          else await settleCreditNote(reversal, invoice, holder);
        } catch (error) {
          // The lease runs out and another round takes it: the identifier keeps a resend harmless.
          log.error({ err: error, reversalId: reversal.id }, 'FEL reversal attempt failed');
        }
      }
      return claimed.length;
    },
  };
}
