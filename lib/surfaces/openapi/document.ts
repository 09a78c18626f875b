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
import { ACCOUNT_MESSAGES, CREDIT_NOTE_NOT_FOUND_MESSAGE, INVOICE_NOT_FOUND_MESSAGE, MOVEMENTS_PAGE_SIZE } from '@/lib/surfaces/api/account-responses';
import { accountSchema, invoicesSchema, MOVEMENT_KINDS, movementsSchema, type AccountBody, type InvoicesBody, type MovementsBody } from '@/lib/surfaces/api/account-schemas';
import { INVOICES_PAGE_SIZE } from '@/lib/surfaces/api/account-invoices';
import { STATUS_API_LIMIT_MESSAGE } from '@/lib/core/limits/status-limit';
import { publicStatusSchema } from '@/lib/reactions/status-page/public-schema';
import { buildPublicStatus, STATUS_UNAVAILABLE_MESSAGE } from '@/lib/reactions/status-page/status';
import {
  catalogError,
  examples,
  GLOBAL_LIMIT_CONTENT,
  OWN_LIMIT_RETRY_AFTER,
  pick,
  ref,
  withRequestId,
  type JsonObject,
  type Paths,
} from '@/lib/surfaces/api/openapi-parts';
import { lookupPaths } from '@/lib/surfaces/api/lookup-openapi';
import { bulkPaths } from '@/lib/surfaces/api/bulk-openapi';
import { watchListPaths } from '@/lib/surfaces/api/watch-list-openapi';

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

/** An account as GET /cuenta answers it (typed by its schema, so the example cannot drift from it). */
const EXAMPLE_ACCOUNT: AccountBody = {
  integracion: 'erp-contable',
  activa: true,
  moneda: 'GTQ',
  saldo_centavos: 48_350,
  saldo: '483.50',
  umbral_saldo_bajo_centavos: 10_000,
  umbral_saldo_bajo: '100.00',
  umbral_saldo_bajo_propio: false,
  saldo_bajo: false,
  sin_saldo: false,
  consultas_que_paga: 322,
  tarifa_centavos: 150,
  tarifa: '1.50',
  consultas: [
    { ruta: '/renap/buscar-cui', bandera: 'is_renap_enabled', habilitada: false, cobrada: false, limite: 'renap' },
    { ruta: '/rtu/nits', bandera: 'is_rtu_enabled', habilitada: true, cobrada: false, limite: 'rtu_nits' },
    { ruta: '/catalogos/cui-nit', bandera: 'is_cui_nit_enabled', habilitada: true, cobrada: true, limite: 'catalogos' },
    { ruta: '/catalogos/rtu', bandera: 'is_rtu_v2_enabled', habilitada: true, cobrada: true, limite: 'catalogos' },
    { ruta: '/catalogos/omisos', bandera: 'is_omisos_enabled', habilitada: true, cobrada: true, limite: 'catalogos' },
  ],
  limites: [
    { limite: 'renap', rutas: ['/renap/buscar-cui'], por_minuto: 30, usadas_este_minuto: 0 },
    { limite: 'rtu_nits', rutas: ['/rtu/nits'], por_minuto: 50, usadas_este_minuto: 2 },
    { limite: 'catalogos', rutas: ['/catalogos/cui-nit', '/catalogos/rtu', '/catalogos/omisos'], por_minuto: 30, usadas_este_minuto: 12 },
    { limite: 'lotes', rutas: ['/lotes', '/vigilancias'], por_minuto: 60, usadas_este_minuto: 0 },
    { limite: 'cuenta', rutas: ['/cuenta', '/cuenta/movimientos'], por_minuto: 60, usadas_este_minuto: 1 },
  ],
  gasto: {
    mes_en_curso: { mes: '2026-11', gasto_centavos: 16_650, gasto: '166.50', hasta: '2026-11-24T16:30:00.000Z' },
    mes_anterior: { mes: '2026-10', gasto_centavos: 42_300, gasto: '423.00', hasta: '2026-11-01T06:00:00.000Z' },
  },
};

