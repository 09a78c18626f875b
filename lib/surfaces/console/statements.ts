// An integration's statements as the console shows them: the closed months one can be issued for,
// the running month, and a preview of some days (never numbered, never stored).
import { previousMonth } from '@/lib/flows/statements/monthly';
import { parsePreviewRange, previewStatement, runningMonthRange, type PreviewRange } from '@/lib/flows/statements/preview';
import { PREVIEW_MARK } from '@/lib/flows/statements/texts';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import type { IntegrationView } from '@/lib/flows/integration-management/service';

/** What marks a preview as one (it is not an issued statement). */
export const STATEMENT_PREVIEW_MARK = PREVIEW_MARK;

/** The running month from its first day to today (Guatemala's calendar). */
export function runningMonth(now = new Date()): PreviewRange {
  return runningMonthRange(now);
}

/**
 * The closed months an administrator can issue a statement for: the last twelve, none before the
 * month the integration was created in (an empty statement would be kept forever).
 */
export function closedMonths(createdAt: Date, now = new Date()): string[] {
  const months: string[] = [];
  const first = guatemalanMonthOf(createdAt);
  let month = previousMonth(now);
  for (let index = 0; index < 12 && month >= first; index++) {
    months.push(month);
    const [year, number] = month.split('-').map(Number) as [number, number];
    month = number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
  }
  return months;
}

/**
 * The preview of the days the address asks for (desde, hasta; the running month without them):
 * the preview, or what is wrong with the days or the figures.
 */
export async function statementPreviewView(integration: IntegrationView, query: { desde?: unknown; hasta?: unknown }, now: Date) {
  const range = parsePreviewRange({ desde: query.desde, hasta: query.hasta }, now);
  const preview = range.ok ? await previewStatement(integration.id, range.value, now) : undefined;
  const problem = !range.ok ? range.error.message : preview && !preview.ok ? preview.error.message : undefined;
  return { range, preview, problem, running: runningMonthRange(now) };
}
