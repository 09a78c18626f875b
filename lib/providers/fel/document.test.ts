// The DTE's data checks and its IVA arithmetic, in centavos.

import { describe, expect, it } from 'vitest';
import { SAMPLE_ISSUER, sampleTopUpDocument } from '@/tests/support/fel-examples';
import { CF_LIMIT_CENTAVOS, checkReceptor, documentTotals, felDateTime, lineAmounts, prepareDocument, prepareVoid, serieAndNumero, taxableOfTotal, type DocumentInput } from './document';

const TEST_ISSUER = SAMPLE_ISSUER;
const oneLine = (totalCentavos: number, receptor: DocumentInput['receptor'] = { kind: 'cf' }): DocumentInput =>
  sampleTopUpDocument(totalCentavos, receptor, new Date('2026-11-27T14:00:00Z'));

describe('IVA arithmetic per line, in centavos', () => {
  it.each([
    // [total, MontoGravable, MontoImpuesto]
    [1, 1, 0], // Q 0.01: 0.89 rounds to 0.01
    [14, 13, 1], // Q 0.14: 12.5 centavos, half up
    [100, 89, 11], // Q 1.00: 89.29
    [11_200, 10_000, 1_200], // exact
    [249_999, 223_213, 26_786], // Q 2,499.99: 223,213.39
    [100_000_000, 89_285_714, 10_714_286], // Q 1,000,000.00: 89,285,714.29
  ])('a line of %i centavos: taxable %i, IVA %i', (total, taxable, tax) => {
    expect(taxableOfTotal(total)).toBe(taxable);
    expect(lineAmounts({ quantity: 1, unitPriceCentavos: total })).toEqual({ priceCentavos: total, discountCentavos: 0, totalCentavos: total, taxableCentavos: taxable, taxCentavos: tax });
  });

  it('matches total / 1.12 rounded for every amount up to Q 100', () => {
    for (let total = 1; total <= 10_000; total += 1) {
      expect(taxableOfTotal(total)).toBe(Math.round((total * 100) / 112));
    }
  });

  it('applies quantity and discount before the tax', () => {
    expect(lineAmounts({ quantity: 3, unitPriceCentavos: 1_000, discountCentavos: 500 })).toEqual({
      priceCentavos: 3_000, discountCentavos: 500, totalCentavos: 2_500, taxableCentavos: 2_232, taxCentavos: 268,
    });
  });

  it('adds the lines’ own taxes up, not a tax of the sum', () => {
    const lines = [1, 1, 1].map(() => ({ amounts: lineAmounts({ quantity: 1, unitPriceCentavos: 14 }) }));
    // Each Q 0.14 line has 1 centavo of IVA; a tax of the sum (42 → 37.5 → 38, IVA 4) would not add up.
    expect(documentTotals(lines)).toEqual({ taxCentavos: 3, grandTotalCentavos: 42 });
  });

  it('itemizes no IVA on an FPEQ', () => {
    const prepared = prepareDocument({ ...oneLine(10_000), type: 'FPEQ', issuer: { ...TEST_ISSUER, affiliation: 'PEQ' } });
    expect(prepared.ok && prepared.document.totals).toEqual({ taxCentavos: 0, grandTotalCentavos: 10_000 });
  });
});

describe('receptor checks', () => {
  it('accepts a NIT with its mod-11 check character, normalized', () => {
    expect(checkReceptor({ kind: 'nit', nit: '576937-k', name: 'PEREZ LOPEZ, JUAN' }, 100)).toEqual({ ok: true, receptor: { kind: 'nit', nit: '576937K', name: 'PEREZ LOPEZ, JUAN' } });
  });

  it('refuses a NIT with a wrong check character', () => {
    expect(checkReceptor({ kind: 'nit', nit: '5769371', name: 'X' }, 100)).toEqual({ ok: false, problem: { code: 'receptor_nit_invalid' } });
  });

  it('refuses a NIT without a name', () => {
    expect(checkReceptor({ kind: 'nit', nit: '576937K', name: '  ' }, 100)).toEqual({ ok: false, problem: { code: 'receptor_name_invalid' } });
  });

  it('accepts a valid 13-digit CUI and refuses others', () => {
    expect(checkReceptor({ kind: 'cui', cui: '1587 56444 0904', name: 'Ana' }, 100)).toEqual({ ok: true, receptor: { kind: 'cui', cui: '1587564440904', name: 'Ana' } });
    expect(checkReceptor({ kind: 'cui', cui: '158756444090', name: 'Ana' }, 100).ok).toBe(false);
    expect(checkReceptor({ kind: 'cui', cui: '1587564450904', name: 'Ana' }, 100).ok).toBe(false);
  });

  it('accepts CF up to Q 2,499.99 and refuses it from Q 2,500.00', () => {
    expect(checkReceptor({ kind: 'cf' }, CF_LIMIT_CENTAVOS - 1).ok).toBe(true);
    expect(checkReceptor({ kind: 'cf' }, CF_LIMIT_CENTAVOS)).toEqual({ ok: false, problem: { code: 'cf_over_limit', limitCentavos: 250_000 } });
    expect(prepareDocument(oneLine(249_999)).ok).toBe(true);
    expect(prepareDocument(oneLine(250_000))).toEqual({ ok: false, problems: [{ code: 'cf_over_limit', limitCentavos: 250_000 }] });
  });
});

