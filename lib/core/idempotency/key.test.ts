import { describe, expect, it } from 'vitest';
import { normalizedRequest, parseCatalogRequest } from '@/lib/flows/lookups/catalog-request';
import { idempotencyKeyHash, readIdempotencyKey } from './key';

function normalized(catalog: 'cui_nit' | 'rtu' | 'omisos', body: unknown): string {
  const parsed = parseCatalogRequest(catalog, { ok: true, value: body });
  if (!parsed.ok) throw new Error(parsed.problem);
  return normalizedRequest(catalog, parsed.request);
}

describe('the Idempotency-Key header', () => {
  it('is absent when not sent', () => {
    expect(readIdempotencyKey(null)).toEqual({ kind: 'absent' });
  });

  it('accepts 1 to 255 printable characters, spaces and punctuation included', () => {
    for (const key of ['a', 'x'.repeat(255), '550e8400-e29b-41d4-a716-446655440000', 'pedido 42/factura #7 ~ {ok}']) {
      expect(readIdempotencyKey(key)).toEqual({ kind: 'valid', key });
    }
  });

  it('refuses an empty key, a key longer than 255 and any character outside printable ASCII', () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'line\nbreak', 'nul\0', 'del\x7f', 'acentuada-é', 'emoji-🙂']) {
      expect(readIdempotencyKey(key)).toEqual({ kind: 'invalid' });
    }
  });

  it('is stored as a hash that tells keys apart, never as its text', () => {
    expect(idempotencyKeyHash('clave-1')).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotencyKeyHash('clave-1')).toBe(idempotencyKeyHash('clave-1'));
    expect(idempotencyKeyHash('clave-1')).not.toBe(idempotencyKeyHash('clave-2'));
    expect(idempotencyKeyHash('clave-1')).not.toContain('clave');
  });
});

describe('the same request', () => {
  it('ignores key order, an explicit default and fields the catalog does not read', () => {
    expect(normalized('cui_nit', { nit: '123', actualizado: false })).toBe(normalized('cui_nit', { actualizado: false, nit: '123' }));
    expect(normalized('cui_nit', { nit: '123' })).toBe(normalized('cui_nit', { nit: '123', actualizado: false }));
    expect(normalized('cui_nit', { nit: '123' })).toBe(normalized('cui_nit', { nit: '123', date_of_birth: '1990-01-01', cui: '' }));
  });

  it('differs in anything the source would see, and between catalogs', () => {
    const base = normalized('rtu', { nit: '123' });
    expect(normalized('rtu', { nit: '124' })).not.toBe(base);
    expect(normalized('rtu', { cui: '123' })).not.toBe(base);
    expect(normalized('rtu', { nit: '123', actualizado: true })).not.toBe(base);
    expect(normalized('rtu', { nit: '123', date_of_birth: '1990-01-01' })).not.toBe(base);
    expect(normalized('rtu', { nit: ' 123' })).not.toBe(base);
    expect(normalized('omisos', { nit: '123' })).not.toBe(base);
  });
});
