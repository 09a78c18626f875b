// An integration's name and the balance's movements as lib/core/billing/ledger.ts checks them:
// the limits, and each check's problem as a code. The words people read are the rungs' above:
// lib/flows/integration-management/setting-schemas.ts (the forms' schemas, with their messages)
// and lib/presentation/balance-refusals.ts (a refused movement, as the console and the CLI say it).

/** The largest tariff (Q 10,000.00 per query) and the largest single movement (Q 100,000,000.00). */
export const MAX_TARIFF_CENTAVOS = 1_000_000;
export const MAX_MOVEMENT_CENTAVOS = 100_000_000_00;

/** A ledger movement's note: at least this many characters once trimmed, at most the second. */
export const LEDGER_NOTE_MIN_LENGTH = 3;
export const LEDGER_NOTE_MAX_LENGTH = 500;

export type AmountProblem = 'amount_not_whole' | 'amount_not_positive' | 'amount_too_large';
export type AdjustmentProblem = 'amount_not_whole' | 'adjustment_zero' | 'adjustment_too_large';
export type NoteProblem = 'note_too_short' | 'note_too_long';

/** What is wrong with an amount to add (a top-up), in centavos; null when nothing is. */
export function positiveCentavosProblem(centavos: number): AmountProblem | null {
  if (!Number.isInteger(centavos)) return 'amount_not_whole';
  if (centavos <= 0) return 'amount_not_positive';
  if (centavos > MAX_MOVEMENT_CENTAVOS) return 'amount_too_large';
  return null;
}

/** What is wrong with an adjustment (up or down), in centavos; null when nothing is. */
export function adjustmentCentavosProblem(centavos: number): AdjustmentProblem | null {
  if (!Number.isInteger(centavos)) return 'amount_not_whole';
  if (centavos === 0) return 'adjustment_zero';
  if (Math.abs(centavos) > MAX_MOVEMENT_CENTAVOS) return 'adjustment_too_large';
  return null;
}

/** What is wrong with a movement's note, once trimmed; null when nothing is. */
export function ledgerNoteProblem(trimmed: string): NoteProblem | null {
  if (trimmed.length < LEDGER_NOTE_MIN_LENGTH) return 'note_too_short';
  if (trimmed.length > LEDGER_NOTE_MAX_LENGTH) return 'note_too_long';
  return null;
}
