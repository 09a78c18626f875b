import { describe, expect, it } from 'vitest';
import { readableLedgerNote, topUpRequestNote } from './notes';

describe('a top-up request’s ledger note', () => {
  it('names the bank, the reference and the deposit’s day dd/mm/aaaa, without the request’s number', () => {
    expect(topUpRequestNote({ bank: 'BI', reference: '4455 6677', depositDate: '2026-11-20' })).toBe('Depósito Banco Industrial, referencia 4455 6677, del 20/11/2026');
  });

  it('reads a note written in the older form as the current one, and any other note as written', () => {
    expect(readableLedgerNote('Depósito Banrural, referencia CLI-1 (copia), del 2026-11-20 (solicitud 12)')).toBe('Depósito Banrural, referencia CLI-1 (copia), del 20/11/2026');
    expect(readableLedgerNote('Depósito Banco Industrial, referencia 4455 6677, del 20/11/2026')).toBe('Depósito Banco Industrial, referencia 4455 6677, del 20/11/2026');
    expect(readableLedgerNote('Ajuste del 2026-11-20 (solicitud 12)')).toBe('Ajuste del 2026-11-20 (solicitud 12)');
  });
});
