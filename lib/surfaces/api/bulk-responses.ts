// The answers of /api/lotes: the catalogs' error shape (`{message}`) and, where the
// condition is the same, the catalogs' very texts (lib/contract/messages.ts). The new ones are
// spelled with their accents: only the contract's own texts keep its spelling.
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import type { BulkRequestProblem } from '@/lib/flows/bulk/requests';
import type { JobStatus } from '@/lib/flows/bulk/jobs';
import { catalogPathName } from '@/lib/vocabulary/lookups';
import { jobStateReason } from '@/lib/flows/bulk/labels';
import { MAX_BULK_IDENTIFIERS } from '@/lib/flows/bulk/identifiers';
import { centavosAsDecimal, CURRENCY } from '@/lib/platform/money';
import type { BulkJobBody } from '@/lib/flows/bulk/schemas';
import { jsonResponse } from './responses';

export const BULK_MESSAGES = {
  content_type: 'El cuerpo debe enviarse como JSON con content-type: application/json.',
  too_large: 'El cuerpo de la petición es demasiado grande.',
  malformed: 'El cuerpo de la petición no es JSON válido.',
  catalog: 'El campo catalogo debe ser cui-nit, rtu u omisos.',
  identifiers: `Envíe entre 1 y ${MAX_BULK_IDENTIFIERS.toLocaleString('en-US')} identificadores como texto en el campo identificadores.`,
  constancias: 'El campo constancias, si se envía, debe ser true o false.',
  fields: 'El cuerpo debe ser un objeto JSON con los campos catalogo, identificadores y, si quiere, constancias; ningún otro.',
  constanciasNotEnabled: 'Su integración no tiene habilitadas las constancias de consulta: pídalas a la administración del servicio, o envíe el lote sin constancias.',
  idempotencyKeyMissing: 'Envíe el encabezado Idempotency-Key para crear un lote.',
  jobNotFound: 'No encontramos un lote con ese id.',
  jobFinished: 'El lote ya terminó y no se puede cancelar.',
  jobNotFinished: 'El lote todavía no termina: reintente sus fallidos cuando termine.',
  nothingToRetry: 'El lote no tiene filas con error de la fuente que reintentar.',
  invalidCursor: 'El cursor no es válido: use el campo siguiente de la página anterior.',
} as const satisfies Record<BulkRequestProblem | string, string>;

export function bulkError(status: number, message: string, requestId: string): Response {
  return jsonResponse(status, { message }, requestId);
}

export const bulkErrors = {
  credentialsMissing: (requestId: string) => bulkError(403, CATALOG_MESSAGES.credentialsRequired, requestId),
  credentialsInvalid: (requestId: string) => bulkError(401, CATALOG_MESSAGES.integrationNotFound, requestId),
  unavailable: (requestId: string) => bulkError(502, CATALOG_MESSAGES.sourceUnavailable, requestId),
  notEnabled: (requestId: string) => bulkError(403, CATALOG_MESSAGES.catalogNotEnabled, requestId),
  constanciasNotEnabled: (requestId: string) => bulkError(403, BULK_MESSAGES.constanciasNotEnabled, requestId),
  // Not a contract route: its 429 says when the minute's window ends (docs/decisions.md, "Retry-After on the API's own endpoints").
  rateLimited: (requestId: string, resetAtMs: number) => {
    const refused = bulkError(429, CATALOG_MESSAGES.rateLimited, requestId);
    refused.headers.set('retry-after', String(Math.max(1, Math.ceil((resetAtMs - Date.now()) / 1000))));
    return refused;
  },
  notFound: (requestId: string) => bulkError(404, BULK_MESSAGES.jobNotFound, requestId),
  unhandled: (requestId: string) => bulkError(500, CATALOG_MESSAGES.unhandled, requestId),
};

/** A job's state as GET /api/lotes/{id} and the submission show it. */
export function jobBody(job: JobStatus): BulkJobBody {
  return {
    id: job.publicId,
    catalogo: catalogPathName(job.catalog),
    estado: job.state,
    motivo_estado: jobStateReason(job),
    creado_en: job.createdAt.toISOString(),
    terminado_en: job.finishedAt?.toISOString() ?? null,
    conteos: {
      total: job.counts.total,
      procesados: job.counts.done,
      pendientes: job.counts.pending,
      encontrados: job.counts.found,
      no_encontrados: job.counts.notFound,
      invalidos: job.counts.invalid,
      duplicados: job.counts.duplicates,
      rechazados: job.counts.rejected,
      fallidos: job.counts.failed,
    },
    monto_cobrado: centavosAsDecimal(job.chargedCentavos),
    moneda: CURRENCY,
    estimado_fin: job.estimatedEnd?.toISOString() ?? null,
    resultados: `/api/lotes/${job.publicId}/resultados`,
    reintenta: job.retryOf,
    constancias: job.constancias,
  };
}