const EXAMPLE_MOVEMENTS: MovementsBody = {
  movimientos: [
    {
      id: 90_412,
      tipo: 'consulta_cobrada',
      descripcion: 'Consulta cobrada',
      fecha: '2026-11-24T16:29:51.207Z',
      monto_centavos: -150,
      monto: '-1.50',
      saldo_despues_centavos: 48_350,
      saldo_despues: '483.50',
      origen: 'Consulta a la API',
      nota: null,
      factura_id: null,
    },
    {
      id: 88_015,
      tipo: 'recarga',
      descripcion: 'Recarga',
      fecha: '2026-11-20T15:02:10.000Z',
      monto_centavos: 50_000,
      monto: '500.00',
      saldo_despues_centavos: 50_000,
      saldo_despues: '500.00',
      origen: 'Administración',
      nota: 'Depósito BI 123456',
      factura_id: 318,
    },
  ],
  moneda: 'GTQ',
  retenido: { consultas: 1, monto_centavos: 150, monto: '1.50' },
  siguiente: 'MjAyNi0xMS0yMFQxNTowMjoxMC4wMDAwMDBafDg4MDE1',
};

/** A page of GET /cuenta/facturas (typed by its schema): a certified invoice with a partial credit note, and one waiting for the NIT. */
const EXAMPLE_INVOICES: InvoicesBody = {
  facturas: [
    {
      id: 318,
      movimiento_id: 88_015,
      tipo_dte: 'FACT',
      estado: 'con_nota_de_credito',
      estado_texto: 'Con nota de crédito',
      fecha_emision: '2026-11-20T15:02:10.000Z',
      fecha_certificacion: '2026-11-20T15:02:12.000Z',
      serie: '7A3F01C2',
      numero: '2605471521',
      uuid: '7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B',
      total_centavos: 50_000,
      total: '500.00',
      gravable_centavos: 44_643,
      iva_centavos: 5_357,
      receptor: { tipo: 'nit', id: '576937K', nombre: 'COOPERATIVA EJEMPLO, R.L.' },
      xml: '/cuenta/facturas/318/xml',
      pdf: '/cuenta/facturas/318/pdf',
      reemplaza_a: null,
      reemplazada_por: null,
      documentos: [
        {
          id: 41,
          tipo: 'nota_de_credito',
          correccion: false,
          estado: 'certificado',
          monto_centavos: 10_000,
          monto: '100.00',
          motivo: 'Reembolso del pago en línea: pago duplicado',
          solicitado: '2026-11-22T17:40:00.000Z',
          certificado: '2026-11-22T17:40:03.000Z',
          serie: '1C9E44A0',
          numero: '1139082455',
          uuid: '1C9E44A0-43DE-4A2B-9F1C-0D2E3F4A5B6C',
          xml: '/cuenta/facturas/318/notas-de-credito/41/xml',
          pdf: '/cuenta/facturas/318/notas-de-credito/41/pdf',
        },
      ],
    },
    {
      id: 317,
      movimiento_id: 87_990,
      tipo_dte: 'FACT',
      estado: 'pendiente_nit',
      estado_texto: 'Factura pendiente: falta el NIT',
      fecha_emision: '2026-11-19T14:00:00.000Z',
      fecha_certificacion: null,
      serie: null,
      numero: null,
      uuid: null,
      total_centavos: 300_000,
      total: '3000.00',
      gravable_centavos: 267_857,
      iva_centavos: 32_143,
      receptor: { tipo: 'cf', id: 'CF', nombre: null },
      xml: null,
      pdf: null,
      reemplaza_a: null,
      reemplazada_por: null,
      documentos: [],
    },
  ],
  moneda: 'GTQ',
  siguiente: null,
};

