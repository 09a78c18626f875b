// What a reconciliation's difference is, in the sentence the CLI prints after its label
// («El saldo no es la suma del libro mayor (saldo 301 ≠ suma del libro mayor 300 (centavos))»).
// lib/core/billing/verify.ts and books.ts store a difference's kind and the figures its sentence
// needs (ledger_verifications.differences); the words are here. Runs stored before kept their
// sentence in `detail`, and read as they were written.
import type { BooksFinding } from '@/lib/core/billing/books';
import type { DifferenceFigures, DifferenceKind, LedgerDifference } from '@/lib/core/billing/verify';

const DETAILS: Record<DifferenceKind, (figures: DifferenceFigures) => string> = {
  balance_differs_from_ledger: ({ balance, ledger }) => `saldo ${balance} ≠ suma del libro mayor ${ledger} (centavos)`,
  posted_differs_from_balance: ({ posted, balance, held }) => `movimientos ${posted} ≠ saldo ${balance} + reservas en curso ${held} (centavos)`,
  capture_without_record: () => 'cobros (capturas) sin su registro de consulta',
  capture_amount_differs: () => 'cobros cuyo monto no es el cobrado en su registro',
  charged_record_without_capture: () => 'registros cobrados sin su cobro en el libro mayor',
  record_captured_twice: () => 'registros con más de un cobro',
  receipt_charge_without_receipt: () => 'cobros de constancia sin su constancia',
  stale_hold: () => 'reservas sin liquidar más viejas que el límite del barrido',
  checkpoint_differs: () => 'horas cuyo saldo de control no coincide con el libro mayor',
  payment_not_credited: () => 'pagos en línea que el proveedor cobró y que no están en el saldo',
  credit_without_invoice: () => 'recargas acreditadas sin factura y sin motivo (la facturación estaba encendida)',
  invoice_amount_differs: () => 'facturas cuyo total no es el monto de su recarga',
  sale_invoiced_twice: () => 'recargas con más de una factura vigente',
  refund_without_credit_note: () => 'reembolsos hechos por el proveedor sin su nota de crédito',
};

type Worded = Pick<LedgerDifference, 'kind' | 'figures' | 'detail'> | Pick<BooksFinding, 'kind'>;

/** A difference's sentence: the one its run stored, if it is from before codes, else its kind's, with its figures. */
export function ledgerDifferenceDetail(difference: Worded): string {
  if ('detail' in difference && typeof difference.detail === 'string') return difference.detail;
  const figures = ('figures' in difference ? difference.figures : undefined) ?? {};
  return DETAILS[difference.kind]?.(figures) ?? difference.kind;
}

/**
 * A difference as `ledger:verify --json` and `books:verify --json` give it, as they always did:
 * integrationId, kind, count, sample and its sentence in `detail` (the figures are in the sentence).
 */
export function wordedDifference<T extends Worded>(difference: T): Omit<T, 'figures' | 'detail'> & { detail: string } {
  const rest: Record<string, unknown> = { ...difference };
  delete rest.figures;
  delete rest.detail;
  return { ...rest, detail: ledgerDifferenceDetail(difference) } as Omit<T, 'figures' | 'detail'> & { detail: string };
}
