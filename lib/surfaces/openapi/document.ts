import { lookupKind } from '@/db/schema';
import { OUTCOMES } from '@/lib/core/records/outcomes';
import { z } from 'zod';
import { catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema } from '@/lib/contract/requests';
import { catalogErrorSchema, renapEnvelopeSchema, rtuNitsEnvelopeSchema } from '@/lib/contract/envelopes';
import { CATALOG_MESSAGES, CONTRACT_REVISION } from '@/lib/contract/messages';
import { bulkJobRequestSchema } from '@/lib/flows/bulk/requests';
import { bulkJobPageSchema, bulkJobSchema, bulkResultRowSchema } from '@/lib/flows/bulk/schemas';
import { RECORD_API_MESSAGES, RECORDS_PAGE_SIZE, recordDetailSchema, recordPageSchema, recordSummarySchema, requestAnswerSchema } from '@/lib/surfaces/api/records';
import {
  watchListChangesSchema,
  watchListCreatedSchema,
  watchListEditedSchema,
  watchListEditSchema,
  watchListPageSchema,
  watchListRequestSchema,
  watchListSchema,
} from '@/lib/flows/watch-lists/schemas';
import { accountSchema, movementsSchema } from '@/lib/surfaces/api/account-schemas';
import { STATUS_API_LIMIT_MESSAGE } from '@/lib/core/limits/status-limit';
import { publicStatusSchema } from '@/lib/reactions/status-page/public-schema';
import { buildPublicStatus, STATUS_UNAVAILABLE_MESSAGE } from '@/lib/reactions/status-page/status';
import {
  catalogError,
  examples,
  GLOBAL_LIMIT_CONTENT,
  pick,
  ref,
  withRequestId,
  type JsonObject,
  type Paths,
} from '@/lib/surfaces/api/openapi-parts';
import { lookupPaths } from '@/lib/surfaces/api/lookup-openapi';
import { bulkPaths } from '@/lib/surfaces/api/bulk-openapi';
import { watchListPaths } from '@/lib/surfaces/api/watch-list-openapi';
import { accountPaths } from '@/lib/surfaces/api/account-openapi';

// The OpenAPI 3.1 document, generated from the same zod schemas the handlers and normalizers use
// and the same message constants they answer with, so it cannot drift from what the API does.

function componentSchemas(): Record<string, JsonObject> {
  // Make sure every schema is registered before the registry is converted.
  void [catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema, renapEnvelopeSchema, rtuNitsEnvelopeSchema, bulkJobRequestSchema, bulkJobSchema, bulkResultRowSchema, watchListRequestSchema, watchListSchema, watchListCreatedSchema, watchListChangesSchema, bulkJobPageSchema, watchListPageSchema, watchListEditSchema, watchListEditedSchema, recordSummarySchema, recordPageSchema, recordDetailSchema, requestAnswerSchema, accountSchema, movementsSchema, publicStatusSchema];
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    // A fragment-only $id would rebase the references inside the schema; the component name is enough.
    delete schema.$id;
  }
  // z.json() is recursive and lands in a shared $defs entry; "any JSON value" is simply {} in JSON Schema.
  if (schemas.OpaqueJson) schemas.OpaqueJson = { description: schemas.OpaqueJson.description };
  delete schemas.__shared;
  // The refinement "at least one of nit and cui" is not representable by zod's converter.
  const catalogRequest = schemas.CatalogRequest;
  if (catalogRequest) {
    catalogRequest.anyOf = ['nit', 'cui'].map((key) => ({ required: [key], properties: { [key]: { type: 'string', pattern: '\\S' } } }));
  }
  return schemas;
}

/** An example of GET /estado, built by the status page's own code (two days and two hours of the 90 and 24, to keep it short). */
function exampleStatus(): JsonObject {
  const status = buildPublicStatus({ now: new Date('2026-11-24T16:30:00.000Z'), dayCells: [], hourCells: [], transitions: [] });
  return { ...status, fuentes: status.fuentes.map((source) => ({ ...source, dias: source.dias.slice(-2), horas: source.horas.slice(-2) })) };
}

