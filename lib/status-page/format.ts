// Texts of the public status page, in Spanish.
import { formatDateTime } from '@/lib/format/guatemala-time';

/** "45 s", "3 min 12 s", "2 h 5 min", "1 d 3 h": the largest unit and the next one. */
export function formatIncidentDuration(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const whole = Math.max(0, Math.round(seconds));
  const first = units.findIndex(([size]) => whole >= size);
  if (first === -1) return '0 s';
  const [size, name] = units[first]!;
  const next = units[first + 1];
  const rest = next ? Math.floor((whole % size) / next[0]) : 0;
  return next && rest > 0 ? `${Math.floor(whole / size)} ${name} ${rest} ${next[1]}` : `${Math.floor(whole / size)} ${name}`;
}

/** "99,95 %", or a text saying no call reached the source. */
export function formatAvailability(percent: number | null): string {
  return percent === null ? 'sin consultas' : `${percent.toLocaleString('es-GT', { minimumFractionDigits: Number.isInteger(percent) ? 0 : 2, maximumFractionDigits: 2 })} %`;
}

/** "21/11/2026, 14:00" in Guatemala's time, for a day or an hour of the bars. */
export function formatStatusTime(iso: string): string {
  return formatDateTime(iso).slice(0, -3);
}

/** The colour class of an availability: the text beside it says the same. */
export function availabilityLevel(percent: number | null): 'none' | 'good' | 'partial' | 'bad' {
  if (percent === null) return 'none';
  if (percent >= 99) return 'good';
  if (percent >= 90) return 'partial';
  return 'bad';
}
