import { dailyJobsHours, type HourWindow } from '@/lib/platform/jobs/daily-hours';

const clock = (hour: number) => `${String(hour % 24).padStart(2, '0')}:00`;

/** When the daily jobs (the reconciliation, the statements, the retention) start, in words. */
export function dailyJobsHoursInWords(window: HourWindow = dailyJobsHours()): string {
  if (window.from === 0 && window.to === 24) return 'a cualquier hora';
  return `entre las ${clock(window.from)} y las ${clock(window.to)}, hora de Guatemala`;
}
