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