/** The integration's own account (GET /cuenta, /cuenta/movimientos): the same credentials and error shape as /lotes, a limit of their own. */
function accountPaths(): Paths {
  const common = {
    '401': catalogError('Credenciales que no corresponden a ninguna integración (o solo una de las dos cabeceras).', pick(CATALOG_MESSAGES, 'integrationNotFound')),
    '403': catalogError('Sin credenciales de integración.', pick(CATALOG_MESSAGES, 'credentialsRequired')),
    '429': {
      ...catalogError('El límite por minuto de /cuenta y sus lecturas para su integración (el mismo contador; aparte de los de sus consultas).', pick(CATALOG_MESSAGES, 'rateLimited')),
      headers: OWN_LIMIT_RETRY_AFTER,
    },
    '500': catalogError('Falla no controlada; el texto varía y no debe usarse como condición.', pick(CATALOG_MESSAGES, 'unhandled')),
    '502': catalogError('No fue posible validar las credenciales en este momento. Reintente con espera exponencial.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
  };
  const limitNote = 'Límite propio: ACCOUNT_API_PER_MINUTE (60 por omisión) por minuto por integración, compartido por /cuenta y /cuenta/movimientos. No gasta el límite de sus consultas ni el global por IP: puede revisar su saldo antes de cada lote sin quitarle nada a sus consultas.';
  const day = (name: 'desde' | 'hasta', description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', format: 'date' } });
  return {
    '/cuenta': {
      get: {
        operationId: 'getAccount',
        tags: ['cuenta'],
        summary: 'Su saldo, umbral de saldo bajo, tarifa, consultas habilitadas, límites por minuto y lo gastado este mes y el anterior',
        description: [
          'Lo mismo que muestra Inicio en el portal de integradores, para su sistema: por ejemplo, avisar a su equipo cuando saldo_bajo o sin_saldo sea true, o cuando consultas_que_paga no alcance para el lote de mañana.',
          'gasto es lo que descontaron las consultas cobradas en el mes (calendario de Guatemala): el mes en curso hasta ahora y el anterior completo. Lo reservado por consultas que todavía no responden no cuenta hasta que se cobra.',
          limitNote,
        ].join('\n\n'),
        responses: withRequestId({ '200': { description: 'Su cuenta ahora.', content: { 'application/json': { schema: ref(accountSchema), example: EXAMPLE_ACCOUNT } } }, ...common }),
      },
    },
    '/cuenta/movimientos': {
      get: {
        operationId: 'listAccountMovements',
        tags: ['cuenta'],
        summary: 'Los movimientos del saldo: recargas, ajustes y consultas cobradas, con el saldo que dejó cada uno',
        description: [
          `Como Movimientos en el portal: el más reciente primero, una fila por recarga, por ajuste y por consulta cobrada, hasta ${MOVEMENTS_PAGE_SIZE} por página. Pida la siguiente con ?cursor= y el campo siguiente (null en la última), con los mismos filtros.`,
          'desde y hasta son días del calendario de Guatemala (UTC-6), ambos incluidos. Lo reservado por consultas en curso está en retenido: no es un movimiento hasta que se cobra o se libera.',
          limitNote,
        ].join('\n\n'),
        parameters: [
          day('desde', 'Opcional. AAAA-MM-DD: movimientos desde el inicio de ese día en Guatemala.'),
          day('hasta', 'Opcional. AAAA-MM-DD: movimientos hasta el fin de ese día en Guatemala (incluido).'),
          { name: 'tipo', in: 'query', required: false, description: 'Opcional. Solo un tipo de movimiento.', schema: { type: 'string', enum: [...MOVEMENT_KINDS] } },
          { name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior.', schema: { type: 'string' } },
        ],
        responses: withRequestId({
          '200': { description: 'Una página de movimientos.', content: { 'application/json': { schema: ref(movementsSchema), example: EXAMPLE_MOVEMENTS } } },
          '400': catalogError('Una fecha, el tipo o el cursor no son válidos, o hasta es anterior a desde.', { ...ACCOUNT_MESSAGES }),
          ...common,
        }),
      },
    },
    '/cuenta/facturas': {
      get: {
        operationId: 'listAccountInvoices',
        tags: ['cuenta'],
        summary: 'Las facturas electrónicas (FEL) de sus recargas, con sus anulaciones y notas de crédito',
        description: [
          `Como Facturas en el portal: la más reciente primero, una por recarga acreditada, hasta ${INVOICES_PAGE_SIZE} por página. movimiento_id es el id de la recarga en /cuenta/movimientos: con las dos listas su sistema concilia un mes sin abrir el portal (el total de las recargas del mes es el de sus facturas, y lo anulado o devuelto con nota de crédito está en documentos).`,
          'estado pendiente_nit: la recarga se acreditó, pero SAT no admite facturar a consumidor final desde Q 2,500.00 y su integración no tiene NIT ni CUI; la factura se emite sola al registrarlo en el portal (Facturas, «Datos de facturación»). xml y pdf son rutas bajo {base_url} con las mismas cabeceras de autenticación; null mientras no esté certificada.',
          'desde y hasta filtran por la fecha de la recarga, en días del calendario de Guatemala, ambos incluidos.',
          limitNote,
        ].join('\n\n'),
        parameters: [
          day('desde', 'Opcional. AAAA-MM-DD: facturas de recargas desde el inicio de ese día en Guatemala.'),
          day('hasta', 'Opcional. AAAA-MM-DD: hasta el fin de ese día en Guatemala (incluido).'),
          { name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior.', schema: { type: 'string' } },
        ],
        responses: withRequestId({
          '200': { description: 'Una página de facturas.', content: { 'application/json': { schema: ref(invoicesSchema), example: EXAMPLE_INVOICES } } },
          '400': catalogError('Una fecha o el cursor no son válidos, o hasta es anterior a desde.', pick(ACCOUNT_MESSAGES, 'desde', 'hasta', 'range', 'cursor')),
          ...common,
        }),
      },
    },
    ...invoiceDownloads(common, limitNote),
  };
}

/** The certified documents of /cuenta/facturas, as files (the same 404 for unknown, another integration's and not certified). */
function invoiceDownloads(common: JsonObject, limitNote: string): JsonObject {
  const idParameter = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  const file = (contentType: string) => ({ [contentType]: { schema: { type: 'string', format: 'binary' } } });
  const download = (operationId: string, summary: string, contentType: string, parameters: JsonObject[], notFound: string) => ({
    get: {
      operationId,
      tags: ['cuenta'],
      summary,
      description: ['Un archivo para descargar (Content-Disposition: attachment), con las mismas cabeceras de autenticación que /cuenta.', limitNote].join('\n\n'),
      parameters,
      responses: withRequestId({
        '200': { description: 'El archivo.', content: file(contentType) },
        '404': catalogError('No existe, no es de su integración o todavía no está certificada.', { notFound }),
        ...common,
      }),
    },
  });
  const invoiceId = idParameter('id', 'El id de la factura (GET /cuenta/facturas).');
  return {
    '/cuenta/facturas/{id}/xml': download('getAccountInvoiceXml', 'El XML certificado de una factura, como lo devolvió el certificador', 'application/xml', [invoiceId], INVOICE_NOT_FOUND_MESSAGE),
    '/cuenta/facturas/{id}/pdf': download('getAccountInvoicePdf', 'El PDF de una factura certificada', 'application/pdf', [invoiceId], INVOICE_NOT_FOUND_MESSAGE),
    '/cuenta/facturas/{id}/notas-de-credito/{nota}/xml': download(
      'getAccountCreditNoteXml',
      'El XML certificado de una nota de crédito de una factura',
      'application/xml',
      [invoiceId, idParameter('nota', 'El id del documento (documentos[].id).')],
      CREDIT_NOTE_NOT_FOUND_MESSAGE,
    ),
    '/cuenta/facturas/{id}/notas-de-credito/{nota}/pdf': download(
      'getAccountCreditNotePdf',
      'El PDF de una nota de crédito certificada de una factura',
      'application/pdf',
      [invoiceId, idParameter('nota', 'El id del documento (documentos[].id).')],
      CREDIT_NOTE_NOT_FOUND_MESSAGE,
    ),
  };
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
