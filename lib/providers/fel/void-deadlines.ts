// SAT's deadline to void a DTE: the due date of the monthly IVA return of the period (calendar
// month, Guatemala's time) in which it was issued. After that day the issuer corrects it with a
// credit note (NCRE) instead. The due dates are data, not "N days": holidays move them.
//
// Where the table comes from: the IVA law (Decreto 27-92, art. 40) makes the monthly return due
// within the calendar month after the period; when that last day is not a business day SAT moves
// the deadline to the next business day (as its calendar did for the November 2023 period, due
// 2024-01-03 after 31 December and 1–2 January were inhábiles, as Prensa Libre reported). The
// days counted as not business days: Saturdays, Sundays, 1 January, Holy Thursday and Friday,
// 1 May, the Día del Ejército as Decreto 19-2018 moves it off 30 June, 15 September, 20 October,
// 1 November, 24, 25 and 31 December (half days SAT treats as inhábiles). Confirm each year
// against SAT's published calendar, where a one-off rest day (as 2 January 2024) can move a date;
// add the year's periods here before it starts.

/** Period (YYYY-MM) → due date of its IVA return (YYYY-MM-DD), the last day to void its DTEs. */
export const IVA_RETURN_DUE_DATES: Readonly<Record<string, string>> = {
  '2025-01': '2025-02-28',
  '2025-02': '2025-03-31',
  '2025-03': '2025-04-30',
  '2025-04': '2025-06-02', // 31 May is a Saturday
  '2025-05': '2025-07-01', // 30 June, a Monday, is the Día del Ejército
  '2025-06': '2025-07-31',
  '2025-07': '2025-09-01',
  '2025-08': '2025-09-30',
  '2025-09': '2025-10-31',
  '2025-10': '2025-12-01',
  '2025-11': '2026-01-02', // 31 December and 1 January
  '2025-12': '2026-02-02',
  '2026-01': '2026-03-02',
  '2026-02': '2026-03-31',
  '2026-03': '2026-04-30',
  '2026-04': '2026-06-01',
  '2026-05': '2026-06-30', // the Día del Ejército moves to Monday 29 June
  '2026-06': '2026-07-31',
  '2026-07': '2026-08-31',
  '2026-08': '2026-09-30',
  '2026-09': '2026-11-02', // 31 October is a Saturday, 1 November a Sunday
  '2026-10': '2026-11-30',
  '2026-11': '2027-01-04', // 31 December, 1 January, then a weekend
  '2026-12': '2027-02-01',
  '2027-01': '2027-03-01',
  '2027-02': '2027-03-31',
  '2027-03': '2027-04-30',
  '2027-04': '2027-05-31',
  '2027-05': '2027-06-30', // the Día del Ejército moves to Monday 28 June
  '2027-06': '2027-08-02',
  '2027-07': '2027-08-31',
  '2027-08': '2027-09-30',
  '2027-09': '2027-11-02', // 31 October is a Sunday, 1 November a holiday
  '2027-10': '2027-11-30',
  '2027-11': '2028-01-03', // 31 December, 1 January, then a weekend
  '2027-12': '2028-01-31',
};

/** Holidays on a fixed date (MM-DD); the fallback knows only these (not Holy Week nor the Día del Ejército). */
const FIXED_HOLIDAYS = new Set(['01-01', '05-01', '09-15', '10-20', '11-01', '12-24', '12-25', '12-31']);

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

export interface DueDate {
  /** YYYY-MM-DD, Guatemala's calendar: the last day on which a DTE of the period may be voided. */
  day: string;
  /** calendar: from IVA_RETURN_DUE_DATES; computed: a period the table does not list yet. */
  source: 'calendar' | 'computed';
}

/**
 * The due date of the IVA return of a period (YYYY-MM). A period outside the table is computed:
 * the last day of the next month, moved past weekends and the fixed-date holidays only, so a
 * Holy Week or a Día del Ejército there is missed: extend the table rather than trust it.
 */
export function ivaReturnDueDate(period: string): DueDate {
  if (!PERIOD.test(period)) throw new Error(`not a period (YYYY-MM): ${period}`);
  const listed = IVA_RETURN_DUE_DATES[period];
  if (listed !== undefined) return { day: listed, source: 'calendar' };
  const [year, month] = period.split('-').map(Number) as [number, number];
  // Day 0 of the month after next is the last day of the next month.
  let day = new Date(Date.UTC(year, month + 1, 0));
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6 || FIXED_HOLIDAYS.has(day.toISOString().slice(5, 10))) day = new Date(day.getTime() + 86_400_000);
  return { day: day.toISOString().slice(0, 10), source: 'computed' };
}
