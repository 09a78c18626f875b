// When a watch list runs next (Vigilancia): weekly is seven days after the run's instant, monthly the
// same day of the next calendar month in Guatemala (UTC-6 all year, lib/platform/time/guatemala-time.ts),
// at the same local time, on its last day when that month is shorter (a list saved on 31 January
// runs on 28 or 29 February, then on 28 or 29 March: the day is not restored). In UTC's calendar a
// list saved on the 30th at 20:00 in Guatemala (the 31st in UTC) ran on the 27th of February there.
import { GUATEMALA_OFFSET_HOURS } from '@/lib/platform/time/guatemala-time';

export const WATCH_SCHEDULES = ['mensual', 'semanal'] as const;
export type WatchSchedule = (typeof WATCH_SCHEDULES)[number];

const DAY_MS = 86_400_000;
const GUATEMALA_OFFSET_MS = GUATEMALA_OFFSET_HOURS * 3_600_000;

/** The instant after `from` on the list's schedule. */
export function nextRunAfter(schedule: WatchSchedule, from: Date): Date {
  if (schedule === 'semanal') return new Date(from.getTime() + 7 * DAY_MS);
  // Guatemala's wall clock read with the UTC accessors: a fixed offset, no daylight saving to skip.
  const local = new Date(from.getTime() + GUATEMALA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const nextLocal = Date.UTC(
    year,
    month,
    Math.min(local.getUTCDate(), lastDay),
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
    local.getUTCMilliseconds(),
  );
  return new Date(nextLocal - GUATEMALA_OFFSET_MS);
}

/**
 * The next instant on the schedule after a run due at `scheduled` started at `now`: a list that
 * waited through several of its instants (paused, or no instance running) runs once for all of
 * them, and its next run is the first instant still ahead.
 */
export function nextRunFrom(schedule: WatchSchedule, scheduled: Date, now: Date): Date {
  let next = nextRunAfter(schedule, scheduled);
  while (next.getTime() <= now.getTime()) next = nextRunAfter(schedule, next);
  return next;
}
