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

/** A ledger note as people read it: an older top-up request's note in the current form, any other as written. */
export function readableLedgerNote(note: string): string {
  const older = OLDER_TOP_UP_NOTE.exec(note);
  return older ? `${older[1]}${dayText(older[2]!)}` : note;
}
