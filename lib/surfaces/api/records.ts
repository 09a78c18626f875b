// GET /api/consultas and GET /api/consultas/{request_id}: the integration's query records as the
// portal's Consultas shows them, for its systems (a nightly reconciliation by request id). Through
// the same services (lib/core/records, lib/core/request-traces) and indexes, with the integration
// the credentials named and nothing else: another integration's request id reads exactly as one no
// record or trace has. NIT and CUI leave masked, as on every page; the API has no reveal.
import { z } from 'zod';
import { constanciaIdOfRequest } from '@/lib/core/constancias/read';
import { constanciaAddress } from '@/lib/core/constancias/payload';
import { lookupKind, type LookupKind } from '@/db/schema';
import { maskedIdentifiers } from '@/lib/core/sealing/masking';
import type { RecordFilters } from '@/lib/core/records/filters';
import { parseRecordFilters } from '@/lib/presentation/record-filters';
import { findIntegrationRecordDetail, listRecordsPage, RECORDS_PAGE_SIZE, type RecordDetail } from '@/lib/core/records/list';
import { OUTCOMES, outcomeOf } from '@/lib/core/records/outcomes';
import { isPlausibleRequestId, typedRequestId } from '@/lib/core/request-ids/typed';
import { describeRequestTrace, requestTraceDetail } from '@/lib/presentation/request-traces';
import { requestTrace, type RequestTrace } from '@/lib/core/request-traces/read';
import { explainCharge } from '@/lib/presentation/charge-explanation';
import { explainRecordError } from '@/lib/presentation/record-errors';
import { decodeCursor } from '@/lib/platform/paging/keyset';
import { centavosAsDecimal, CURRENCY, formatQuetzales } from '@/lib/platform/money';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

export { RECORDS_PAGE_SIZE };

/** The texts of /api/consultas' 400 and 404, in the catalogs' shape ({message}). */
export const RECORD_API_MESSAGES = {
  consulta: `El filtro consulta debe ser ${lookupKind.enumValues.join(', ')}.`,
  estado: 'El filtro estado debe ser un código HTTP de tres cifras.',
  resultado: `El filtro resultado debe ser ${OUTCOMES.join(', ')}.`,
  estadoYResultado: 'Use el filtro estado o el filtro resultado, no los dos.',
  fechas: 'Los filtros desde y hasta deben ser fechas AAAA-MM-DD (calendario de Guatemala), y hasta no anterior a desde.',
  filtros: 'Los filtros son consulta, estado, resultado, desde, hasta y cursor, y ningún otro.',
  invalidCursor: 'El cursor no es válido: use el campo siguiente de la página anterior.',
  notFound: 'No encontramos una consulta de su integración con ese identificador de solicitud (x-request-id).',
} as const;

export type RecordListProblem = Exclude<keyof typeof RECORD_API_MESSAGES, 'notFound'>;

const FILTER_NAMES = new Set(['consulta', 'estado', 'resultado', 'desde', 'hasta', 'cursor']);

/**
 * The list's filters from the query string, the integration always the credentials'. No NIT or CUI
 * filter: an identifier has no place in a URL (the portal searches one through a reference).
 */
export function recordListFilters(integrationId: number, params: URLSearchParams): { ok: true; filters: RecordFilters; cursor?: string } | { ok: false; problem: RecordListProblem } {
  for (const name of params.keys()) if (!FILTER_NAMES.has(name)) return { ok: false, problem: 'filtros' };
  const value = (name: string) => params.get(name) ?? undefined;
  const estado = value('estado');
  const resultado = value('resultado');
  if (estado !== undefined && resultado !== undefined) return { ok: false, problem: 'estadoYResultado' };
  if (estado !== undefined && !/^[1-5][0-9][0-9]$/.test(estado)) return { ok: false, problem: 'estado' };
  if (resultado !== undefined && !(OUTCOMES as readonly string[]).includes(resultado)) return { ok: false, problem: 'resultado' };
  const cursor = value('cursor');
  if (cursor !== undefined && decodeCursor(cursor) === undefined) return { ok: false, problem: 'invalidCursor' };
  const { filters, problems } = parseRecordFilters({ consulta: value('consulta'), estado: estado ?? resultado, desde: value('desde'), hasta: value('hasta') });
  const problem = problems[0]?.field;
  if (problem === 'consulta') return { ok: false, problem: 'consulta' };
  if (problem !== undefined) return { ok: false, problem: problem === 'estado' ? 'estado' : 'fechas' };
  return { ok: true, filters: { ...filters, integracion: integrationId, identificador: undefined, solicitud: undefined }, cursor };
}

const movementSchema = z.object({
  descripcion: z.string(),
  efecto: z.string().describe('Lo que movió en el saldo, en quetzales con dos decimales (negativo: lo tomó).'),
  fecha: z.string(),
});

