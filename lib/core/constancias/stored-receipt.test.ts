// A receipt kept compact reads back as the JWS that was signed, byte for byte (its leaf hash depends
// on it), whatever its payload holds; one kept before as plain JWS reads as it is.
import { generateKeyPairSync, sign } from 'node:crypto';
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
    const answer = { data: { nombre: 'José Pérez. Hijo', nit: '576937-K', domicilio: 'Zona 10... Guatemala' }, message: 'ok.' };
    for (let extra = 0; extra < 4; extra++) {
      const receipt = jws({ respuesta: { cuerpo: answer }, relleno: 'x'.repeat(extra) });
      expect(receiptFromStored(receiptToStore(receipt))).toBe(receipt);
    }
  });

  it('is much smaller than the JWS for an answer of a few kilobytes', () => {
    const answer = { data: Array.from({ length: 40 }, (_, index) => ({ codigo: String(index), descripcion: 'Actividad económica registrada', vigente: true })) };
    const receipt = jws({ respuesta: { cuerpo: answer } });
    expect(receiptToStore(receipt).length).toBeLessThan(receipt.length / 2);
  });

  it('reads a receipt kept before as plain JWS as it is', () => {
    const receipt = jws({ tipo: 'constancia-de-consulta' });
    expect(receiptFromStored(receipt)).toBe(receipt);
  });

  it('refuses what is not a compact JWS', () => {
    expect(() => receiptToStore('no-es-un-jws')).toThrow(/compact JWS/);
  });
});
