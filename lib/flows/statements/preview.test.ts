// The dates a preview of a statement is asked for (issue 32, point 7): Guatemalan calendar days,
// the running month unless others are picked, and every wrong pick answered in Spanish.
import { describe, expect, it } from 'vitest';
import { dayRangeText } from '@/lib/platform/time/months';
import { parsePreviewRange, runningMonthRange } from './preview';
import { PREVIEW_RANGE_MESSAGES } from './texts';

// 23:30 on 15 June 2026 in Guatemala, already 16 June in UTC.
const now = new Date('2026-06-16T05:30:00Z');

describe('the dates of a preview', () => {
  it('are the running month up to today (Guatemala) unless others are picked', () => {
    expect(runningMonthRange(now)).toEqual({ desde: '2026-06-01', hasta: '2026-06-15' });
    expect(parsePreviewRange({}, now)).toEqual({ ok: true, value: { desde: '2026-06-01', hasta: '2026-06-15' } });
    expect(parsePreviewRange({ desde: '', hasta: '' }, now)).toEqual({ ok: true, value: { desde: '2026-06-01', hasta: '2026-06-15' } });
  });

  it('take any range of whole days up to today, of at most 366 days', () => {
    expect(parsePreviewRange({ desde: '2026-05-01', hasta: '2026-05-31' }, now)).toEqual({ ok: true, value: { desde: '2026-05-01', hasta: '2026-05-31' } });
    expect(parsePreviewRange({ desde: '2026-06-15', hasta: '2026-06-15' }, now).ok).toBe(true);
    expect(parsePreviewRange({ desde: '2025-06-15', hasta: '2026-06-15' }, now).ok).toBe(true);
  });

  it.each([
    [{ desde: '2026-06-10', hasta: '2026-06-01' }, PREVIEW_RANGE_MESSAGES.reversed],
    [{ desde: '2026-06-01', hasta: '2026-06-16' }, PREVIEW_RANGE_MESSAGES.future('15/06/2026')],
    [{ desde: '2026-07-01', hasta: '2026-07-31' }, PREVIEW_RANGE_MESSAGES.future('15/06/2026')],
    [{ desde: '2025-06-14', hasta: '2026-06-15' }, PREVIEW_RANGE_MESSAGES.tooLong],
    [{ desde: '2026-02-30', hasta: '2026-03-01' }, PREVIEW_RANGE_MESSAGES.notADay],
    [{ desde: '01/06/2026', hasta: '2026-06-15' }, PREVIEW_RANGE_MESSAGES.notADay],
    [{ desde: '2026-06-01' }, PREVIEW_RANGE_MESSAGES.bothDays],
    [{ hasta: '2026-06-01' }, PREVIEW_RANGE_MESSAGES.bothDays],
    [{ desde: ['2026-06-01', '2026-06-02'], hasta: '2026-06-15' }, PREVIEW_RANGE_MESSAGES.notADay],
  ])('refuse %j with a message that says what to change', (input, message) => {
    expect(parsePreviewRange(input, now)).toEqual({ ok: false, error: { code: 'invalid_range', message } });
  });

  it('read as a sentence on the preview (and on statements: "del 1 al 30 de noviembre de 2026")', () => {
    expect(dayRangeText('2026-06-01', '2026-06-15')).toBe('del 1 al 15 de junio de 2026');
    expect(dayRangeText('2026-05-20', '2026-06-03')).toBe('del 20 de mayo al 3 de junio de 2026');
    expect(dayRangeText('2025-12-01', '2026-01-31')).toBe('del 1 de diciembre de 2025 al 31 de enero de 2026');
    expect(dayRangeText('2026-06-05', '2026-06-05')).toBe('el 5 de junio de 2026');
  });

  it('say what to change in Spanish', () => {
    expect(PREVIEW_RANGE_MESSAGES.reversed).toBe('La fecha inicial es posterior a la final.');
    expect(PREVIEW_RANGE_MESSAGES.future('15/06/2026')).toBe('La vista previa llega como mucho hasta hoy, 15/06/2026.');
    expect(PREVIEW_RANGE_MESSAGES.tooLong).toBe('Una vista previa abarca como mucho 366 días: acorta el periodo.');
  });
});
