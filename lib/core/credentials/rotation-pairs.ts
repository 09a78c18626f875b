import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { TokenState } from './token-state';

// A rotation keeps the token's name, so while both tokens work (the overlap) the name and a prefix
// are all that tell them apart; these words add which one is new, when each was created, and when
// the old one stops. Shared by the console's and the portal's tables, forms and questions.

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

/** What tells a token apart in a list to choose from: "nuevo, creado el …", "anterior, funciona hasta el …", or "creado el …". */
export function tokenDistinction(token: RotationToken, sides: Map<number, RotationSide>): string {
  const side = sides.get(token.id);
  const created = `creado el ${formatDateTime(token.createdAt)}`;
  if (side?.side === 'new') return `nuevo, ${created}`;
  if (side?.side === 'old') return `anterior, ${created}${token.expiresAt ? `, funciona hasta el ${formatDateTime(token.expiresAt)}` : ''}`;
  return created;
}

/** The line under a rotation's token in the tables: which one it is, and the other one. */
export function rotationNote(side: RotationSide): string {
  const until = side.oldWorksUntil ? ` hasta el ${formatDateTime(side.oldWorksUntil)}` : '';
  return side.side === 'new'
    ? `Token nuevo. Reemplaza a ${side.other.tokenPrefix}… (creado el ${formatDateTime(side.other.createdAt)}), que sigue funcionando${until}.`
    : `Token anterior: funciona${until}. Lo reemplaza ${side.other.tokenPrefix}…, el nuevo, creado el ${formatDateTime(side.other.createdAt)}.`;
}
