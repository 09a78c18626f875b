import { describe, expect, it } from 'vitest';
import { rotationSides, type RotationToken } from '@/lib/core/credentials/rotation-pairs';
import { rotationNote, tokenDistinction } from './token-labels';

// Guatemala is UTC-6: 16:00Z is 10:00 there.
const old: RotationToken = { id: 1, tokenPrefix: 'tlk_aaaaaa', createdAt: new Date('2026-11-01T16:00:00Z'), expiresAt: new Date('2026-11-28T16:00:00Z'), state: 'ending', replacedById: 2 };
const fresh: RotationToken = { id: 2, tokenPrefix: 'tlk_bbbbbb', createdAt: new Date('2026-11-27T16:00:00Z'), expiresAt: null, state: 'active', replacedById: null };
const other: RotationToken = { id: 3, tokenPrefix: 'tlk_cccccc', createdAt: new Date('2026-10-05T16:00:00Z'), expiresAt: null, state: 'active', replacedById: null };

describe('a rotation while both tokens work', () => {
  const sides = rotationSides([old, fresh, other]);

  it('tells the new token from the old one by more than the prefix', () => {
    expect(tokenDistinction(fresh, sides)).toBe('nuevo, creado el 27/11/2026, 10:00:00');
    expect(tokenDistinction(old, sides)).toBe('anterior, creado el 01/11/2026, 10:00:00, funciona hasta el 28/11/2026, 10:00:00');
    expect(tokenDistinction(other, sides)).toBe('creado el 05/10/2026, 10:00:00');
  });

  it('names, under each, the other token, its creation and the old one’s end', () => {
    expect(rotationNote(sides.get(2)!)).toBe('Token nuevo. Reemplaza a tlk_aaaaaa… (creado el 01/11/2026, 10:00:00), que sigue funcionando hasta el 28/11/2026, 10:00:00.');
    expect(rotationNote(sides.get(1)!)).toBe('Token anterior: funciona hasta el 28/11/2026, 10:00:00. Lo reemplaza tlk_bbbbbb…, el nuevo, creado el 27/11/2026, 10:00:00.');
    expect(sides.has(3)).toBe(false);
  });

  it('is no pair once the old token stopped', () => {
    expect(rotationSides([{ ...old, state: 'revoked' }, fresh]).size).toBe(0);
    expect(rotationSides([{ ...old, state: 'expired' }, fresh]).size).toBe(0);
  });
});
