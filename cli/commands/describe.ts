// How the CLI's text writes what several capabilities show: times, counts, an integration.
import { CONTRACT_FLAG_NAMES, FLAG_LOOKUP, FLAG_NAMES } from '@/lib/core/integrations/flags';
import type { IntegrationView } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { terminalSafe as safe } from '../terminal-text';

/** The widest lookup name ("Catálogo CUI/NIT"): the column after it stays aligned. */
export const LOOKUP_COLUMN = Math.max(...Object.values(LOOKUP_LABELS).map((label) => label.length));

export const TOKEN_SHOWN_ONCE = 'Token (se muestra una sola vez; guárdelo ahora):';

/**
 * A time as the console shows it, in Guatemala's time: "24/11/2026 04:02:09", the console's text
 * without its comma, which reads as one more separator in a line of columns (--json keeps UTC).
 */
export function when(instant: Date): string {
  return formatDateTime(instant).replace(', ', ' ');
}

/** Whole numbers as Guatemala writes them: 202,482. */
export function count(value: number): string {
  return value.toLocaleString('es-GT');
}

/** "1 integración", "2 integraciones". */
export function counted(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/** "recarga": a movement's kind as a sentence says it (the console's label starts a table cell). */
export function lowercaseFirst(label: string): string {
  return label.charAt(0).toLowerCase() + label.slice(1);
}

export function describeIntegration(integration: IntegrationView): string {
  // The console's name, and the one --enable and --disable take.
  const enabled = FLAG_NAMES.filter((flag) => integration[flag]).map((flag) => `${LOOKUP_LABELS[FLAG_LOOKUP[flag]]} (${CONTRACT_FLAG_NAMES[flag]})`);
  return [
    `#${integration.id} ${safe(integration.nombre)}${integration.active ? '' : ' (desactivada)'}`,
    `  tarifa ${formatQuetzales(integration.tariffCentavos)}  saldo ${formatQuetzales(integration.balanceCentavos)}`,
    `  consultas habilitadas: ${enabled.length ? enabled.join(', ') : '(ninguna)'}`,
    `  IP permitidas: ${integration.allowedNetworks.length ? integration.allowedNetworks.join(' ') : 'cualquier dirección'}`,
    `  finalidad: ${integration.purpose ? safe(integration.purpose) : '(no declarada)'}`,
  ].join('\n');
}