describe('prepareDocument', () => {
  it('lists every problem of the data', () => {
    const prepared = prepareDocument({
      ...oneLine(0),
      type: 'FPEQ',
      issuer: { ...TEST_ISSUER, nit: '123', establishmentCode: 0, legalName: 'a\u0001b' },
      emittedAt: new Date(Number.NaN),
    });
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.problems.map((problem) => problem.code)).toEqual([
      'type_does_not_match_affiliation', 'issuer_nit_invalid', 'establishment_code_invalid', 'text_invalid', 'emission_time_invalid', 'line_amount_invalid',
    ]);
  });

  it('refuses a document without lines, and fractional or negative amounts', () => {
    expect(prepareDocument({ ...oneLine(100), lines: [] })).toEqual({ ok: false, problems: [{ code: 'no_lines' }] });
    expect(prepareDocument(oneLine(10.5)).ok).toBe(false);
    expect(prepareDocument({ ...oneLine(100), lines: [{ goodsOrService: 'S', quantity: 0, description: 'x', unitPriceCentavos: 100 }] }).ok).toBe(false);
    expect(prepareDocument({ ...oneLine(100), lines: [{ goodsOrService: 'S', quantity: 1, description: 'x', unitPriceCentavos: 100, discountCentavos: 100 }] }).ok).toBe(false);
  });

  it('numbers the lines and adds them up', () => {
    const prepared = prepareDocument({
      ...oneLine(100, { kind: 'nit', nit: '576937K', name: 'PEREZ' }),
      lines: [
        { goodsOrService: 'S', quantity: 1, description: 'uno', unitPriceCentavos: 100 },
        { goodsOrService: 'B', quantity: 2, description: 'dos', unitPriceCentavos: 249_999 },
      ],
    });
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.document.lines.map((line) => line.number)).toEqual([1, 2]);
    expect(prepared.document.totals).toEqual({ taxCentavos: 11 + (499_998 - 446_427), grandTotalCentavos: 500_098 });
  });
});

describe('dates, voids and numbers', () => {
  it('writes instants in Guatemala’s time with its offset', () => {
    expect(felDateTime(new Date('2026-11-27T05:31:05.900Z'))).toBe('2026-11-26T23:31:05-06:00');
  });

  it('derives serie and número from the UUID as SAT does', () => {
    expect(serieAndNumero('A1B2C3D4-0000-0010-8000-00AA00BB00CC')).toEqual({ serie: 'A1B2C3D4', numero: '16' });
    expect(serieAndNumero('a1b2c3d4-ffff-ffff-8000-00aa00bb00cc')).toEqual({ serie: 'A1B2C3D4', numero: '4294967295' });
  });

  it('checks a void’s UUID, parties and reason', () => {
    const valid = { uuid: 'a1b2c3d4-0000-0010-8000-00aa00bb00cc', issuerNit: '576937-K', receptorId: 'cf', originalEmittedAt: new Date(), voidedAt: new Date(), reason: ' Error en el receptor ' };
    expect(prepareVoid(valid)).toMatchObject({ ok: true, request: { uuid: 'A1B2C3D4-0000-0010-8000-00AA00BB00CC', issuerNit: '576937K', receptorId: 'CF', reason: 'Error en el receptor' } });
    expect(prepareVoid({ ...valid, uuid: 'nope', receptorId: '123', reason: 'x'.repeat(256) })).toEqual({
      ok: false, problems: [{ code: 'uuid_invalid' }, { code: 'receptor_invalid' }, { code: 'reason_invalid' }],
    });
  });
});

describe('a credit note (NCRE)', () => {
  const reference = { uuid: 'a1b2c3d4-0000-4000-8000-000000000001', emittedAt: new Date('2026-11-20T15:00:00Z'), reason: '  Devolución de la recarga ' };

  it('references exactly one earlier DTE, itemizes IVA for a general-regime issuer, and takes either affiliation', () => {
    const prepared = prepareDocument({ ...oneLine(11_200), type: 'NCRE', reference });
    expect(prepared).toMatchObject({ ok: true, document: { type: 'NCRE', reference: { uuid: reference.uuid.toUpperCase(), reason: 'Devolución de la recarga' }, totals: { taxCentavos: 1_200 } } });
    const small = prepareDocument({ ...oneLine(11_200), issuer: { ...TEST_ISSUER, affiliation: 'PEQ' }, type: 'NCRE', reference });
    expect(small).toMatchObject({ ok: true, document: { totals: { taxCentavos: 0 } } });
  });

  it('is refused without its reference, with a bad one, and an invoice is refused with one', () => {
    expect(prepareDocument({ ...oneLine(11_200), type: 'NCRE' })).toEqual({ ok: false, problems: [{ code: 'reference_invalid' }] });
    expect(prepareDocument({ ...oneLine(11_200), type: 'NCRE', reference: { ...reference, uuid: 'no-es-uuid' } })).toEqual({ ok: false, problems: [{ code: 'reference_invalid' }] });
    expect(prepareDocument({ ...oneLine(11_200), type: 'NCRE', reference: { ...reference, reason: 'x'.repeat(256) } })).toEqual({ ok: false, problems: [{ code: 'reference_invalid' }] });
    expect(prepareDocument({ ...oneLine(11_200), reference })).toEqual({ ok: false, problems: [{ code: 'reference_invalid' }] });
  });
});

