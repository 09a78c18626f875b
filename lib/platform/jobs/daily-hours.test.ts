import { describe, expect, it } from 'vitest';
import { EnvError } from '@/lib/platform/settings/fragment';
import { parseEnv } from '@/lib/root/settings';
import { parseHourWindow, withinHours } from './daily-hours';

// Guatemala is UTC-6 all year: 02:00 there is 08:00 UTC.
const at = (utc: string) => new Date(`2026-11-29T${utc}:00.000Z`);

describe('the daily jobs\' hours', () => {
  it('start at 02:00 and end before 05:00 in Guatemala by default', () => {
    const window = parseHourWindow(parseEnv({}).DAILY_JOBS_HOURS)!;
    expect(window).toEqual({ from: 2, to: 5 });
    expect(withinHours(window, at('07:59'))).toBe(false);
    expect(withinHours(window, at('08:00'))).toBe(true);
    expect(withinHours(window, at('10:59'))).toBe(true);
    expect(withinHours(window, at('11:00'))).toBe(false);
    // Business hours in Guatemala, when the console is in use.
    expect(withinHours(window, at('15:00'))).toBe(false);
  });

  it('may pass midnight, or be every hour', () => {
    const night = parseHourWindow('22-04')!;
    expect(withinHours(night, at('04:00'))).toBe(true); // 22:00 the day before
    expect(withinHours(night, at('09:59'))).toBe(true); // 03:59
    expect(withinHours(night, at('10:00'))).toBe(false); // 04:00
    expect(withinHours(night, at('03:59'))).toBe(false); // 21:59
    const always = parseHourWindow('00-24')!;
    for (const hour of ['00', '06', '12', '23']) expect(withinHours(always, at(`${hour}:30`))).toBe(true);
  });

  it('refuses a window that names no hours, naming the setting', () => {
    for (const value of ['2', '05-05', '24-02', '02-25', 'noche', '2:00-5:00']) {
      expect(() => parseEnv({ DAILY_JOBS_HOURS: value }), value).toThrow(EnvError);
      try {
        parseEnv({ DAILY_JOBS_HOURS: value });
      } catch (error) {
        expect((error as EnvError).problems.join('\n')).toContain('DAILY_JOBS_HOURS');
      }
    }
  });
});
