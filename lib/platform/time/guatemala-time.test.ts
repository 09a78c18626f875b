import { describe, expect, it } from 'vitest';
import { datePresets, formatDateTime, formatHourSpan } from './guatemala-time';

// The old formatter (`hour12: false`) printed "24:00:32" on engines that follow the older ECMA-402
// text (Node.js 20: `node node_modules/vitest/vitest.mjs run` on it fails this file without the fix).
describe('formatDateTime', () => {
  it('shows the first hour of a Guatemalan day as 00, never 24 (issue 24, point 2)', () => {
    // 00:00:32 on 1 November in Guatemala (UTC-6) is 06:00:32 UTC.
    expect(formatDateTime(new Date('2026-11-01T06:00:32Z'))).toBe('01/11/2026, 00:00:32');
    expect(formatDateTime('2026-11-01T06:59:59Z')).toBe('01/11/2026, 00:59:59');
  });

  it('shows the rest of the day on a 24-hour clock', () => {
    expect(formatDateTime(new Date('2026-11-01T07:00:00Z'))).toBe('01/11/2026, 01:00:00');
    expect(formatDateTime(new Date('2026-11-21T20:05:09Z'))).toBe('21/11/2026, 14:05:09');
    expect(formatDateTime(new Date('2026-11-02T05:59:59Z'))).toBe('01/11/2026, 23:59:59');
  });
});

describe('datePresets', () => {
  it('counts days in Guatemala: at 23:30 there on 24 November (05:30 UTC on the 25th) "hoy" is the 24th (issue 24, lists)', () => {
    expect(datePresets(new Date('2026-11-25T05:30:00Z'))).toEqual([
      { label: 'Hoy', desde: '2026-11-24', hasta: '2026-11-24' },
      { label: 'Ayer', desde: '2026-11-23', hasta: '2026-11-23' },
      { label: '7 días', desde: '2026-11-18', hasta: '2026-11-24' },
      { label: '30 días', desde: '2026-10-26', hasta: '2026-11-24' },
    ]);
  });

  it('crosses months and years', () => {
    const [today, yesterday, week, month] = datePresets(new Date('2027-01-01T06:00:00Z'));
    expect(today).toMatchObject({ desde: '2027-01-01', hasta: '2027-01-01' });
    expect(yesterday).toMatchObject({ desde: '2026-12-31', hasta: '2026-12-31' });
    expect(week).toMatchObject({ desde: '2026-12-26', hasta: '2027-01-01' });
    expect(month).toMatchObject({ desde: '2026-12-03', hasta: '2027-01-01' });
  });
});

describe('formatHourSpan', () => {
  it("says an hourly count's hour as a span in Guatemala's time, not as an exact time", () => {
    expect(formatHourSpan(new Date('2026-11-24T10:00:00.000Z'))).toBe('24/11/2026, 04:00 y 05:00');
    expect(formatHourSpan(new Date('2026-11-25T05:00:00.000Z'))).toBe('24/11/2026, 23:00 y 00:00');
  });
});