/** The sources' public status: no credentials, its own per-IP limit. */
function statusPaths(): Paths {
  const message = (text: string) => ({ type: 'object', required: ['message'], properties: { message: { type: 'string' } }, additionalProperties: false, example: { message: text } });
  return {
    '/estado': {
      get: {
        operationId: 'getSourcesStatus',
        tags: ['estado'],
        summary: 'El estado público de las fuentes: cada una ahora, por día (90 días) y por hora (24 horas), y sus incidentes',
        description: [
          'Lo mismo que muestra la página /estado. No requiere credenciales y se puede leer desde cualquier origen (CORS). No trae datos de ninguna integración.',
          'La respuesta se comparte unos segundos entre solicitudes (Cache-Control dice cuántos); generado_en dice cuándo se leyó. Límite propio por IP (RATE_LIMIT_STATUS_API_PER_MINUTE, 60 por minuto por omisión): no gasta el global de la API, así que un cliente limitado en sus consultas todavía puede ver si las fuentes responden.',
        ].join('\n\n'),
        security: [],
        responses: {
          '200': { description: 'El estado.', content: { 'application/json': { schema: ref(publicStatusSchema), example: exampleStatus() } } },
          '429': { description: 'El límite por minuto de esta ruta para su dirección IP.', content: { 'application/json': { schema: message(STATUS_API_LIMIT_MESSAGE) } } },
          '503': { description: 'El servicio todavía no pudo leer el estado (por ejemplo, recién iniciado sin base de datos).', content: { 'application/json': { schema: message(STATUS_UNAVAILABLE_MESSAGE) } } },
        },
      },
    },
  };
}

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
function recordPaths(): Paths {
  const common = {
    '401': catalogError('Credenciales que no corresponden a ninguna integración (o solo una de las dos cabeceras).', pick(CATALOG_MESSAGES, 'integrationNotFound')),
    '403': catalogError('Sin credenciales de integración.', pick(CATALOG_MESSAGES, 'credentialsRequired')),
    '429': {
      description: 'El límite por minuto de /lotes, /vigilancias y /consultas para su integración (JSON; el mismo contador, aparte del de las consultas de contribuyentes), o el límite global por IP (texto plano).',
      content: { 'application/json': { schema: ref(catalogErrorSchema), examples: examples(pick(CATALOG_MESSAGES, 'rateLimited'), 'message') }, ...GLOBAL_LIMIT_CONTENT },
    },
    '500': catalogError('Falla no controlada; el texto varía y no debe usarse como condición.', pick(CATALOG_MESSAGES, 'unhandled')),
    '502': catalogError('No fue posible validar las credenciales en este momento. Reintente con espera exponencial.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
  };
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
                  registro: { ...EXAMPLE_RECORD, que_paso: null, tarifa: '1.50', motivo_sin_cobro: null, movimientos: [{ descripcion: 'Reserva del saldo al iniciar la consulta', efecto: '-1.50', fecha: '2026-11-24T10:30:01.002Z' }] },
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

export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, JsonObject>;
  components: { schemas: Record<string, JsonObject>; securitySchemes: Record<string, JsonObject> };
}

/** The document; `baseUrl` is this deployment's {base_url} (origin + /api). */
export function buildOpenApiDocument(baseUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'API de consulta de contribuyentes (integradores)',
      version: CONTRACT_REVISION,
      description: [
        'Cinco consultas de contribuyentes para integradores: una persona en el registro nacional de personas (RENAP) por CUI, hasta 50 contribuyentes en el RTU por NIT, y tres catálogos (CUI/NIT, el RTU completo y el estado de cumplimiento, omisos) que se cobran de un saldo prepagado.',
        'Autenticación: las dos cabeceras x-integracion-login (se compara en minúsculas con el nombre de la integración) y x-integracion-token, en cada solicitud; ninguna sirve sola. Un administrador habilita cada consulta por separado para cada integración.',
        'Tokens: una integración puede tener varios tokens con nombre, y cualquiera de ellos sirve. Para cambiar el token sin cortar el servicio, rótelo con superposición (1 hora, 24 horas o 7 días) en Credenciales del portal de integradores (un propietario o un desarrollador): durante ese tiempo funcionan el token anterior y el nuevo; al terminar, el anterior se rechaza como una credencial desconocida. Un token revocado deja de funcionar de inmediato.',
        'Direcciones IP permitidas: una integración puede limitar sus solicitudes a una lista de direcciones o rangos CIDR (IPv4 e IPv6). Desde otra dirección, las credenciales reciben la misma respuesta que unas credenciales incorrectas (401 en los catálogos, 403 en /renap/buscar-cui y /rtu/nits), y la solicitud no se registra ni se cobra.',
        'Límites: 100 solicitudes cada 15 minutos por IP en toda la API (429 con cuerpo de texto plano), y por integración: 30 por minuto en /renap/buscar-cui, 50 por minuto en /rtu/nits y 30 por minuto compartidos por los tres catálogos. Las ventanas se reinician a más tardar 60 segundos después de su primera solicitud. Los límites pueden reducirse sin aviso.',
        'Decida por el estado HTTP, no por el texto de los mensajes: pueden cambiar sin aviso. Los mensajes de los catálogos se escriben sin tildes, salvo dos que las llevan tal como los fija el contrato: «Integración no encontrada con estas credenciales.» (401) y «Algo salió mal» (500).',
        `La versión es la fecha de revisión del contrato (${CONTRACT_REVISION}); la API no lleva versión en sus rutas ni en sus cabeceras.`,
      ].join('\n\n'),
    },
    servers: [{ url: baseUrl, description: 'Este ambiente' }],
    security: [{ integracionLogin: [], integracionToken: [] }],
    tags: [
      { name: 'consultas', description: 'Las cinco consultas de contribuyentes.' },
      { name: 'lotes', description: 'Listas de identificadores consultadas en segundo plano (una extensión junto a las cinco consultas).' },
      { name: 'vigilancias', description: 'Listas de NIT guardadas que se consultan cada mes o cada semana, avisando solo lo que cambió.' },
      { name: 'cuenta', description: 'Su cuenta: saldo, tarifa, límites, gasto del mes y movimientos del saldo, como los muestra el portal.' },
      { name: 'estado', description: 'El estado público de las fuentes, sin credenciales.' },
      { name: 'historial', description: 'Las consultas registradas de su integración y lo que pasó con cada solicitud, por su x-request-id, como en el portal.' },
    ],
    paths: {
      ...lookupPaths(),
      ...bulkPaths(),
      ...watchListPaths(),
      ...accountPaths(),
      ...statusPaths(),
      ...recordPaths(),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        integracionLogin: { type: 'apiKey', in: 'header', name: 'x-integracion-login', description: 'El nombre de la integración; se compara en minúsculas.' },
        integracionToken: { type: 'apiKey', in: 'header', name: 'x-integracion-token', description: 'Uno de los tokens vigentes de la integración (varios pueden estarlo durante una rotación). Nunca en la URL ni en el cuerpo.' },
      },
    },
  };
}
