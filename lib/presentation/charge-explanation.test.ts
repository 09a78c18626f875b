// A query's charge in one line, and its balance movements adding up to it (issue 24, defect 6).
import { describe, expect, it } from 'vitest';
import { explainCharge } from './charge-explanation';

const at = new Date('2026-11-24T10:32:00Z');
const hold = { id: 1, kind: 'hold' as const, amountCentavos: -150, actor: 'system:lookup', createdAt: at };

describe('explainCharge', () => {
  it('a charged query: the hold takes the tariff, the capture moves nothing more, the total is minus the charge', () => {
    const charge = explainCharge({ httpStatus: 200, chargedCentavos: 150, tariffCentavos: 150, errorMessage: null }, [hold, { ...hold, id: 2, kind: 'capture', amountCentavos: 0 }], 'rtu');
    expect(charge.notChargedBecause).toBeUndefined();
    expect(charge.movements.map(({ label, effectCentavos }) => [label, effectCentavos])).toEqual([
      ['Reserva del saldo al iniciar la consulta', -150],
      ['Cobro confirmado: la reserva queda como cobro', 0],
    ]);
    expect(charge.totalEffectCentavos).toBe(-charge.chargedCentavos);
  });

  it('a query not charged says why: not a 200, not a billed lookup, tariff 0, hold voided by the sweeper', () => {
    const voided = explainCharge({ httpStatus: 502, chargedCentavos: 0, tariffCentavos: 150, errorMessage: 'x' }, [hold, { ...hold, id: 2, kind: 'void', amountCentavos: 150 }], 'rtu');
    expect(voided.notChargedBecause).toBe('Solo se cobra una respuesta 200 y esta terminó en 502: la reserva se liberó.');
    expect(voided.movements.map(({ label, effectCentavos }) => [label, effectCentavos])).toEqual([
      ['Reserva del saldo al iniciar la consulta', -150],
      ['Reserva liberada: el saldo se devuelve', 150],
    ]);
    expect(voided.totalEffectCentavos).toBe(0);
    expect(explainCharge({ httpStatus: 200, chargedCentavos: 0, tariffCentavos: null, errorMessage: null }, [], 'renap').notChargedBecause).toBe(
      'RENAP por CUI no se cobra: solo los catálogos tienen tarifa.',
    );
    expect(explainCharge({ httpStatus: 200, chargedCentavos: 0, tariffCentavos: 0, errorMessage: null }, [], 'omisos').notChargedBecause).toBe(
      'La tarifa de la integración era Q 0.00 cuando se hizo la consulta.',
    );
    const swept = explainCharge(
      { httpStatus: 200, chargedCentavos: 0, tariffCentavos: 150, errorMessage: '(hold voided by the sweeper before settlement)' },
      [hold, { ...hold, id: 2, kind: 'void', amountCentavos: 150, actor: 'system:sweeper' }],
      'rtu',
    );
    expect(swept.notChargedBecause).toContain('La reserva se liberó antes de confirmar el cobro');
    expect(swept.movements[1]!.label).toContain('por el barrido');
  });
});
