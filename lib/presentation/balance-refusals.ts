// A refused balance movement (lib/core/billing/ledger.ts) as the console and the CLI say it: the
// same words the console's own form fields use for what was typed wrong (form-fields.ts).
import type { BalanceRefusal, BalanceRefusalReason, BalanceResult } from '@/lib/core/billing/ledger';
import { LEDGER_NOTE_MAX_LENGTH, MAX_MOVEMENT_CENTAVOS } from '@/lib/core/integrations/schemas';
import { formatQuetzales } from '@/lib/platform/money';

const WORDS: Record<Exclude<BalanceRefusalReason, 'integration_missing'>, string> = {
  amount_not_whole: 'Use como máximo dos decimales.',
  amount_not_positive: 'El monto debe ser mayor que cero.',
  amount_too_large: `El monto máximo es ${formatQuetzales(MAX_MOVEMENT_CENTAVOS)}.`,
  adjustment_zero: 'El ajuste no puede ser cero.',
  adjustment_too_large: `El ajuste máximo es de ${formatQuetzales(MAX_MOVEMENT_CENTAVOS)}, para sumar o para restar.`,
  note_too_short: 'Escriba una nota que explique el movimiento.',
  note_too_long: `La nota puede tener como máximo ${LEDGER_NOTE_MAX_LENGTH} caracteres.`,
  below_zero: 'El ajuste dejaría el saldo por debajo de cero.',
};

export function balanceRefusalText(refusal: Pick<BalanceRefusal, 'why' | 'integrationId'>): string {
  return refusal.why === 'integration_missing' ? `No existe la integración ${refusal.integrationId}.` : WORDS[refusal.why];
}

/** The movement's result with its refusal in words, for fromResult and the CLI's unwrap. */
export function wordedBalance<T>(result: BalanceResult<T>): BalanceResult<T> {
  return result.ok ? result : { ok: false, error: { ...result.error, message: balanceRefusalText(result.error) } };
}
