// The console shows and filters times in Guatemala's time: UTC-6 all year (no daylight saving
// since 2006). A fixed offset keeps SQL identical on PostgreSQL and PGlite, whatever time zone
// data either has.
export const GUATEMALA_OFFSET_HOURS = -6;
export const GUATEMALA_TIME_ZONE = 'America/Guatemala';

const dateTime = new Intl.DateTimeFormat('es-GT', {
  timeZone: GUATEMALA_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  // Not `hour12: false`: engines that follow the older ECMA-402 text (Node.js 20, older browsers)
  // read it, for es-GT, as a 1–24 clock and print the first hour of the day as "24:00:32".
  hourCycle: 'h23',
});

/** "21/11/2026, 14:05:09" in Guatemala's time. */
export function formatDateTime(value: Date | string): string {
  return dateTime.format(typeof value === 'string' ? new Date(value) : value);
}

/**
 * An hour as a span, "24/11/2026, 04:00 y 05:00" (Guatemala's time): what an hourly count can
 * say, where "04:00:00" would read as the exact time of its latest event.
 */
export function formatHourSpan(hourStart: Date): string {
  const parts = (at: Date) => formatGuatemalanTimestamp(at).split(' ');
  const [day, from] = parts(hourStart);
  const [, to] = parts(new Date(hourStart.getTime() + 3_600_000));
  const [year, month, date] = day!.split('-');
  return `${date}/${month}/${year}, ${from!.slice(0, 5)} y ${to!.slice(0, 5)}`;
}

/** "2026-11-21 14:05:09" in Guatemala's time: sortable, and read as a date by spreadsheets. */
export function formatGuatemalanTimestamp(value: Date): string {
  return new Date(value.getTime() + GUATEMALA_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant a Guatemalan calendar day (YYYY-MM-DD) starts. */
export function startOfGuatemalanDay(day: string): Date {
  const sign = GUATEMALA_OFFSET_HOURS < 0 ? '-' : '+';
  const hours = String(Math.abs(GUATEMALA_OFFSET_HOURS)).padStart(2, '0');
  return new Date(`${day}T00:00:00${sign}${hours}:00`);
}

/** The instant the Guatemalan day after `day` starts: the exclusive end of a range "hasta day". */
export function startOfNextGuatemalanDay(day: string): Date {
  return new Date(startOfGuatemalanDay(day).getTime() + 86_400_000);
}

/** Whether text is a real calendar day written YYYY-MM-DD (not 2026-02-31). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The Guatemalan calendar month an instant falls in, as YYYY-MM. */
export function guatemalanMonthOf(instant: Date): string {
  return guatemalanToday(instant).slice(0, 7);
}

/** Today's date in Guatemala, as YYYY-MM-DD. */
export function guatemalanToday(now = new Date()): string {
  return new Date(now.getTime() + GUATEMALA_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);
}

/** The Guatemalan calendar day `days` before `day` (both YYYY-MM-DD). */
export function guatemalanDayBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

export interface DatePreset {
  label: string;
  desde: string;
  hasta: string;
}

/**
 * The date ranges people pick most (hoy, ayer, los últimos 7 y 30 días, today included), as
 * Guatemalan calendar days: what "hoy" means to support at 23:30 in Guatemala is not UTC's date.
 */
export function datePresets(now = new Date()): DatePreset[] {
  const today = guatemalanToday(now);
  return [
    { label: 'Hoy', desde: today, hasta: today },
    { label: 'Ayer', desde: guatemalanDayBefore(today, 1), hasta: guatemalanDayBefore(today, 1) },
    { label: '7 días', desde: guatemalanDayBefore(today, 6), hasta: today },
    { label: '30 días', desde: guatemalanDayBefore(today, 29), hasta: today },
  ];
}
