import { describe, expect, it } from 'vitest';
import { ledgerDifferenceDetail, wordedDifference } from './ledger-differences';

describe('a reconciliation difference in words', () => {
  it('says a balance difference with its figures, in the words the CLI always printed', () => {
    expect(ledgerDifferenceDetail({ kind: 'balance_differs_from_ledger', figures: { balance: 301, ledger: 300 } })).toBe('saldo 301 ≠ suma del libro mayor 300 (centavos)');
    expect(ledgerDifferenceDetail({ kind: 'posted_differs_from_balance', figures: { posted: 500, balance: 300, held: 150 } })).toBe(
      'movimientos 500 ≠ saldo 300 + reservas en curso 150 (centavos)',
    );
    expect(ledgerDifferenceDetail({ kind: 'refund_without_credit_note' })).toBe('reembolsos hechos por el proveedor sin su nota de crédito');
  });

  it('reads a run stored before codes as it was written', () => {
    expect(ledgerDifferenceDetail({ kind: 'stale_hold', detail: 'texto guardado antes' })).toBe('texto guardado antes');
  });

  it('gives --json its sentence in detail, and no figures', () => {
    expect(wordedDifference({ integrationId: 7, kind: 'balance_differs_from_ledger', count: 1, sample: [], figures: { balance: 1, ledger: 0 } })).toEqual({
      integrationId: 7,
      kind: 'balance_differs_from_ledger',
      count: 1,
      sample: [],
      detail: 'saldo 1 ≠ suma del libro mayor 0 (centavos)',
    });
  });
});
