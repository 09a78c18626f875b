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
  hour12: false,
});

/** "21/11/2026, 14:05:09" in Guatemala's time. */
export function formatDateTime(value: Date | string): string {
  return dateTime.format(typeof value === 'string' ? new Date(value) : value);
}

/** The instant a Guatemalan calendar day (YYYY-MM-DD) starts. */
export function startOfGuatemalanDay(day: string): Date {
  const sign = GUATEMALA_OFFSET_HOURS < 0 ? '-' : '+';
  const hours = String(Math.abs(GUATEMALA_OFFSET_HOURS)).padStart(2, '0');
  return new Date(`${day}T00:00:00${sign}${hours}:00`);
}

/** Today's date in Guatemala, as YYYY-MM-DD. */
export function guatemalanToday(now = new Date()): string {
  return new Date(now.getTime() + GUATEMALA_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);
}
