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

  it('reads an online payment\'s notes without our id or the provider\'s (issue 64, point 9)', () => {
    const id = 'recarga-0f3c2a9b-5d1e-4c7a-9e21-3b8d6f0a1c55';
    expect(readableLedgerNote(`Pago en línea (tarjeta) ${id}, recurrente pa_abc123`)).toBe('Pago en línea con tarjeta');
    expect(readableLedgerNote(`Pago en línea (transferencia) ${id}, recurrente pa_abc123`)).toBe('Pago en línea por transferencia bancaria');
    expect(readableLedgerNote('Pago en línea (tarjeta) recarga-auto-0f3c2a9b-5d1e-4c7a-9e21-3b8d6f0a1c55, recurrente pa_x')).toBe('Recarga automática con la tarjeta guardada');
    expect(readableLedgerNote(`Reembolso del pago en línea ${id}: pago duplicado`)).toBe('Reembolso del pago en línea: pago duplicado');
    expect(readableLedgerNote(`Devolución: el proveedor no reembolsó el pago en línea ${id}.`)).toBe('Devolución: el proveedor no hizo el reembolso del pago en línea, y el monto volvió al saldo.');
  });
});
