import { describe, expect, it } from 'vitest';
import { interpretCatalogAnswer } from '@/lib/sources/catalog-client';
import { catalogAnswerIsEmpty } from './empty-answer';

describe('catalogAnswerIsEmpty', () => {
  it.each(['cui-nit', 'rtu', 'omisos'] as const)('a %s success with nothing recognizable is empty, its fechaConsulta aside', (kind) => {
    const result = interpretCatalogAnswer(kind, 200, JSON.stringify({ estado_consulta: 'EXITOSA', fecha_consulta: '2026-11-24T10:32:00Z', resultado: {} }));
    if (!result.ok) throw new Error(result.detail);
    expect(catalogAnswerIsEmpty(result.value)).toBe(true);
  });

  it('a value anywhere, false included (null is not false), is data', () => {
    expect(catalogAnswerIsEmpty({ nit: null, cui: null, nombre: 'X', fechaConsulta: null })).toBe(false);
    expect(catalogAnswerIsEmpty({ tieneIncumplimientos: false, incumplimientos: [], fechaConsulta: 'x' })).toBe(false);
    expect(catalogAnswerIsEmpty({ regimen: { codigo: null, descripcion: null }, afiliaciones: { isr: null, iva: null }, lista: [] })).toBe(true);
    expect(catalogAnswerIsEmpty({ regimen: { codigo: 0, descripcion: null } })).toBe(false);
  });
});
