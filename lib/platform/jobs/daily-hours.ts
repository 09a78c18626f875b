import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { GUATEMALA_OFFSET_HOURS } from '@/lib/platform/time/guatemala-time';

// The hours the daily jobs may start in. At a million records each of them (the records'
// retention, the ledger's reconciliation, last month's statements) takes a 2-core machine from its
// pages for 15 to 30 s; run as an instance starts, as they did, that was the console's stalls
// (docs/performance.md, "No stalls beside the pages"). Outside business hours, nobody waits.

/** Hours of the day in Guatemala's time: from `from` (inclusive) to `to` (exclusive), past midnight when `to` < `from`. */
export interface HourWindow {
  from: number;
  to: number;
}

const WINDOW = /^(\d{1,2})-(\d{1,2})$/;

/** The window `02-05` (02:00 to 05:00), `22-04` (past midnight) or `00-24` (any hour) names, or undefined. */
export function parseHourWindow(text: string): HourWindow | undefined {
  const match = WINDOW.exec(text.trim());
  if (!match) return undefined;
  const from = Number(match[1]);
  const to = Number(match[2]);
  return from <= 23 && to <= 24 && from !== to ? { from, to } : undefined;
}

const hourWindow = (fallback: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((text) => parseHourWindow(text) !== undefined, 'must be two different hours of the day, HH-HH (say 02-05: from 02:00 to 05:00), the first 00 to 23, the second 01 to 24');

export const JOB_SETTINGS = defineSettings({
  title: 'Background jobs (lib/platform/jobs)',
  shape: {
    DAILY_JOBS_HOURS: hourWindow('02-05'),
  },
  docs: {
    DAILY_JOBS_HOURS:
      "The hours, Guatemala time, in which the daily jobs start: the records' retention, the ledger's reconciliation and last month's statements. `HH-HH`: `02-05` from 02:00 to 05:00, `22-04` past midnight, `00-24` any hour (then also as each instance starts).",
  },
});

export type JobSettings = SettingsOf<typeof JOB_SETTINGS>;

/** The daily jobs' window, as the settings give it. */
export const dailyJobsHours = (): HourWindow => parseHourWindow(JOB_SETTINGS.current().DAILY_JOBS_HOURS)!;

/** Whether `at` falls in the window, by Guatemala's clock (UTC-6 all year). */
export function withinHours(window: HourWindow, at: Date): boolean {
  const hour = (at.getUTCHours() + GUATEMALA_OFFSET_HOURS + 24) % 24;
  return window.from < window.to ? hour >= window.from && hour < window.to : hour >= window.from || hour < window.to;
}
