import { describe, expect, it } from 'vitest';
import { changesBetween, NOT_FOUND_STATE, watchedStateOf } from './snapshot';

const omisos = (fields: { tieneIncumplimientos: boolean | null; tieneProcesoCoactivo: boolean | null; estadoContribuyente: string | null }) => ({ nit: '576937K', ...fields });

describe('what a watch list watches', () => {
  it('reads omiso, coercive collection and RTU state from an omisos answer, and the person’s RTU state from an rtu answer', () => {
    expect(watchedStateOf('omisos', omisos({ tieneIncumplimientos: true, tieneProcesoCoactivo: null, estadoContribuyente: 'ACTIVO' }))).toEqual({
      registro: 'encontrado',
      omiso: true,
      cobro_coactivo: null,
      estado_rtu: 'ACTIVO',
    });
    expect(watchedStateOf('rtu', { persona: { estado: { codigo: 2, descripcion: 'SUSPENDIDO' } } })).toEqual({ registro: 'encontrado', omiso: null, cobro_coactivo: null, estado_rtu: 'SUSPENDIDO' });
  });

  it('reports each watched field that changed, with before and after', () => {
    const before = watchedStateOf('omisos', omisos({ tieneIncumplimientos: false, tieneProcesoCoactivo: true, estadoContribuyente: 'ACTIVO' }));
    const after = watchedStateOf('omisos', omisos({ tieneIncumplimientos: true, tieneProcesoCoactivo: false, estadoContribuyente: 'ACTIVO' }));
    expect(changesBetween(before, after)).toEqual([
      { kind: 'omiso', before: false, after: true },
      { kind: 'cobro_coactivo', before: true, after: false },
    ]);
    expect(changesBetween(after, after)).toEqual([]);
  });

  it('counts not found as a state: a NIT that disappears or appears is one change, two runs not found are none', () => {
    const found = watchedStateOf('omisos', omisos({ tieneIncumplimientos: true, tieneProcesoCoactivo: false, estadoContribuyente: 'ACTIVO' }));
    expect(changesBetween(found, NOT_FOUND_STATE)).toEqual([{ kind: 'registro', before: 'encontrado', after: 'no_encontrado' }]);
    expect(changesBetween(NOT_FOUND_STATE, found)).toEqual([{ kind: 'registro', before: 'no_encontrado', after: 'encontrado' }]);
    expect(changesBetween(NOT_FOUND_STATE, NOT_FOUND_STATE)).toEqual([]);
  });
});
