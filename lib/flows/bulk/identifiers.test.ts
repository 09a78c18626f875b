import { describe, expect, it } from 'vitest';
import { planItems } from './identifiers';

describe('a submitted list, before anything runs', () => {
  it('sets aside invalid NITs and later repeats, however they are written, and keeps the first as sent', () => {
    expect(planItems('omisos', ['576937-K', '576937k', ' 576937K', '12345678', '000576937K', ''])).toEqual([
      { kind: 'lookup', identifier: '576937-K', field: 'nit' },
      { kind: 'set_aside', identifier: '576937k', reason: 'duplicado' },
      { kind: 'set_aside', identifier: ' 576937K', reason: 'duplicado' },
      { kind: 'set_aside', identifier: '12345678', reason: 'nit_invalido' },
      { kind: 'set_aside', identifier: '000576937K', reason: 'duplicado' },
      { kind: 'set_aside', identifier: '', reason: 'nit_invalido' },
    ]);
  });

  it('on cui-nit reads 13 digits as a CUI (printed with spaces too) and checks it as one', () => {
    expect(planItems('cui_nit', ['1587564440904', '1587 56444 0904', '1587564450904', '576937K'])).toEqual([
      { kind: 'lookup', identifier: '1587564440904', field: 'cui' },
      { kind: 'set_aside', identifier: '1587 56444 0904', reason: 'duplicado' },
      { kind: 'set_aside', identifier: '1587564450904', reason: 'cui_invalido' },
      { kind: 'lookup', identifier: '576937K', field: 'nit' },
    ]);
  });

  it('on rtu and omisos takes a CUI as the NIT it is since SAT-DSI-393-2025', () => {
    expect(planItems('rtu', ['1587564440904'])).toEqual([{ kind: 'lookup', identifier: '1587564440904', field: 'nit' }]);
  });
});
