import Link from 'next/link';
import type { ReactNode } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import type { InvoiceReversal } from '@/db/schema';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';
import type { InvoiceReversalView } from '@/lib/surfaces/console/invoice-reversals';
import { receptorText } from '@/lib/presentation/invoice-labels';
import { correctReceptorAction, creditNoteAction, voidInvoiceAction } from './actions';

interface Props {
  invoice: {
    id: number;
    state: string;
    serie: string | null;
    numero: string | null;
    totalCentavos: number;
    integrationId: number;
    integrationName: string;
    integrationReceptor: string;
    integrationReceptorDiffers: boolean;
  };
  reversals: InvoiceReversalView;
  /** Administrators act; support staff read. */
  canAct: boolean;
}

function whoAsked(reversal: InvoiceReversal): string {
  return reversal.requestedBy.replace(/^user:\d+ /, '');
}

/** Whom a correction's replacing invoice names. */
function correctedReceptor(reversal: InvoiceReversal): string {
  return receptorText({ receptorKind: reversal.correctionReceptorKind ?? 'cf', receptorId: reversal.correctionReceptorId ?? '', receptorName: reversal.correctionReceptorName });
}

/** A correction of the receptor under way or done: what it does, and the invoice that replaces it. */
function CorrectionText({ reversal }: { reversal: InvoiceReversal }) {
  const how = reversal.kind === 'void' ? 'su anulación' : 'una nota de crédito por su total';
  const asked = `Corrección del receptor solicitada por ${whoAsked(reversal)} el ${formatDateTime(reversal.requestedAt)} (motivo: ${reversal.reason})`;
  if (reversal.state !== 'done') {
    return <p data-testid="invoice-reversal">{`${asked}: se está enviando ${how} al certificador y, en cuanto SAT la acepte, se emitirá otra factura por la misma recarga a ${correctedReceptor(reversal)}. El saldo no cambia.`}</p>;
  }
  const done = reversal.kind === 'void' ? `anulada ante SAT el ${formatDateTime(reversal.doneAt ?? reversal.requestedAt)}` : `revertida por la nota de crédito ${reversal.serie}-${reversal.numero} (UUID ${reversal.uuid})`;
  return (
    <p data-testid="invoice-reversal">
      {`${asked}: ${done}; el saldo no cambió. `}
      {reversal.replacementInvoiceId !== null && (
        <Link href={`/admin/facturas/${reversal.replacementInvoiceId}`} data-testid="invoice-replacement">{`La reemplaza la factura #${reversal.replacementInvoiceId}, a ${correctedReceptor(reversal)}`}</Link>
      )}
    </p>
  );
}

function liveText(reversal: InvoiceReversal): string {
  const asked = `solicitada por ${whoAsked(reversal)} el ${formatDateTime(reversal.requestedAt)} (motivo: ${reversal.reason}); se descontaron ${formatQuetzales(reversal.amountCentavos)} del saldo`;
  if (reversal.kind === 'void') {
    return reversal.state === 'done' ? `Anulada ante SAT el ${formatDateTime(reversal.doneAt ?? reversal.requestedAt)}: anulación ${asked}.` : `Anulación ${asked}. Se está enviando al certificador.`;
  }
  if (reversal.state === 'to_correct') {
    return `Nota de crédito ${asked}. El certificador la rechazó${reversal.lastErrorCode ? ` (${reversal.lastErrorCode})` : ''}: ${reversal.lastErrorMessage ?? ''} Es de un reembolso de un pago en línea: el saldo no cambió; se reintenta desde la página del pago.`;
  }
  return reversal.state === 'done'
    ? `Nota de crédito ${reversal.serie}-${reversal.numero} (UUID ${reversal.uuid}) certificada el ${formatDateTime(reversal.doneAt ?? reversal.requestedAt)}, ${asked}.`
    : `Nota de crédito ${asked}. Se está enviando al certificador.`;
}

/**
 * «Corregir receptor»: the invoice reissued to whom the integration's billing data names now, by its
 * void (in time) or a credit note (after), for the same sale; the balance never moves.
 */
