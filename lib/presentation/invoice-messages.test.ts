// The words of a refused void, credit note or receptor correction: lib/core/billing/invoice-reversals.ts
// says why in codes, the console and the CLI say it in these sentences.
import { describe, expect, it } from 'vitest';
import { REFUND_MESSAGES } from '@/lib/flows/online-top-ups/messages';
import { REVERSAL_MESSAGES, reversalRefusalText, wordedReversal } from './invoice-messages';

describe('a refused reversal in words', () => {
  it('says each reason as the console always said it', () => {
    expect(reversalRefusalText({ code: 'invalid', why: 'reason_invalid' })).toBe('Escriba el motivo: de 1 a 255 caracteres.');
    expect(reversalRefusalText({ code: 'not_found', why: 'not_found' })).toBe(REVERSAL_MESSAGES.notFound);
    expect(reversalRefusalText({ code: 'not_certified', why: 'not_certified' })).toBe(REVERSAL_MESSAGES.notCertified);
    expect(reversalRefusalText({ code: 'past_deadline', why: 'past_deadline', deadline: '2027-01-04' })).toBe(
      'El plazo para anular esta factura venció el 04/01/2027 (vencimiento de la declaración del IVA del mes en que se emitió). Emita una nota de crédito en su lugar.',
    );
    expect(reversalRefusalText({ code: 'credit_note_exists', why: 'credit_note_exists' })).toBe(REVERSAL_MESSAGES.creditNoteExists);
    expect(reversalRefusalText({ code: 'already_voided', why: 'already_voided' })).toBe(REVERSAL_MESSAGES.alreadyVoided);
    expect(reversalRefusalText({ code: 'already_voided', why: 'replaced' })).toBe(REVERSAL_MESSAGES.replaced);
    expect(reversalRefusalText({ code: 'already_voided', why: 'correction_under_way' })).toBe(REVERSAL_MESSAGES.correctionUnderWay);
    expect(reversalRefusalText({ code: 'credit_note_exists', why: 'correction_after_reversal' })).toBe(REVERSAL_MESSAGES.correctionAfterReversal);
    expect(reversalRefusalText({ code: 'balance_spent', why: 'balance_spent', balanceCentavos: 4_999, totalCentavos: 5_000 })).toBe(REVERSAL_MESSAGES.balanceSpent(4_999, 5_000));
    expect(REVERSAL_MESSAGES.balanceSpent(4_999, 5_000)).toContain('(saldo actual Q 49.99, factura de Q 50.00)');
    expect(reversalRefusalText({ code: 'receptor_unchanged', why: 'receptor_unchanged' })).toBe(REVERSAL_MESSAGES.receptorUnchanged);
    expect(reversalRefusalText({ code: 'receptor_refused', why: 'cf_over_limit' })).toBe(REVERSAL_MESSAGES.correctionCfOverLimit);
    expect(reversalRefusalText({ code: 'receptor_refused', why: 'receptor_invalid' })).toBe(REVERSAL_MESSAGES.correctionReceptorInvalid);
  });

  it('keeps the code and gives the sentence as the message', () => {
    expect(wordedReversal({ ok: false, error: { code: 'invalid', why: 'reason_invalid' } })).toEqual({ ok: false, error: { code: 'invalid', message: REVERSAL_MESSAGES.reasonInvalid } });
    expect(wordedReversal({ ok: true, value: 1 })).toEqual({ ok: true, value: 1 });
  });

  it('tells a refund the same words of an invoice being corrected', () => {
    expect(REFUND_MESSAGES.invoiceCorrectionUnderWay).toBe(REVERSAL_MESSAGES.correctionUnderWay);
  });
});
