import { ActionForm, Field } from '@/components/console/action-form';
import type { InvoiceReversal } from '@/db/schema';
import { calendarDayText, REVERSAL_MESSAGES } from '@/lib/core/invoices/messages';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { MAX_VOID_REASON_LENGTH } from '@/lib/providers/fel/document';
import type { InvoiceReversalView } from '@/lib/surfaces/console/invoice-reversals';
import { creditNoteAction, voidInvoiceAction } from './actions';

interface Props {
  invoice: { id: number; state: string; serie: string | null; numero: string | null; totalCentavos: number; integrationName: string };
  reversals: InvoiceReversalView;
  /** Administrators act; support staff read. */
  canAct: boolean;
}

function whoAsked(reversal: InvoiceReversal): string {
  return reversal.requestedBy.replace(/^user:\d+ /, '');
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

/** The invoice's void (within SAT's deadline, shown by the button) or, after it, its credit note. */
export function ReversalSection({ invoice, reversals, canAct }: Props) {
  const { live, lastRefused, voidDeadline, voidableNow } = reversals;
  const hidden = { invoiceId: invoice.id };
  const name = `${invoice.serie}-${invoice.numero}`;
  const reasonField = (
    <Field name="motivo" label="Motivo (obligatorio)" hint={`De 1 a ${MAX_VOID_REASON_LENGTH} caracteres; lo recibe SAT.`} maxLength={MAX_VOID_REASON_LENGTH} required data-testid="reversal-reason" />
  );
  return (
    <section className="card" aria-labelledby="anulacion-factura">
      <h2 id="anulacion-factura">Anulación y nota de crédito</h2>
      {live && <p data-testid="invoice-reversal">{liveText(live)}</p>}
      {!live && lastRefused && (
        <p className="notice warn" role="note" data-testid="invoice-reversal-refused">
          {`El certificador rechazó ${lastRefused.kind === 'void' ? 'la anulación' : 'la nota de crédito'}${lastRefused.lastErrorCode ? ` (${lastRefused.lastErrorCode})` : ''}: ${lastRefused.lastErrorMessage ?? ''} Se devolvieron ${formatQuetzales(lastRefused.amountCentavos)} al saldo.`}
        </p>
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
              {REVERSAL_MESSAGES.voidableUntil(voidDeadline)}
            </p>
          </ActionForm>
        ) : (
          <p data-testid="void-deadline">{`${REVERSAL_MESSAGES.voidableUntil(voidDeadline)} Solo un administrador puede anularla.`}</p>
        )
      ) : (
        <>
          <p data-testid="void-deadline">{`El plazo para anularla venció el ${calendarDayText(voidDeadline)}: se corrige con una nota de crédito (NCRE) que la referencia, por su total.`}</p>
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
