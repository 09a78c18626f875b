import { z } from 'zod';
import { lookupKind } from '@/db/schema';
import { OUTCOMES } from '@/lib/console/labels';

const optionalText = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), z.string().optional());
const day = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Usa el formato AAAA-MM-DD.').optional(),
);

/**
 * Filters of the query-record list, read from the URL. The list page and the CSV export parse
 * the same search parameters with this schema, so an export holds exactly what the list shows.
 */
export const recordFiltersSchema = z.object({
  integracion: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().positive().optional()),
  consulta: z.preprocess((value) => (value === '' ? undefined : value), z.enum(lookupKind.enumValues).optional()),
  // An outcome class (success, client_error, source_error) or one exact HTTP status.
  estado: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.union([z.enum(OUTCOMES), z.string().regex(/^[1-5]\d\d$/, 'El estado debe ser un código HTTP de tres cifras.')]).optional(),
  ),
  desde: day,
  hasta: day,
  identificador: optionalText.pipe(z.string().max(64, 'El identificador es demasiado largo.').optional()),
});

export type RecordFilters = z.infer<typeof recordFiltersSchema>;

/** Search parameters as Next gives them to a page, or a URLSearchParams from a route handler. */
export type SearchParamsInput = Record<string, string | string[] | undefined> | URLSearchParams;

export function plainSearchParams(input: SearchParamsInput): Record<string, string> {
  const entries = input instanceof URLSearchParams ? [...input.entries()] : Object.entries(input);
  const plain: Record<string, string> = {};
  for (const [key, value] of entries) {
    const single = Array.isArray(value) ? value[0] : value;
    if (typeof single === 'string') plain[key] = single;
  }
  return plain;
}

/** Parses the filters; invalid ones are dropped and reported so the page can say which. */
export function parseRecordFilters(input: SearchParamsInput): { filters: RecordFilters; problems: string[] } {
  const plain = plainSearchParams(input);
  const filters: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, schema] of Object.entries(recordFiltersSchema.shape)) {
    const parsed = (schema as z.ZodType).safeParse(plain[key]);
    if (parsed.success) filters[key] = parsed.data;
    else problems.push(`${key}: ${parsed.error.issues[0]!.message}`);
  }
  return { filters: filters as RecordFilters, problems };
}

/** The filters back as search parameters (for links: pagination, export). */
export function recordFiltersToSearchParams(filters: RecordFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params;
}
