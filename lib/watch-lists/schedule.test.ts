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

  it('after a long wait, runs once and then at the first instant still ahead', () => {
    const due = new Date('2026-11-01T06:00:00.000Z');
    expect(nextRunFrom('semanal', due, new Date('2026-11-20T00:00:00.000Z')).toISOString()).toBe('2026-11-22T06:00:00.000Z');
    expect(nextRunFrom('mensual', due, new Date('2026-11-01T06:00:01.000Z')).toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });
});
