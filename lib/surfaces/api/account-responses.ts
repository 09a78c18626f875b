// The answers of /api/cuenta beside /api/lotes: the catalogs' error shape (`{message}`) and, like
// those texts, without accents.
import { HISTORY_PAGE_SIZE } from '@/lib/core/billing/history';
import { MOVEMENT_KINDS } from './account-schemas';

export const ACCOUNT_MESSAGES = {
  desde: 'El parametro desde debe ser una fecha AAAA-MM-DD.',
  hasta: 'El parametro hasta debe ser una fecha AAAA-MM-DD.',
  range: 'La fecha hasta es anterior a desde.',
  tipo: `El parametro tipo debe ser ${MOVEMENT_KINDS.slice(0, -1).join(', ')} o ${MOVEMENT_KINDS.at(-1)}.`,
  cursor: 'El cursor no es valido: use el campo siguiente de la pagina anterior, con los mismos filtros.',
} as const;

export type AccountRequestProblem = keyof typeof ACCOUNT_MESSAGES;

/** Movements per page, as the portal's Movimientos shows them. */
export const MOVEMENTS_PAGE_SIZE = HISTORY_PAGE_SIZE;
