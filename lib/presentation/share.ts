// A part of a whole as a Spanish percentage for the console's tables ("12,5 %"); a dash when
// there is no whole to speak of.
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((part / whole) * 100).toLocaleString('es-GT', { maximumFractionDigits: 1 })} %`;
}