function CorrectionForm({ invoice, canAct, kind, reasonField }: { invoice: Props['invoice']; canAct: boolean; kind: 'void' | 'credit_note'; reasonField: ReactNode }) {
  const data = `/admin/integraciones/${invoice.integrationId}/datos#receptor`;
  if (!invoice.integrationReceptorDiffers) {
    return (
      <p className="small" data-testid="invoice-correction-hint">
        {`Para corregir a quién nombra, cambie primero el receptor de la integración (hoy ${invoice.integrationReceptor}, el mismo de esta factura): `}
        <Link href={data}>Receptor de las facturas</Link>.
      </p>
    );
  }
  const how = kind === 'void' ? 'se anulará ante SAT' : 'se emitirá una nota de crédito por su total (venció el plazo para anularla)';
  const text = `${how} y se emitirá otra factura por la misma recarga a ${invoice.integrationReceptor}. El saldo no cambia.`;
  if (!canAct) return <p data-testid="invoice-correction-hint">{`La integración registró otro receptor (${invoice.integrationReceptor}). Un administrador puede corregir la factura: ${text}`}</p>;
  return (
    <div className="stack" data-testid="invoice-correct-receptor">
      <h3>Corregir receptor</h3>
      <p>{`La integración tiene registrado otro receptor: ${invoice.integrationReceptor}. Al corregir, ${text}`}</p>
      <ActionForm
        action={correctReceptorAction}
        hidden={{ invoiceId: invoice.id }}
        submitLabel="Corregir receptor"
        pendingLabel="Corrigiendo…"
        resetOnSuccess
        confirmation={{
          kind: 'text',
          title: `Corregir el receptor de la factura ${invoice.serie}-${invoice.numero}`,
          message: `La factura ${text}`,
          confirmLabel: 'Corregir receptor',
        }}
      >
        {reasonField}
      </ActionForm>
    </div>
  );
}

/** The invoice's void (within SAT's deadline, shown by the button) or, after it, its credit note. */
export function ReversalSection({ invoice, reversals, canAct }: Props) {
  const { live, lastRefused, voidableUntilText, voidDeadlineDay, voidableNow } = reversals;
  const hidden = { invoiceId: invoice.id };
  const name = `${invoice.serie}-${invoice.numero}`;
  const reasonField = (
    <Field name="motivo" label="Motivo (obligatorio)" hint={`De 1 a ${MAX_VOID_REASON_LENGTH} caracteres; lo recibe SAT.`} maxLength={MAX_VOID_REASON_LENGTH} required data-testid="reversal-reason" />
  );
  return (
    <section className="card" aria-labelledby="anulacion-factura">
      <h2 id="anulacion-factura">Anulación y nota de crédito</h2>
      {live && (live.correctionReceptorKind ? <CorrectionText reversal={live} /> : <p data-testid="invoice-reversal">{liveText(live)}</p>)}
      {!live && lastRefused && (
        <p className="notice warn" role="note" data-testid="invoice-reversal-refused">
          {`El certificador rechazó ${lastRefused.correctionReceptorKind ? 'la corrección del receptor' : lastRefused.kind === 'void' ? 'la anulación' : 'la nota de crédito'}${lastRefused.lastErrorCode ? ` (${lastRefused.lastErrorCode})` : ''}: ${lastRefused.lastErrorMessage ?? ''} ${lastRefused.correctionReceptorKind ? 'La factura sigue vigente y el saldo no cambió.' : `Se devolvieron ${formatQuetzales(lastRefused.amountCentavos)} al saldo.`}`}
        </p>
      )}
      {invoice.state === 'certified' && !live && (
        <CorrectionForm invoice={invoice} canAct={canAct} kind={voidableNow ? 'void' : 'credit_note'} reasonField={reasonField} />
      )}
      {invoice.state !== 'certified' ? (
        <p className="muted">Solo una factura certificada se anula o lleva nota de crédito.</p>
      ) : live ? null : voidableNow ? (
        canAct ? (
          <ActionForm
            action={voidInvoiceAction}
            hidden={hidden}
            submitLabel="Anular"
            pendingLabel="Anulando…"
            resetOnSuccess
            confirmation={{
              kind: 'text',
              title: `Anular la factura ${name}`,
              message: `Se anulará ante SAT y se descontarán ${formatQuetzales(invoice.totalCentavos)} del saldo de ${invoice.integrationName}. Una anulación no se puede deshacer.`,
              confirmLabel: 'Anular',
            }}
          >
            {reasonField}
            <p className="small" data-testid="void-deadline">
              {voidableUntilText}
            </p>
          </ActionForm>
        ) : (
          <p data-testid="void-deadline">{`${voidableUntilText} Solo un administrador puede anularla.`}</p>
        )
      ) : (
        <>
          <p data-testid="void-deadline">{`El plazo para anularla venció el ${voidDeadlineDay}: se corrige con una nota de crédito (NCRE) que la referencia, por su total.`}</p>
          {canAct ? (
            <ActionForm
              action={creditNoteAction}
              hidden={hidden}
              submitLabel="Emitir nota de crédito"
              pendingLabel="Emitiendo…"
              resetOnSuccess
              confirmation={{
                kind: 'text',
                title: `Nota de crédito de la factura ${name}`,
                message: `Se emitirá ante SAT una nota de crédito por ${formatQuetzales(invoice.totalCentavos)} y se descontará ese monto del saldo de ${invoice.integrationName}.`,
                confirmLabel: 'Emitir nota de crédito',
              }}
            >
              {reasonField}
            </ActionForm>
          ) : (
            <p className="muted">Solo un administrador puede emitirla.</p>
          )}
        </>
      )}
    </section>
  );
}
