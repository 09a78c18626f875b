import { guatemalanToday, isCalendarDay, startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { dayRangeText, dayText } from '@/lib/platform/time/months';
import { fail, ok, type Result } from '@/lib/platform/result';
import { retentionCutoff } from '@/lib/core/records/retention-cutoff';
import { computePeriodFigures, StatementError, type PeriodFigures, type StatementProblem } from './figures';
import { configuredIssuer, type StatementIssuer } from './issuer';
import { statementIntegration } from './statements';
import { PREVIEW_MAX_DAYS, PREVIEW_RANGE_MESSAGES } from './texts';
import { invoicesOfTopUpsBetween, type TopUpInvoice } from '@/lib/core/invoices/documents';

// A preview shows what a statement of any days would say, the running month's first: the same
// figures, computed by the same function as an issued statement's (computePeriodFigures), for the
// integration and issuer as they are now. It has no number and is never stored: issuing stays a
// separate action, for a closed month.

/** Guatemalan calendar days, both included (YYYY-MM-DD). */
export interface PreviewRange {
  desde: string;
  hasta: string;
}

export interface StatementPreview {
  range: PreviewRange;
  figures: PeriodFigures;
  issuer: StatementIssuer;
  /** When its figures were read: while the days include today, they change with every lookup. */
  computedAt: Date;
  /** The FEL invoices of its days' top-ups, with their voids and credit notes, as a statement lists them. */
  invoices: TopUpInvoice[];
}

export type PreviewProblem = 'invalid_range' | Extract<StatementProblem, 'not_found' | 'records_purged' | 'does_not_reconcile'>;

/** The running month: its first day to today, in Guatemala. */
export function runningMonthRange(now = new Date()): PreviewRange {
  const today = guatemalanToday(now);
  return { desde: `${today.slice(0, 7)}-01`, hasta: today };
}

/**
 * The days a preview was asked for (the page's desde and hasta): both, or neither for the running
 * month; real days, the first not after the last, the last not after today, at most
 * PREVIEW_MAX_DAYS in all.
 */
export function parsePreviewRange(input: { desde?: unknown; hasta?: unknown }, now = new Date()): Result<PreviewRange, 'invalid_range'> {
  const given = (value: unknown) => value !== undefined && value !== '';
  if (!given(input.desde) && !given(input.hasta)) return ok(runningMonthRange(now));
  if (!given(input.desde) || !given(input.hasta)) return fail('invalid_range', PREVIEW_RANGE_MESSAGES.bothDays);
  const { desde, hasta } = input;
  if (typeof desde !== 'string' || typeof hasta !== 'string' || !isCalendarDay(desde) || !isCalendarDay(hasta)) {
    return fail('invalid_range', PREVIEW_RANGE_MESSAGES.notADay);
  }
  if (desde > hasta) return fail('invalid_range', PREVIEW_RANGE_MESSAGES.reversed);
  const today = guatemalanToday(now);
  if (hasta > today) return fail('invalid_range', PREVIEW_RANGE_MESSAGES.future(dayText(today)));
  const days = (Date.parse(`${hasta}T00:00:00Z`) - Date.parse(`${desde}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > PREVIEW_MAX_DAYS) return fail('invalid_range', PREVIEW_RANGE_MESSAGES.tooLong);
  return ok({ desde, hasta });
}

/** The preview of an integration's statement for the days of `range` (already parsed). */
export async function previewStatement(integrationId: number, range: PreviewRange, now = new Date()): Promise<Result<StatementPreview, PreviewProblem>> {
  const found = await statementIntegration(integrationId);
  if (!found) return fail('not_found', `No existe la integración ${integrationId}.`);
  const period = { from: startOfGuatemalanDay(range.desde), until: startOfNextGuatemalanDay(range.hasta) };
  const cutoff = retentionCutoff(now);
  if (period.from < cutoff) {
    // The first day whose records are all kept.
    const cutoffDay = guatemalanToday(cutoff);
    const firstKept = startOfGuatemalanDay(cutoffDay) < cutoff ? guatemalanToday(startOfNextGuatemalanDay(cutoffDay)) : cutoffDay;
    return fail(
      'records_purged',
      `Los registros anteriores al ${dayText(firstKept)} ya se depuraron (retención de registros): la vista previa puede empezar como muy pronto ese día.`,
    );
  }
  try {
    const [figures, invoices] = await Promise.all([computePeriodFigures(found.integration, period, dayRangeText(range.desde, range.hasta)), invoicesOfTopUpsBetween(integrationId, period.from, period.until)]);
    return ok({ range, figures, issuer: configuredIssuer(), computedAt: now, invoices });
  } catch (error) {
    if (error instanceof StatementError) return fail(error.problem as PreviewProblem, error.message);
    throw error;
  }
}
