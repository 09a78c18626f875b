// GET /consultas and /consultas/{request_id} in the OpenAPI document, described from the schemas and
// texts of records.ts, which answers them.
import { lookupKind } from '@/db/schema';
import { OUTCOMES } from '@/lib/core/records/outcomes';
import { RECORD_API_MESSAGES, RECORDS_PAGE_SIZE, recordPageSchema, requestAnswerSchema } from './records';
import { catalogError, integrationApiErrors, limitExceeded, pick, ref, withRequestId, type JsonObject, type Paths } from './openapi-parts';

/** An example record, as the list and the detail give it (masked as on every page). */
const EXAMPLE_RECORD = {
  request_id: 'req_5f0c3a9d2b7e41c8a6f1',
  consulta: 'omisos',
  estado_http: 200,
  resultado: 'success',
  nit: '57****-K',
  cui: null,
  monto_cobrado: '1.50',
  moneda: 'GTQ',
  tiempo_respuesta_ms: 412,
  creada_en: '2026-11-24T10:30:01.412Z',
} as const;

/** The integration's query records and what each request id did, beside /lotes: the same credentials, error shape and per-minute counter. */
export function recordPaths(): Paths {
  const common = integrationApiErrors(
    limitExceeded('El límite por minuto de /lotes, /vigilancias y /consultas para su integración (JSON; el mismo contador, aparte del de las consultas de contribuyentes), o el límite global por IP (texto plano).'),
  );
  const query = (name: string, description: string, schema: JsonObject) => ({ name, in: 'query', required: false, description, schema });
  return {
    '/consultas': {
      get: {
        operationId: 'listQueryRecords',
        tags: ['historial'],
        summary: 'Las consultas registradas de su integración, la más reciente primero',
        description: `Como la lista de Consultas del portal: hasta ${RECORDS_PAGE_SIZE} por página, con el NIT y el CUI enmascarados; pida la siguiente con ?cursor= y el campo siguiente (null en la última). Los rechazos antes de consultar (sin credenciales, sin saldo, límites) no son consultas registradas: búsquelos por su x-request-id. No se filtra por NIT ni CUI: un identificador no va en una URL.`,
        parameters: [
          query('consulta', 'Solo esta consulta.', { type: 'string', enum: [...lookupKind.enumValues] }),
          query('estado', 'Solo este estado HTTP (tres cifras). No junto con resultado.', { type: 'string', pattern: '^[1-5][0-9][0-9]$' }),
          query('resultado', 'Solo esta clase de resultado: success (2xx), client_error o source_error (5xx). No junto con estado.', { type: 'string', enum: [...OUTCOMES] }),
          query('desde', 'Desde este día, en el calendario de Guatemala (AAAA-MM-DD).', { type: 'string', format: 'date' }),
          query('hasta', 'Hasta este día inclusive, en el calendario de Guatemala (AAAA-MM-DD).', { type: 'string', format: 'date' }),
          query('cursor', 'El campo siguiente de la página anterior.', { type: 'string' }),
        ],
        responses: withRequestId({
          '200': { description: 'Una página de consultas.', content: { 'application/json': { schema: ref(recordPageSchema), example: { consultas: [EXAMPLE_RECORD], siguiente: null } } } },
          '400': catalogError('Un filtro no es válido, o el cursor no es uno que esta API haya dado.', pick(RECORD_API_MESSAGES, 'consulta', 'estado', 'resultado', 'estadoYResultado', 'fechas', 'filtros', 'invalidCursor')),
          ...common,
        }),
      },
    },
    '/consultas/{request_id}': {
      get: {
        operationId: 'getQueryByRequestId',
        tags: ['historial'],
        summary: 'Lo que pasó con una solicitud, por su x-request-id: la consulta y su cobro, una repetición y su original, o un rechazo',
        description:
          'Con las mismas palabras que el portal y soporte. Una consulta registrada trae su cobro explicado (registro). Una repetición con la misma Idempotency-Key trae la consulta original, si aún se conserva. Un rechazo antes de consultar (sin saldo, límite, consulta no habilitada) o una solicitud que el servicio no pudo atender dicen por qué y que no se cobraron; se conservan menos tiempo que las consultas. El x-request-id de una solicitud de otra integración responde igual que uno que no existe (404).',
        parameters: [{ name: 'request_id', in: 'path', required: true, description: 'El x-request-id que recibió su sistema (req_…).', schema: { type: 'string' } }],
        responses: withRequestId({
          '200': {
            description: 'Lo que pasó con ese identificador de solicitud (x-request-id).',
            content: {
              'application/json': {
                schema: ref(requestAnswerSchema),
                example: {
                  request_id: EXAMPLE_RECORD.request_id,
                  tipo: 'consulta',
                  consulta: 'omisos',
                  estado_http: 200,
                  fecha: EXAMPLE_RECORD.creada_en,
                  resumen: `${EXAMPLE_RECORD.request_id}: /api/catalogos/omisos, 200, 24/11/2026, 04:30:01, consulta registrada, cobrada Q 1.50`,
                  detalle: 'Se cobró Q 1.50, la tarifa de su catálogo (vea registro.movimientos).',
                  monto_cobrado: '1.50',
                  moneda: 'GTQ',
                  repite: null,
                  registro: { ...EXAMPLE_RECORD, que_paso: null, tarifa: '1.50', motivo_sin_cobro: null, movimientos: [{ descripcion: 'Reserva del saldo al iniciar la consulta', efecto: '-1.50', fecha: '2026-11-24T10:30:01.002Z' }], constancia_id: null, constancia_url: null },
                },
              },
            },
          },
          '404': catalogError('Ninguna solicitud de su integración tiene ese x-request-id (también el de otra integración, o uno ya depurado).', pick(RECORD_API_MESSAGES, 'notFound')),
          ...common,
        }),
      },
    },
  };
}
