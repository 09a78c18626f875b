// The balance history's filters as read from the URL, and what a person is told of those typed
// wrong: the console's page and its CSV export, the portal's Movimientos and the CLI.
import { z } from 'zod';
import { POSTED_KINDS } from '@/db/schema';
import { isCalendarDay } from '@/lib/platform/time/guatemala-time';
import type { HistoryFilters } from '@/lib/core/billing/history';
import { plainSearchParams, type SearchParamsInput } from '@/lib/core/records/filters';

const day = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().refine(isCalendarDay, 'Use una fecha válida con el formato AAAA-MM-DD.').optional(),
);

/** Filters of the history, read from the URL (the page, its CSV export and the CLI share them). */
export const historyFiltersSchema = z.object({
  tipo: z.preprocess((value) => (value === '' ? undefined : value), z.enum(POSTED_KINDS).optional()),
  desde: day,
  hasta: day,
}) satisfies z.ZodType<HistoryFilters, unknown>;

/**
 * The filters of a balance history request, the problems of those that were ignored, and among
 * them the one that belongs on the "Hasta" field (a reversed range), which the console shows there.
 */
export function parseHistoryFilters(input: SearchParamsInput): { filters: HistoryFilters; problems: string[]; hastaProblem?: string } {
  const plain = plainSearchParams(input);
  const filters: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, schema] of Object.entries(historyFiltersSchema.shape)) {
    const parsed = (schema as z.ZodType).safeParse(plain[key]);
    if (parsed.success) filters[key] = parsed.data;
    else problems.push(parsed.error.issues[0]!.message);
  }
  const parsed = filters as HistoryFilters;
  if (parsed.desde && parsed.hasta && parsed.hasta < parsed.desde) {
    const hastaProblem = 'La fecha final es anterior a la inicial.';
    problems.push(hastaProblem);
    delete parsed.hasta;
    return { filters: parsed, problems, hastaProblem };
  }
  return { filters: parsed, problems };
}
