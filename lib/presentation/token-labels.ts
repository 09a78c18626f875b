// How a token's state, its rotation's overlap and the two tokens of a rotation are said: shared by
// the console's and the portal's tables, forms and questions, and the CLI.
import type { OverlapPreset, TokenState } from '@/lib/core/credentials/token-state';
import type { RotationSide, RotationToken } from '@/lib/core/credentials/rotation-pairs';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

export const OVERLAP_LABELS: Record<OverlapPreset, string> = {
  none: 'Sin superposición: el token anterior deja de funcionar ahora',
  '1h': '1 hora',
  '24h': '24 horas',
  '7d': '7 días',
};

export const TOKEN_STATE_LABELS: Record<TokenState, string> = {
  active: 'Activo',
  ending: 'Reemplazado (en superposición)',
  expired: 'Vencido',
  revoked: 'Revocado',
};

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
