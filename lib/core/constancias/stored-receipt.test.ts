// A receipt kept compact reads back as the JWS that was signed, byte for byte (its leaf hash depends
// on it), whatever its payload holds; one kept deflated, or before that as plain JWS, reads as it is.
import { generateKeyPairSync, sign } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { receiptFromStored, receiptToStore } from './stored-receipt';

const { privateKey } = generateKeyPairSync('ed25519');

function jws(payload: unknown): string {
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'k1', typ: 'constancia-de-consulta' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${header}.${body}.${sign(null, Buffer.from(`${header}.${body}`), privateKey).toString('base64url')}`;
}

describe('a stored receipt', () => {
  it('reads back byte for byte, dots, accents and every payload length included', () => {
    const answer = { data: { nombre: 'José Pérez. Hijo', nit: '576937-K', domicilio: 'Zona 10... Guatemala 🇬🇹' }, message: 'ok.' };
    for (let extra = 0; extra < 4; extra++) {
      const receipt = jws({ respuesta: { cuerpo: answer }, relleno: 'x'.repeat(extra) });
      expect(receiptToStore(receipt)).toMatch(/^j1:/);
      expect(receiptFromStored(receiptToStore(receipt))).toBe(receipt);
    }
  });

  it('keeps the payload as its JSON text, about three quarters of the JWS', () => {
    const answer = { data: Array.from({ length: 40 }, (_, index) => ({ codigo: String(index), descripcion: 'Actividad económica registrada', vigente: true })) };
    const receipt = jws({ respuesta: { cuerpo: answer } });
    const stored = receiptToStore(receipt);
    expect(stored).toContain('"descripcion":"Actividad económica registrada"');
    expect(Buffer.byteLength(stored)).toBeLessThan(Buffer.byteLength(receipt) * 0.8);
  });

  it('keeps a payload that is not UTF-8 as plain JWS, which reads back as it is', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'k1' })).toString('base64url');
    const receipt = `${header}.${Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')}.c2lnbmF0dXJl`;
    expect(receiptToStore(receipt)).toBe(receipt);
    expect(receiptFromStored(receiptToStore(receipt))).toBe(receipt);
  });

  it('reads a receipt kept deflated before as the JWS that was signed', () => {
    const receipt = jws({ tipo: 'constancia-de-consulta', respuesta: { cuerpo: { data: { nombre: 'Ana. López' } } } });
    const first = receipt.indexOf('.');
    const last = receipt.lastIndexOf('.');
    const packed = Buffer.concat([Buffer.from(receipt.slice(0, first + 1)), Buffer.from(receipt.slice(first + 1, last), 'base64url'), Buffer.from(receipt.slice(last))]);
    const deflated = `z1:${deflateRawSync(packed, { level: constants.Z_BEST_SPEED }).toString('base64')}`;
    expect(receiptFromStored(deflated)).toBe(receipt);
  });

  it('reads a receipt kept before as plain JWS as it is', () => {
    const receipt = jws({ tipo: 'constancia-de-consulta' });
    expect(receiptFromStored(receipt)).toBe(receipt);
  });

  it('refuses what is not a compact JWS', () => {
    expect(() => receiptToStore('no-es-un-jws')).toThrow(/compact JWS/);
  });
});
