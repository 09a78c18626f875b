import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { OVERLAP_PRESETS, type OverlapPreset } from '@/lib/core/credentials/token-state';
import type { TokenView } from '@/lib/flows/integration-management/tokens';

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

/** Up to this many entries, the saved message names each one; beyond it, it counts them. */
const NAMED_ENTRIES = 5;

/**
 * After saving an allow-list: what it now accepts, a range as a range with its size (a /24 is 256
 * addresses, not "that address"). Entries are canonical (parseAllowListEntry): `x/32` and `x/128`
 * are one address.
 */
export function allowListSavedMessage(allowedNetworks: string[]): string {
  if (allowedNetworks.length === 0) return 'Lista vacía: se aceptan solicitudes desde cualquier dirección.';
  const entries = allowedNetworks.map(describeEntry);
  if (entries.length === 1) return `Lista guardada: solo se aceptan solicitudes desde ${entries[0]!.words}.`;
  if (entries.length <= NAMED_ENTRIES) {
    const words = entries.map((entry) => entry.words);
    return `Lista guardada: solo se aceptan solicitudes desde esas ${entries.length} entradas: ${words.slice(0, -1).join(', ')} y ${words.at(-1)}.`;
  }
  const ranges = entries.filter((entry) => entry.range).length;
  const addresses = entries.length - ranges;
  const parts = [addresses && `${addresses} ${addresses === 1 ? 'dirección' : 'direcciones'}`, ranges && `${ranges} ${ranges === 1 ? 'rango' : 'rangos'}`].filter(Boolean);
  return `Lista guardada: solo se aceptan solicitudes desde esas ${entries.length} entradas (${parts.join(' y ')}).`;
}

function describeEntry(entry: string): { range: boolean; words: string } {
  const [address, bitsText] = entry.split('/');
  const width = address!.includes(':') ? 128 : 32;
  const hostBits = bitsText === undefined ? 0 : width - Number(bitsText);
  if (hostBits === 0) return { range: false, words: `la dirección ${address}` };
  return { range: true, words: `el rango ${entry} (${rangeSize(hostBits)} direcciones)` };
}

/** 2^hostBits in figures while a person can read them (up to 2^64), else as a power of two. */
function rangeSize(hostBits: number): string {
  return hostBits <= 64 ? (2n ** BigInt(hostBits)).toLocaleString('es-GT') : `2^${hostBits}`;
}
