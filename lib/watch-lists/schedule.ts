// When a watch list runs next (Vigilancia): weekly is seven days after the run's instant, monthly the
// same day of the next calendar month (UTC), on its last day when that month is shorter (a list
// saved on 31 January runs on 28 or 29 February, then on 28 or 29 March: the day is not restored).
export const WATCH_SCHEDULES = ['mensual', 'semanal'] as const;
export type WatchSchedule = (typeof WATCH_SCHEDULES)[number];

const DAY_MS = 86_400_000;

/** The instant after `from` on the list's schedule. */
export function nextRunAfter(schedule: WatchSchedule, from: Date): Date {
  if (schedule === 'semanal') return new Date(from.getTime() + 7 * DAY_MS);
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(from.getUTCDate(), lastDay), from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()),
  );
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
