import { describe, expect, it } from 'vitest';
import { dailyJobsHoursInWords } from './daily-jobs';

describe('the daily jobs\' hours in words', () => {
  it('say the hours as the console shows them, or any hour', () => {
    expect(dailyJobsHoursInWords({ from: 2, to: 5 })).toBe('entre las 02:00 y las 05:00, hora de Guatemala');
    expect(dailyJobsHoursInWords({ from: 22, to: 24 })).toBe('entre las 22:00 y las 00:00, hora de Guatemala');
    expect(dailyJobsHoursInWords({ from: 0, to: 24 })).toBe('a cualquier hora');
  });
});
