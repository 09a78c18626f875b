import type { TokenState } from './token-state';

// A rotation keeps the token's name, so while both tokens work (the overlap) the name and a prefix
// are all that tell them apart; which side each token is on, for the words that add which one is
// new, when each was created, and when the old one stops (lib/presentation/token-labels.ts).

export interface RotationToken {
  id: number;
  tokenPrefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  state: TokenState;
  /** The token that replaced this one (a rotation). */
  replacedById: number | null;
}

/** One side of a rotation whose old token still works: the other token and the old one's end. */
export type RotationSide =
  | { side: 'new'; other: Pick<RotationToken, 'tokenPrefix' | 'createdAt'>; oldWorksUntil: Date | null }
  | { side: 'old'; other: Pick<RotationToken, 'tokenPrefix' | 'createdAt'>; oldWorksUntil: Date | null };

/** For each token of a rotation still in its overlap (the old one ending, the new one working), its side. */
export function rotationSides(tokens: readonly RotationToken[]): Map<number, RotationSide> {
  const byId = new Map(tokens.map((token) => [token.id, token]));
  const sides = new Map<number, RotationSide>();
  for (const old of tokens) {
    if (old.state !== 'ending' || old.replacedById === null) continue;
    const replacement = byId.get(old.replacedById);
    if (!replacement || (replacement.state !== 'active' && replacement.state !== 'ending')) continue;
    sides.set(old.id, { side: 'old', other: replacement, oldWorksUntil: old.expiresAt });
    // A new token rotated again is the old side of its own pair: that is the one it is ending in.
    if (!sides.has(replacement.id)) sides.set(replacement.id, { side: 'new', other: old, oldWorksUntil: old.expiresAt });
  }
  return sides;
}
