// The query-record list's filters as read from the URL, and what a person is told of those typed
// wrong: the console's list and its CSV export, the portal's, and the API's GET /api/consultas.
import { z } from 'zod';
import { lookupKind } from '@/db/schema';
import { isCalendarDay } from '@/lib/platform/time/guatemala-time';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';
import { isPlausibleRequestId, typedRequestId } from '@/lib/core/request-ids/typed';
import { OUTCOMES } from '@/lib/core/records/outcomes';
import { plainSearchParams, type RecordFilterField, type RecordFilters, type SearchParamsInput } from '@/lib/core/records/filters';

const optionalText = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), z.string().optional());
const day = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().refine(isCalendarDay, 'Use una fecha válida con el formato AAAA-MM-DD.').optional(),
);

/**
 * Filters of the query-record list, read from the URL. The list page and the CSV export parse
 * the same search parameters with this schema, so an export holds exactly what the list shows.
 */
export const recordFiltersSchema = z.object({
  integracion: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().positive().max(2_147_483_647).optional()),
  consulta: z.preprocess((value) => (value === '' ? undefined : value), z.enum(lookupKind.enumValues).optional()),
  // An outcome class (success, client_error, source_error) or one exact HTTP status.
  estado: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.union([z.enum(OUTCOMES), z.string().regex(/^[1-5]\d\d$/, 'El estado debe ser un código HTTP de tres cifras.')]).optional(),
  ),
  desde: day,
  hasta: day,
  // A NIT or a CUI in any common writing (576937-k, 576937K, 2415 75181 0101): matched normalized.
  identificador: optionalText.pipe(z.string().max(MAX_IDENTIFIER_LENGTH, 'El NIT o CUI es demasiado largo.').optional()),
  // One request's id (req_…), as the integrator got it in x-request-id: at most one record.
  solicitud: z.preprocess(
    (value) => (typeof value === 'string' ? typedRequestId(value) : undefined),
    z.string().refine(isPlausibleRequestId, 'El id de solicitud es req_ seguido de letras y cifras.').optional(),
  ),
}) satisfies z.ZodType<RecordFilters, unknown>;

export interface FilterProblem {
  field: RecordFilterField;
  message: string;
}

/** Parses the filters; invalid ones are dropped and reported so the page can say which. */
export function parseRecordFilters(input: SearchParamsInput): { filters: RecordFilters; problems: FilterProblem[] } {
  const plain = plainSearchParams(input);
  // The search box takes a NIT, a CUI or a request id: a request id typed there is that filter.
  if (typedRequestId(plain.identificador) && !plain.solicitud) {
    plain.solicitud = plain.identificador!;
    delete plain.identificador;
  }
  const filters: Record<string, unknown> = {};
  const problems: FilterProblem[] = [];
  for (const [key, schema] of Object.entries(recordFiltersSchema.shape)) {
    const parsed = (schema as z.ZodType).safeParse(plain[key]);
    if (parsed.success) filters[key] = parsed.data;
    else problems.push({ field: key as RecordFilterField, message: parsed.error.issues[0]!.message });
  }
  const parsed = filters as RecordFilters;
  if (parsed.desde && parsed.hasta && parsed.hasta < parsed.desde) {
    problems.push({ field: 'hasta', message: 'La fecha final es anterior a la inicial.' });
    delete parsed.hasta;
  }
  return { filters: parsed, problems };
}

