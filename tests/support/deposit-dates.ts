// Deposit dates relative to today in Guatemala: a report is refused once its deposit is older than
// TOP_UP_DEPOSIT_MAX_AGE_DAYS (90 by default), so a fixed date would fail the tests months later.
// Relative imports only: the e2e specs use it too.
import { guatemalanDayBefore, guatemalanToday } from '../../lib/platform/time/guatemala-time';

/** The Guatemalan calendar day `days` before today, as YYYY-MM-DD (what the form's date field sends). */
export function depositDaysAgo(days: number, now = new Date()): string {
  return guatemalanDayBefore(guatemalanToday(now), days);
}

/** A YYYY-MM-DD day as the portal, the console and the CLI write it: 21/11/2026. */
export function shownDay(day: string): string {
  return day.split('-').reverse().join('/');
}