export const recordSummarySchema = z
  .object({
    request_id: z.string().describe('El x-request-id que recibió su sistema.'),
    consulta: z.enum(lookupKind.enumValues),
    estado_http: z.int(),
    resultado: z.enum(OUTCOMES).describe('success (2xx), client_error (otro 4xx o menos) o source_error (5xx).'),
    nit: z.string().nullable().describe('Enmascarado, como en el portal; null si la consulta no llevaba NIT.'),
    cui: z.string().nullable().describe('Enmascarado, como en el portal; null si la consulta no llevaba CUI.'),
    monto_cobrado: z.string().describe('En quetzales, con dos decimales.'),
    moneda: z.literal(CURRENCY),
    tiempo_respuesta_ms: z.int(),
    creada_en: z.string().describe('ISO 8601, UTC.'),
  })
  .meta({ id: 'ConsultaResumen', description: 'Una consulta registrada, como la lista de Consultas del portal.' });

export const recordPageSchema = z
  .object({
    consultas: z.array(recordSummarySchema).describe('La más reciente primero.'),
    siguiente: z.string().nullable().describe('El cursor de la página siguiente (?cursor=…); null en la última.'),
  })
  .meta({ id: 'Consultas', description: 'Una página de las consultas registradas de su integración.' });

export const recordDetailSchema = recordSummarySchema
  .extend({
    que_paso: z.string().nullable().describe('Qué pasó, con las palabras del portal y de soporte; null para una respuesta 200 sin error.'),
    tarifa: z.string().nullable().describe('La tarifa reservada al consultar, en quetzales; null si no se reservó.'),
    motivo_sin_cobro: z.string().nullable().describe('Por qué no se cobró; null si se cobró.'),
    movimientos: z.array(movementSchema).describe('Los movimientos del saldo de esta consulta: su suma es menos lo cobrado.'),
    constancia_id: z.string().nullable().describe('La constancia de consulta que recibió (x-constancia-id), si la pidió y se emitió; null si no.'),
    constancia_url: z.string().nullable().describe('Dónde leer esa constancia (GET, JSON o PDF); null si no hay.'),
  })
  .meta({ id: 'ConsultaRegistro', description: 'Una consulta registrada con su cobro explicado, como su página en el portal.' });

export const requestAnswerSchema = z
  .object({
    request_id: z.string().describe('El identificador de solicitud pedido.'),
    tipo: z
      .enum(['consulta', 'repeticion', 'rechazo', 'no_atendida'])
      .describe('consulta: una consulta registrada; repeticion: la respuesta guardada de otra solicitud con la misma Idempotency-Key; rechazo: rechazada antes de consultar ninguna fuente; no_atendida: el servicio no pudo atenderla.'),
    consulta: z.enum(lookupKind.enumValues),
    estado_http: z.int().describe('El estado que recibió esta solicitud.'),
    fecha: z.string().describe('ISO 8601, UTC.'),
    resumen: z.string().describe('Lo que pasó, en la frase que soporte y el portal dan: la ruta, el estado, la hora de Guatemala y si se cobró.'),
    detalle: z
      .string()
      .nullable()
      .describe('Por qué: de una consulta, lo que pasó si no se encontró o falló (registro.que_paso) y por qué se cobró o no; de una solicitud sin registro propio, por qué y que no se cobró; null en una repeticion cuya consulta original se conserva (vea registro).'),
    monto_cobrado: z.string().describe('Lo cobrado por esta solicitud: una repetición, un rechazo o una no atendida nunca se cobran.'),
    moneda: z.literal(CURRENCY),
    repite: z.string().nullable().describe('En una repeticion, el identificador de la solicitud original.'),
    registro: recordDetailSchema
      .nullable()
      .describe('La consulta registrada: la misma (consulta) o la original (repeticion), si aún se conserva; null para un rechazo o una no atendida.'),
  })
  .meta({ id: 'ConsultaPorRequestId', description: 'Lo que pasó con una solicitud de su integración, por su x-request-id.' });

type RecordDetailBody = z.infer<typeof recordDetailSchema>;
export type RequestAnswerBody = z.infer<typeof requestAnswerSchema>;

function summaryOf(record: { requestId: string; lookup: LookupKind; httpStatus: number; nit: string | null; cui: string | null; chargedCentavos: number; responseTimeMs: number; createdAt: Date }): z.infer<typeof recordSummarySchema> {
  const masked = maskedIdentifiers(record);
  return {
    request_id: masked.requestId,
    consulta: masked.lookup,
    estado_http: masked.httpStatus,
    resultado: outcomeOf(masked.httpStatus),
    nit: masked.nit,
    cui: masked.cui,
    monto_cobrado: centavosAsDecimal(masked.chargedCentavos),
    moneda: CURRENCY,
    tiempo_respuesta_ms: masked.responseTimeMs,
    creada_en: masked.createdAt.toISOString(),
  };
}

