// Calendar helpers for the synthetic data. Dates are kept as ISO `YYYY-MM-DD` strings inside the
// population and formatted the way each upstream publishes them only at the edge.

const DAY_MS = 86_400_000;

export function daysFromIso(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);
}

export function isoFromDays(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

export function addYears(isoDate: string, years: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  // Date.UTC rolls 29 February of a non-leap year over to 1 March, as RENAP does for expiry dates.
  return new Date(Date.UTC(year + years, month - 1, day)).toISOString().slice(0, 10);
}

/** dd/mm/yyyy, the human-facing form the authority publishes. */
export function slashDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

/** ISO 8601 in UTC without milliseconds: `2025-11-03T14:22:05Z`. */
export function isoTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Whole years between two ISO dates (age on `onIsoDate`). */
export function yearsBetween(fromIsoDate: string, onIsoDate: string): number {
  const [fromYear, fromMonth, fromDay] = fromIsoDate.split('-').map(Number) as [number, number, number];
  const [toYear, toMonth, toDay] = onIsoDate.split('-').map(Number) as [number, number, number];
  const beforeBirthday = toMonth < fromMonth || (toMonth === fromMonth && toDay < fromDay);
  return toYear - fromYear - (beforeBirthday ? 1 : 0);
}
