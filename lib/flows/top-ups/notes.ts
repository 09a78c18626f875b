import { dayText } from '@/lib/platform/time/months';
import { formatQuetzales } from '@/lib/platform/money';
import { bankName } from '@/lib/platform/guatemala/banks';
import type { TopUpRequest } from '@/db/schema';

// The note a top-up request's approval leaves on its ledger entry, read by the integration in
// Movimientos, by staff in the console and on statements: words and a dd/mm/aaaa date, not the
// request's internal number.

/** "Depósito Banco Industrial, referencia 4455 6677, del 20/11/2026". */
export function topUpRequestNote(request: Pick<TopUpRequest, 'bank' | 'reference' | 'depositDate'>): string {
  return `Depósito ${bankName(request.bank)}, referencia ${request.reference}, del ${dayText(request.depositDate)}`;
}

/**
 * The note of an approval: the deposit's words, and when the administrator credited another amount
 * than reported, both amounts and the administrator's note ("…; reportado Q 1,250.50, acreditado
 * Q 1,200.00: comisión bancaria"); an optional note with the reported amount follows the words.
 */
export function approvedTopUpNote(request: Pick<TopUpRequest, 'bank' | 'reference' | 'depositDate' | 'amountCentavos'>, creditedCentavos: number, note: string | null): string {
  const deposit = topUpRequestNote(request);
  if (creditedCentavos !== request.amountCentavos) return `${deposit}; reportado ${formatQuetzales(request.amountCentavos)}, acreditado ${formatQuetzales(creditedCentavos)}: ${note ?? ''}`;
  return note ? `${deposit}; ${note}` : deposit;
}

// Notes approved before that were "…, del 2026-11-20 (solicitud 12)"; ledger rows are never
// rewritten, so they are read in today's form.
const OLDER_TOP_UP_NOTE = /^(Depósito .+, referencia .+, del )(\d{4}-\d{2}-\d{2}) \(solicitud \d+\)$/s;

// An online payment's entries carry our payment id and the provider's (lib/flows/online-top-ups),
// which support reads in the console; an integrator reads what happened, in words.
const ONLINE_PAYMENT_NOTE = /^Pago en línea \((tarjeta|transferencia)\) (recarga-(auto-)?[0-9a-f-]+), \S+ \S+$/;
const ONLINE_REFUND_NOTE = /^Reembolso del pago en línea recarga-[0-9a-f-]+: (.*)$/s;
const ONLINE_REFUND_RETURNED_NOTE = /^Devolución: el proveedor no reembolsó el pago en línea recarga-[0-9a-f-]+\.$/;

/**
 * A ledger note as an integrator reads it: an older top-up request's note in the current form, an
 * online payment's without its ids, any other as written.
 */
export function readableLedgerNote(note: string): string {
  const older = OLDER_TOP_UP_NOTE.exec(note);
  if (older) return `${older[1]}${dayText(older[2]!)}`;
  const online = ONLINE_PAYMENT_NOTE.exec(note);
  if (online) return online[3] ? 'Recarga automática con la tarjeta guardada' : online[1] === 'tarjeta' ? 'Pago en línea con tarjeta' : 'Pago en línea por transferencia bancaria';
  const refund = ONLINE_REFUND_NOTE.exec(note);
  if (refund) return `Reembolso del pago en línea: ${refund[1]}`;
  if (ONLINE_REFUND_RETURNED_NOTE.test(note)) return 'Devolución: el proveedor no hizo el reembolso del pago en línea, y el monto volvió al saldo.';
  return note;
}
