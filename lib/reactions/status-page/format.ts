// Texts of the public status page, in Spanish.
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { HOUR_MS } from '@/lib/platform/time/hours';
import { BUCKET_STATE_TEXT, type BucketState } from './states';

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

/** "24/11/2026" for the Guatemalan day "2026-11-24". */
export function formatStatusDay(day: string): string {
  return day.split('-').reverse().join('/');
}

/** "24/11/2026, 14:00 a 15:00": the hour that starts at `start`, in Guatemala's time. */
export function formatStatusHour(start: string): string {
  return `${formatStatusTime(start)} a ${formatStatusTime(new Date(Date.parse(start) + HOUR_MS).toISOString()).slice(-5)}`;
}

/** A day's or an hour's bar in words: "24/11/2026: Degradado, 50 % de las consultas respondidas". */
export function statusCellText(when: string, cell: { disponibilidad: number | null; estado: BucketState }): string {
  const state = `${when}: ${BUCKET_STATE_TEXT[cell.estado]}`;
  if (cell.disponibilidad !== null) return `${state}, ${formatAvailability(cell.disponibilidad)} de las consultas respondidas`;
  return cell.estado === 'sin_datos' ? `${state}, nadie consultó la fuente` : state;
}

/** A source's 90 days in one sentence. */
export function sourceAvailabilityText(percent: number | null, days: number): string {
  if (percent === null) return `Nadie consultó esta fuente en los últimos ${days} días.`;
  return `Respondió bien el ${formatAvailability(percent)} de las consultas de los últimos ${days} días.`;
}

/** How often the data is renewed: "cada segundo", "cada 30 segundos". */
export function refreshIntervalText(seconds: number): string {
  return seconds === 1 ? 'cada segundo' : `cada ${seconds} segundos`;
}