/** A page of the integration's records, newest first (the console's and portal's keyset pages). */
export async function recordPage(filters: RecordFilters, cursor: string | undefined): Promise<z.infer<typeof recordPageSchema>> {
  const page = await listRecordsPage(filters, { after: cursor });
  return { consultas: page.rows.map(summaryOf), siguiente: page.older ?? null };
}

async function detailOf(integrationId: number, detail: RecordDetail): Promise<RecordDetailBody> {
  const masked = maskedIdentifiers(detail.record);
  const charge = explainCharge(masked, detail.ledger, masked.lookup);
  const constanciaId = await constanciaIdOfRequest(detail.record.requestId, integrationId);
  return {
    ...summaryOf(detail.record),
    que_paso: explainRecordError(masked) ?? null,
    tarifa: masked.tariffCentavos === null ? null : centavosAsDecimal(masked.tariffCentavos),
    motivo_sin_cobro: charge.notChargedBecause ?? null,
    movimientos: charge.movements.map((movement) => ({ descripcion: movement.label, efecto: centavosAsDecimal(movement.effectCentavos), fecha: movement.createdAt.toISOString() })),
    constancia_id: constanciaId,
    constancia_url: constanciaId === null ? null : constanciaAddress(constanciaId),
  };
}

/**
 * What a request id did, within the integration only (as the portal's search box): its record, a
 * replay with its original's record, or the trace of a refusal or an unserved answer. Undefined for
 * an unknown id and for another integration's, alike.
 */
export async function answerForRequestId(integrationId: number, text: string): Promise<RequestAnswerBody | undefined> {
  const requestId = typedRequestId(text);
  if (!requestId || !isPlausibleRequestId(requestId)) return undefined;
  const own = await findIntegrationRecordDetail(integrationId, requestId);
  if (own) {
    const record = await detailOf(integrationId, own);
    return {
      request_id: requestId,
      tipo: 'consulta',
      consulta: record.consulta,
      estado_http: record.estado_http,
      fecha: record.creada_en,
      resumen: describeRecord(own.record),
      detalle: recordDetail(record, own.record.chargedCentavos),
      monto_cobrado: record.monto_cobrado,
      moneda: CURRENCY,
      repite: null,
      registro: record,
    };
  }
  const trace = await requestTrace(requestId);
  // A trace names an integration only when the request's login was known; one that names none, or another, is not this one's.
  if (!trace || trace.integration?.id !== integrationId) return undefined;
  const original = trace.kind === 'replay' ? await findIntegrationRecordDetail(integrationId, trace.replayOf) : undefined;
  return {
    request_id: requestId,
    tipo: TRACE_KINDS[trace.kind],
    consulta: trace.lookup,
    estado_http: trace.httpStatus,
    fecha: trace.at.toISOString(),
    resumen: describeRequestTrace(trace),
    detalle: original ? null : requestTraceDetail(trace),
    monto_cobrado: centavosAsDecimal(0),
    moneda: CURRENCY,
    repite: trace.kind === 'replay' ? trace.replayOf : null,
    registro: original ? await detailOf(integrationId, original) : null,
  };
}

/** A record's sentence, as describeRequestTrace's for a request without one: path, status, Guatemala's time, the charge. */
function describeRecord(record: { requestId: string; lookup: LookupKind; httpStatus: number; chargedCentavos: number; createdAt: Date }): string {
  const charge = record.chargedCentavos > 0 ? `cobrada ${formatQuetzales(record.chargedCentavos)}` : 'sin cobro';
  return `${record.requestId}: ${LOOKUP_PATHS[record.lookup]}, ${record.httpStatus}, ${formatDateTime(record.createdAt)}, consulta registrada, ${charge}`;
}

/** Why, after describeRecord's sentence: what happened when it was not found or failed, and why it was charged or not. */
function recordDetail(record: RecordDetailBody, chargedCentavos: number): string {
  const charge = record.motivo_sin_cobro
    ? `No se cobró: ${record.motivo_sin_cobro}`
    : chargedCentavos > 0
      ? `Se cobró ${formatQuetzales(chargedCentavos)}, la tarifa de su catálogo (vea registro.movimientos).`
      : 'No se cobró.';
  return [record.que_paso, charge].filter(Boolean).join(' ');
}

const TRACE_KINDS = { refusal: 'rechazo', unserved: 'no_atendida', replay: 'repeticion' } as const satisfies Record<RequestTrace['kind'], RequestAnswerBody['tipo']>;
