import { describe, expect, it } from 'vitest';
import { recoveryCodesFile } from './recovery-codes-file';

describe('recovery codes as a file', () => {
  const codes = ['abcde-fghjk', 'mnpqr-stuvw'];

  it('names the service and the Guatemalan date in the file name', () => {
    // 03:30 UTC on the 28th is still the 27th in Guatemala.
    const file = recoveryCodesFile(codes, { serviceName: 'Pasarela de Consultas Tributarias, S.A.', product: 'el portal', now: new Date('2026-11-28T03:30:00Z') });
    expect(file.fileName).toBe('codigos-de-recuperacion-pasarela-de-consultas-tributarias-s-a-2026-11-27.txt');
  });

  it('holds every code on its own line, with the service, the place and when they were made', () => {
    const { content } = recoveryCodesFile(codes, { serviceName: 'Pasarela', product: 'la consola', now: new Date('2026-11-27T16:05:09Z') });
    const lines = content.split('\r\n');
    expect(lines).toContain('abcde-fghjk');
    expect(lines).toContain('mnpqr-stuvw');
    expect(lines.filter((line) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(line))).toEqual(codes);
    expect(content).toContain('Pasarela (la consola)');
    expect(content).toContain('27/11/2026, 10:05:09 (hora de Guatemala)');
  });
});
