// SAT's void deadline as data: the IVA return's due date of the period a DTE was issued in.
import { describe, expect, it } from 'vitest';
import { IVA_RETURN_DUE_DATES, ivaReturnDueDate } from './void-deadlines';

describe('the IVA return due dates', () => {
  it('list every period from 2025 through 2027', () => {
    for (let year = 2025; year <= 2027; year += 1) {
      for (let month = 1; month <= 12; month += 1) expect(ivaReturnDueDate(`${year}-${String(month).padStart(2, '0')}`).source).toBe('calendar');
    }
  });

  it('fall on a business day of the month after the period, or the first one after it', () => {
    for (const [period, day] of Object.entries(IVA_RETURN_DUE_DATES)) {
      const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
      expect(weekday, `${period} → ${day}`).not.toBe(0);
      expect(weekday, `${period} → ${day}`).not.toBe(6);
      expect(day > period).toBe(true);
    }
  });

  it('move past the holidays the calendar knows', () => {
    expect(ivaReturnDueDate('2025-05')).toEqual({ day: '2025-07-01', source: 'calendar' }); // Día del Ejército
    expect(ivaReturnDueDate('2026-05').day).toBe('2026-06-30'); // the Día del Ejército moved to Monday
    expect(ivaReturnDueDate('2026-11').day).toBe('2027-01-04'); // 31 December, 1 January, a weekend
  });

  it('are computed past the table, from weekends and fixed-date holidays, and say so', () => {
    expect(ivaReturnDueDate('2028-01')).toEqual({ day: '2028-02-29', source: 'computed' });
    expect(ivaReturnDueDate('2028-02')).toEqual({ day: '2028-03-31', source: 'computed' });
    expect(ivaReturnDueDate('2028-09')).toEqual({ day: '2028-10-31', source: 'computed' });
    // 31 December 2028 is a Sunday, 1 January a holiday.
    expect(ivaReturnDueDate('2028-11')).toEqual({ day: '2029-01-02', source: 'computed' });
    expect(() => ivaReturnDueDate('2028-13')).toThrow();
  });
});
