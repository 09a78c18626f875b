import { formatDateTime } from '@/lib/time/guatemala-time';
import { OVERLAP_PRESETS, type OverlapPreset } from './token-state';
import type { TokenView } from './tokens';

// What a form says after a token or allow-list change, in the console and in the portal alike.

export function tokenCreatedMessage(view: Pick<TokenView, 'label'>): string {
  return `Token «${view.label}» creado.`;
}

export function tokenRotatedMessage(overlap: OverlapPreset, replaced: Pick<TokenView, 'expiresAt'>): string {
  return OVERLAP_PRESETS[overlap] === 0 || !replaced.expiresAt
    ? 'Token rotado: el anterior ya no funciona.'
    : `Token rotado: el anterior sigue funcionando hasta el ${formatDateTime(replaced.expiresAt)}.`;
}

export function tokenRevokedMessage(view: Pick<TokenView, 'label'>): string {
  return `Token «${view.label}» revocado: ya no funciona en ninguna instancia.`;
}

export function allowListSavedMessage(allowedNetworks: string[]): string {
  return allowedNetworks.length
    ? `Lista guardada: solo se aceptan solicitudes desde ${allowedNetworks.length === 1 ? 'esa dirección' : `esas ${allowedNetworks.length} entradas`}.`
    : 'Lista vacía: se aceptan solicitudes desde cualquier dirección.';
}
