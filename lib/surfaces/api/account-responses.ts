// The answers of /api/cuenta beside /api/lotes: the catalogs' error shape (`{message}`), in words
// spelled with their accents (only the contract's own texts keep its spelling).
import { HISTORY_PAGE_SIZE } from '@/lib/core/billing/history';
import { MOVEMENT_KINDS } from './account-schemas';

export const ACCOUNT_MESSAGES = {
  desde: 'El parámetro desde debe ser una fecha AAAA-MM-DD.',
  hasta: 'El parámetro hasta debe ser una fecha AAAA-MM-DD.',
  range: 'La fecha hasta es anterior a desde.',
  tipo: `El parámetro tipo debe ser ${MOVEMENT_KINDS.slice(0, -1).join(', ')} o ${MOVEMENT_KINDS.at(-1)}.`,
  cursor: 'El cursor no es válido: use el campo siguiente de la página anterior, con los mismos filtros.',
} as const;

/** A download of /api/cuenta/facturas that names nothing of the integration's: the same answer for an unknown id and another integration's. */
export const INVOICE_NOT_FOUND_MESSAGE = 'La factura no existe, no es de su integración o todavía no está certificada.';
export const CREDIT_NOTE_NOT_FOUND_MESSAGE = 'La nota de crédito no existe, no es de su integración o todavía no está certificada.';

export type AccountRequestProblem = keyof typeof ACCOUNT_MESSAGES;

/** Movements per page, as the portal's Movimientos shows them. */
export const MOVEMENTS_PAGE_SIZE = HISTORY_PAGE_SIZE;
