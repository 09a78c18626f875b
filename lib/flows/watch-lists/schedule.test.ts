import { describe, expect, it } from 'vitest';
import { nextRunAfter, nextRunFrom } from './schedule';

describe('a watch list schedule', () => {
  it('runs weekly seven days later, at the same instant', () => {
    expect(nextRunAfter('semanal', new Date('2026-11-26T08:45:12.345Z')).toISOString()).toBe('2026-12-03T08:45:12.345Z');
  });

  it('runs monthly on the same day of the next calendar month, or on its last day when shorter', () => {
    expect(nextRunAfter('mensual', new Date('2026-11-26T08:45:00.000Z')).toISOString()).toBe('2026-12-26T08:45:00.000Z');
    expect(nextRunAfter('mensual', new Date('2026-12-15T00:00:00.000Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(nextRunAfter('mensual', new Date('2027-01-31T10:00:00.000Z')).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(nextRunAfter('mensual', new Date('2028-01-31T10:00:00.000Z')).toISOString()).toBe('2028-02-29T10:00:00.000Z');
  });

  // Guatemala's calendar, not UTC's: its evenings after 18:00 are already the next day in UTC.
  it("counts the month in Guatemala's calendar, at the same local time, also on an evening that is the next day in UTC", () => {
    // Due on the 1st at 00:30 in Guatemala (06:30 UTC): the 1st of the next month, 00:30 there.
    expect(nextRunAfter('mensual', new Date('2026-11-01T06:30:00.000Z')).toISOString()).toBe('2026-12-01T06:30:00.000Z');
    // Saved on 30 January at 20:00 in Guatemala (31 January in UTC): 28 February at 20:00 there, not the 27th.
    expect(nextRunAfter('mensual', new Date('2027-01-31T02:00:00.000Z')).toISOString()).toBe('2027-03-01T02:00:00.000Z');
    // 29 January 2028 at 21:15 there: 29 February, a leap year's last day.
    expect(nextRunAfter('mensual', new Date('2028-01-30T03:15:00.000Z')).toISOString()).toBe('2028-03-01T03:15:00.000Z');
    // 31 May at 20:00 there: 30 June, then 30 July (the day is not restored), at 20:00 there each time.
    const june = nextRunAfter('mensual', new Date('2027-06-01T02:00:00.000Z'));
    expect(june.toISOString()).toBe('2027-07-01T02:00:00.000Z');
    expect(nextRunAfter('mensual', june).toISOString()).toBe('2027-07-31T02:00:00.000Z');
    // The year turns in Guatemala's calendar: 31 December at 19:00 there, 31 January at 19:00.
    expect(nextRunAfter('mensual', new Date('2027-01-01T01:00:00.000Z')).toISOString()).toBe('2027-02-01T01:00:00.000Z');
  });

  it('after a long wait, runs once and then at the first instant still ahead', () => {
    const due = new Date('2026-11-01T06:00:00.000Z');
    expect(nextRunFrom('semanal', due, new Date('2026-11-20T00:00:00.000Z')).toISOString()).toBe('2026-11-22T06:00:00.000Z');
    expect(nextRunFrom('mensual', due, new Date('2026-11-01T06:00:01.000Z')).toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });
});
