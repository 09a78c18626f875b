import { lookupKind } from '@/db/schema';
import { OUTCOMES } from '@/lib/core/records/outcomes';
import { z } from 'zod';
import { catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema } from '@/lib/contract/requests';
import { catalogErrorSchema, renapEnvelopeSchema, rtuNitsEnvelopeSchema } from '@/lib/contract/envelopes';
import { CATALOG_MESSAGES, CONTRACT_REVISION } from '@/lib/contract/messages';
import { SUCCESS_EXAMPLES } from '@/lib/surfaces/api/success-examples';
import { BULK_MESSAGES, jobBody } from '@/lib/surfaces/api/bulk-responses';
import { bulkJobRequestSchema, catalogPathName } from '@/lib/flows/bulk/requests';
import { bulkJobPageSchema, bulkJobSchema, bulkResultRowSchema } from '@/lib/flows/bulk/schemas';
import { CONSOLE_JOBS_PAGE_SIZE } from '@/lib/flows/bulk/console';
import { RECORD_API_MESSAGES, RECORDS_PAGE_SIZE, recordDetailSchema, recordPageSchema, recordSummarySchema, requestAnswerSchema } from '@/lib/surfaces/api/records';
import { WATCH_LISTS_PAGE_SIZE, type WatchListView } from '@/lib/flows/watch-lists/lists';
import { CATALOG_CSV_COLUMNS, csvHeader, csvLine, sourceForIntegrator, type ResultRow } from '@/lib/flows/bulk/results';
import { WATCH_LIST_MESSAGES } from '@/lib/surfaces/api/watch-list-responses';
import { WATCH_CHANGES_PAGE_SIZE } from '@/lib/flows/watch-lists/changes';
import {
  watchListBody,
  watchListChangesSchema,
  watchListCreatedSchema,
  watchListEditedBody,
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
  IDEMPOTENCY_KEY_PARAMETER,
  OWN_LIMIT_RETRY_AFTER,
  pick,
  ref,
  withRequestId,
  type JsonObject,
  type Paths,
} from '@/lib/surfaces/api/openapi-parts';
import { lookupPaths } from '@/lib/surfaces/api/lookup-openapi';

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

/** The bulk jobs: an extension beside the contract's five lookups, with their credentials and error shape. */
/** The id every example of a job uses. */
export const EXAMPLE_JOB_ID = 'lote_3f9a0c17e2b48d5a6c01';

/** Two rows of a job's results, as lib/flows/bulk/results.ts yields them. */
const EXAMPLE_RESULT_ROWS: ResultRow[] = [
  {
    posicion: 1,
    identificador: '576937-K',
    estado: 'encontrado',
    motivo: null,
    // The catalog's own example answer (its branches left out, to keep the CSV example short).
    datos: { ...(SUCCESS_EXAMPLES['/catalogos/omisos'].response as { data: object }).data, establecimientos: [] },
    respondido_en: '2026-11-24T10:31:02.114Z',
    ...sourceForIntegrator('catalog'),
    request_id: 'req_5f0c3a9d2b7e41c8a6f1',
  },
  { posicion: 2, identificador: '12345678', estado: 'invalido', motivo: 'nit_invalido', datos: null, respondido_en: '2026-11-24T10:30:00.000Z', ...sourceForIntegrator(null), request_id: null },
  { posicion: 3, identificador: '10527478-K', estado: 'no_encontrado', motivo: null, datos: null, respondido_en: '2026-11-24T10:31:03.020Z', ...sourceForIntegrator('catalog'), request_id: 'req_8b1e07d4c2a95f3e6d70' },
];

/** A job as GET /lotes/{id} answers it, built by the handlers' own jobBody. */
function exampleJob(state: 'en_curso' | 'completado' | 'cancelado', retryOf: string | null = null) {
  const created = new Date('2026-11-24T10:30:00.000Z');
  const running = state === 'en_curso';
  return jobBody({
    publicId: retryOf ? 'lote_8d21e4b07a9c3f15e260' : EXAMPLE_JOB_ID,
    catalog: 'omisos',
    state,
    createdAt: created,
    finishedAt: running ? null : new Date(created.getTime() + 40 * 60_000),
    counts: retryOf
      ? { total: 5, done: 0, found: 0, notFound: 0, invalid: 0, duplicates: 0, rejected: 0, failed: 0, pending: 5 }
      : running
      ? { total: 600, done: 210, found: 180, notFound: 4, invalid: 23, duplicates: 5, rejected: 2, failed: 3, pending: 390 }
      : { total: 600, done: 600, found: 566, notFound: 6, invalid: 23, duplicates: 5, rejected: 2, failed: 5, pending: 0 },
    chargedCentavos: retryOf ? 0 : (running ? 180 : 566) * 150,
    estimatedEnd: running ? new Date(created.getTime() + 40 * 60_000) : null,
    retryOf,
    pauseReason: null,
  });
}

function bulkPaths(): Paths {
  const job = (description: string, example = exampleJob('en_curso')) => ({ description, content: { 'application/json': { schema: ref(bulkJobSchema), example } } });
  const common = {
    '401': catalogError('Credenciales que no corresponden a ninguna integración (o solo una de las dos cabeceras).', pick(CATALOG_MESSAGES, 'integrationNotFound')),
    '403': catalogError('Sin credenciales de integración.', pick(CATALOG_MESSAGES, 'credentialsRequired')),
    '429': {
      description: 'El límite por minuto de /lotes para su integración (JSON; aparte del de los catálogos), o el límite global por IP (texto plano).',
      headers: OWN_LIMIT_RETRY_AFTER,
      content: { 'application/json': { schema: ref(catalogErrorSchema), examples: examples(pick(CATALOG_MESSAGES, 'rateLimited'), 'message') }, ...GLOBAL_LIMIT_CONTENT },
    },
    '500': catalogError('Falla no controlada; el texto varía y no debe usarse como condición.', pick(CATALOG_MESSAGES, 'unhandled')),
    '502': catalogError('No fue posible validar las credenciales en este momento. Reintente con espera exponencial.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
  };
  const notFound = catalogError('No hay un lote con ese id para su integración (también el id de un lote de otra integración).', pick(BULK_MESSAGES, 'jobNotFound'));
  const idParameter = { name: 'id', in: 'path', required: true, description: 'El id del lote (lote_…).', schema: { type: 'string', pattern: '^lote_[0-9a-f]{20}$' } };
  const cursorParameter = { name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior; sin él, la primera página.', schema: { type: 'string' } };
  return {
    '/lotes': {
      get: {
        operationId: 'listBulkJobs',
        tags: ['lotes'],
        summary: 'Los lotes de su integración, el más reciente primero',
        description: `Hasta ${CONSOLE_JOBS_PAGE_SIZE} por página, cada uno como GET /lotes/{id} lo da; pida la siguiente con ?cursor= y el campo siguiente (null en la última). Incluye las ejecuciones de sus vigilancias. Usa el mismo límite por minuto que POST /lotes, no el de las consultas.`,
        parameters: [cursorParameter],
        responses: withRequestId({
          '200': { description: 'Una página de lotes.', content: { 'application/json': { schema: ref(bulkJobPageSchema), example: { lotes: [exampleJob('completado')], siguiente: null } } } },
          '400': catalogError('El cursor no es uno que esta API haya dado.', pick(BULK_MESSAGES, 'invalidCursor')),
          ...common,
        }),
      },
      post: {
        operationId: 'createBulkJob',
        tags: ['lotes'],
        summary: 'Un lote: hasta 10,000 identificadores de un catálogo, consultados en segundo plano',
        description: [
          'Requiere la bandera del catálogo elegido. Cada identificador válido y no repetido es una consulta del catálogo como las individuales: se cobra la tarifa solo cuando se encuentra, queda registrada y usa el límite de catálogos de su integración, como mucho la mitad de él, para dejar la otra mitad a sus consultas individuales. Los inválidos y los repetidos se apartan al recibir la lista, sin costo, con su motivo.',
          'Idempotency-Key es obligatoria: la misma clave con la misma lista devuelve el mismo lote (200); la primera vez responde 202. La misma clave con otra lista recibe 400 con X-Motivo-Rechazo: idempotency-key-reused.',
          'Sin saldo el lote queda en_pausa_sin_saldo y sigue después de una recarga. En en_pausa (pausado por la administración) no corre nada hasta que la administración lo reanude. Los resultados se borran 30 días después de que el lote terminó.',
        ].join('\n\n'),
        parameters: [{ ...IDEMPOTENCY_KEY_PARAMETER, required: true, description: 'Obligatoria. 1 a 255 caracteres ASCII imprimibles que identifican esta lista en su sistema: reenviar con la misma clave no crea otro lote.' }],
        requestBody: { required: true, content: { 'application/json': { schema: ref(bulkJobRequestSchema), example: { catalogo: 'omisos', identificadores: ['576937-K', '12345678', '576937K'] } } } },
        responses: withRequestId({
          '200': job('El lote ya creado con esta Idempotency-Key y esta lista.'),
          '202': { ...job('Lote creado; corre en segundo plano.'), headers: { Location: { description: 'La ruta del lote.', schema: { type: 'string' } } } },
          '400': {
            ...catalogError('El cuerpo no se puede usar, falta la Idempotency-Key, o la clave no es válida o ya se usó con otra lista (X-Motivo-Rechazo dice cuál).', {
              ...pick(BULK_MESSAGES, 'content_type', 'too_large', 'malformed', 'catalog', 'identifiers', 'fields', 'idempotencyKeyMissing'),
              sourceRejectedData: CATALOG_MESSAGES.sourceRejectedData,
            }),
            headers: { 'X-Motivo-Rechazo': { description: 'Solo cuando el 400 se debe a la Idempotency-Key.', schema: { type: 'string', enum: ['idempotency-key-invalid', 'idempotency-key-reused'] } } },
          },
          ...common,
          '403': catalogError('Sin credenciales de integración, o el catálogo elegido no está habilitado para su integración.', pick(CATALOG_MESSAGES, 'credentialsRequired', 'catalogNotEnabled')),
        }),
      },
    },
    '/lotes/{id}': {
      get: {
        operationId: 'getBulkJob',
        tags: ['lotes'],
        summary: 'El estado de un lote, sus conteos, lo cobrado y cuándo se espera terminar',
        parameters: [idParameter],
        responses: withRequestId({ '200': job('El lote.', exampleJob('completado')), '404': notFound, ...common }),
      },
    },
    '/lotes/{id}/resultados': {
      get: {
        operationId: 'getBulkJobResults',
        tags: ['lotes'],
        summary: 'Los resultados de un lote: una fila por identificador, en el orden enviado',
        description: `CSV por omisión, para abrir en una hoja de cálculo (UTF-8 con marca de orden de bytes): las nueve primeras columnas con los códigos (datos lleva el JSON de la consulta); tras ellas estado_descripcion y motivo_descripcion (en palabras), respondido_en_guatemala (hora de Guatemala, UTC-6) y la respuesta del catálogo en columnas, con Sí, No o No reportado: ${Object.entries(CATALOG_CSV_COLUMNS)
          .map(([catalog, columns]) => `${catalogPathName(catalog as keyof typeof CATALOG_CSV_COLUMNS)}: ${columns.headers.join(', ')}`)
          .join('; ')}. O líneas JSON con Accept: application/x-ndjson, con los códigos.`,
        parameters: [idParameter],
        responses: withRequestId({
          '200': {
            description: 'Las filas, también mientras el lote corre (las pendientes con estado pendiente).',
            content: {
              'text/csv': {
                schema: { type: 'string' },
                // Written by the handler's own CSV writer (lib/flows/bulk/results.ts), without the invisible byte-order mark.
                example: (csvHeader('omisos').replace(/^\uFEFF/, '') + EXAMPLE_RESULT_ROWS.map((row) => csvLine(row, 'omisos')).join('')).trimEnd(),
              },
              'application/x-ndjson': {
                schema: ref(bulkResultRowSchema),
                example: EXAMPLE_RESULT_ROWS[0],
              },
            },
          },
          '404': notFound,
          ...common,
        }),
      },
    },
    '/lotes/{id}/cancelar': {
      post: {
        operationId: 'cancelBulkJob',
        tags: ['lotes'],
        summary: 'Cancela un lote: lo que no corrió no se cobra',
        parameters: [idParameter],
        responses: withRequestId({
          '200': job('El lote cancelado (también si ya lo estaba).', exampleJob('cancelado')),
          '404': notFound,
          '409': catalogError('El lote ya terminó.', pick(BULK_MESSAGES, 'jobFinished')),
          ...common,
        }),
      },
    },
    '/lotes/{id}/reintentar': {
      post: {
        operationId: 'retryBulkJobFailures',
        tags: ['lotes'],
        summary: 'Reintenta los fallidos: un lote nuevo con solo las filas error_fuente de un lote terminado',
        description: [
          'El lote nuevo consulta otra vez, con el mismo catálogo, los identificadores que la fuente respondió con un error (error_fuente) en un lote completado o cancelado, en su orden; su campo reintenta dice de qué lote viene. Corre, se cobra y se avisa como cualquier lote: solo lo encontrado.',
          'No lleva cuerpo ni Idempotency-Key: reintentar el mismo lote otra vez devuelve el mismo lote nuevo (200; el primero responde 202), así que puede repetir la solicitud sin crear ni pagar dos. Para reintentar los que vuelvan a fallar, reintente el lote nuevo.',
        ].join('\n\n'),
        parameters: [idParameter],
        responses: withRequestId({
          '200': job('El lote nuevo, ya creado por una solicitud anterior para este lote.', exampleJob('en_curso', EXAMPLE_JOB_ID)),
          '202': { ...job('Lote nuevo creado con las filas fallidas; corre en segundo plano.', exampleJob('en_curso', EXAMPLE_JOB_ID)), headers: { Location: { description: 'La ruta del lote nuevo.', schema: { type: 'string' } } } },
          '404': notFound,
          '409': catalogError('El lote todavía corre (o espera saldo), fue cancelado y aún termina las consultas que ya había enviado, o no tiene filas error_fuente.', pick(BULK_MESSAGES, 'jobNotFinished', 'nothingToRetry')),
          ...common,
          '403': catalogError('Sin credenciales de integración, o el catálogo del lote ya no está habilitado para su integración.', pick(CATALOG_MESSAGES, 'credentialsRequired', 'catalogNotEnabled')),
        }),
      },
    },
  };
}

/** An example watch list, built by the handlers' own watchListBody. */
function exampleWatchList() {
  return watchListBody(exampleWatchListView());
}

function exampleWatchListView(): WatchListView {
  const created = new Date('2026-11-24T10:30:00.000Z');
  return {
    publicId: 'vig_5b2e91d04c7a3f18e6d2',
    name: 'Proveedores',
    catalog: 'omisos',
    schedule: 'mensual',
    state: 'activa',
    entries: 5_000,
    nextRunAt: new Date('2026-12-24T10:30:00.000Z'),
    createdAt: created,
    runs: 1,
    lastRun: { jobId: EXAMPLE_JOB_ID, state: 'completado', createdAt: created, finishedAt: new Date(created.getTime() + 40 * 60_000), changes: 0 },
    changes: 0,
  };
}

/** Watch lists (Vigilancia), beside /lotes: the same credentials, error shape and per-minute counter. */
function watchListPaths(): Paths {
  const common = {
    '401': catalogError('Credenciales que no corresponden a ninguna integración (o solo una de las dos cabeceras).', pick(CATALOG_MESSAGES, 'integrationNotFound')),
    '403': catalogError('Sin credenciales de integración.', pick(CATALOG_MESSAGES, 'credentialsRequired')),
    '429': {
      description: 'El límite por minuto de /lotes y /vigilancias para su integración (JSON; el mismo contador), o el límite global por IP (texto plano).',
      headers: OWN_LIMIT_RETRY_AFTER,
      content: { 'application/json': { schema: ref(catalogErrorSchema), examples: examples(pick(CATALOG_MESSAGES, 'rateLimited'), 'message') }, ...GLOBAL_LIMIT_CONTENT },
    },
    '500': catalogError('Falla no controlada; el texto varía y no debe usarse como condición.', pick(CATALOG_MESSAGES, 'unhandled')),
    '502': catalogError('No fue posible validar las credenciales en este momento. Reintente con espera exponencial.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
  };
  const notFound = catalogError('No hay una vigilancia con ese id para su integración (también el id de una vigilancia de otra integración).', pick(WATCH_LIST_MESSAGES, 'notFound'));
  const idParameter = { name: 'id', in: 'path', required: true, description: 'El id de la vigilancia (vig_…).', schema: { type: 'string', pattern: '^vig_[0-9a-f]{20}$' } };
  const list = exampleWatchList();
  return {
    '/vigilancias': {
      get: {
        operationId: 'listWatchLists',
        tags: ['vigilancias'],
        summary: 'Las vigilancias de su integración, la más reciente primero',
        description: `Hasta ${WATCH_LISTS_PAGE_SIZE} por página; pida la siguiente con ?cursor= y el campo siguiente (null en la última).`,
        parameters: [{ name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior; sin él, la primera página.', schema: { type: 'string' } }],
        responses: withRequestId({
          '200': { description: 'Una página de vigilancias.', content: { 'application/json': { schema: ref(watchListPageSchema), example: { vigilancias: [list], siguiente: null } } } },
          '400': catalogError('El cursor no es uno que esta API haya dado.', pick(WATCH_LIST_MESSAGES, 'invalidCursor')),
          ...common,
        }),
      },
      post: {
        operationId: 'createWatchList',
        tags: ['vigilancias'],
        summary: 'Una vigilancia: hasta 10,000 NIT consultados cada mes o cada semana, avisando solo lo que cambió',
        description: [
          'Requiere la bandera del catálogo elegido (omisos o rtu). Cada ejecución es un lote (GET /lotes/{id}): se cobra como cualquier lote, solo lo encontrado, y usa el mismo límite. La primera ejecución empieza al crearla y es la base: no reporta cambios.',
          'En las siguientes, compara con la anterior el estado de cada NIT: omiso, cobro coactivo y estado en el RTU (omisos), o estado en el RTU (rtu); no encontrado también es un estado. Si algo cambió, le avisa (webhook vigilancia_cambios y correo al contacto técnico) y los cambios quedan en GET /vigilancias/{id}/cambios. Un NIT cuya consulta falló en la fuente conserva su estado anterior y no reporta nada.',
          'Los NIT inválidos y los repetidos se apartan (campo apartados, por posición): no se guardan ni se cobran. Si ninguno es válido responde 400.',
          'Idempotency-Key es obligatoria: la misma clave con el mismo cuerpo devuelve la misma vigilancia (200) en lugar de crear otra que correría, y cobraría, en cada ejecución; la primera vez responde 201. La misma clave con otro cuerpo recibe 400 con X-Motivo-Rechazo: idempotency-key-reused.',
        ].join('\n\n'),
        parameters: [{ ...IDEMPOTENCY_KEY_PARAMETER, required: true, description: 'Obligatoria. 1 a 255 caracteres ASCII imprimibles que identifican esta vigilancia en su sistema: reenviar con la misma clave no crea otra.' }],
        requestBody: { required: true, content: { 'application/json': { schema: ref(watchListRequestSchema), example: { nombre: 'Proveedores', catalogo: 'omisos', frecuencia: 'mensual', nits: ['576937-K', '12345678', '576937K'] } } } },
        responses: withRequestId({
          '200': {
            description: 'La vigilancia ya creada con esta Idempotency-Key y este cuerpo.',
            content: { 'application/json': { schema: ref(watchListCreatedSchema), example: { ...list, apartados: [{ posicion: 2, motivo: 'nit_invalido' }, { posicion: 3, motivo: 'duplicado' }] } } },
          },
          '201': {
            description: 'Vigilancia creada; su primera ejecución empieza enseguida.',
            headers: { Location: { description: 'La ruta de la vigilancia.', schema: { type: 'string' } } },
            content: { 'application/json': { schema: ref(watchListCreatedSchema), example: { ...list, ejecuciones: 0, ultima_ejecucion: null, apartados: [{ posicion: 2, motivo: 'nit_invalido' }, { posicion: 3, motivo: 'duplicado' }] } } },
          },
          '400': {
            ...catalogError('El cuerpo no se puede usar, ninguno de los NIT es válido, falta la Idempotency-Key, o la clave no es válida o ya se usó con otro cuerpo (X-Motivo-Rechazo dice cuál).', {
              ...pick(BULK_MESSAGES, 'content_type', 'too_large', 'malformed'),
              ...pick(WATCH_LIST_MESSAGES, 'nombre', 'catalogo', 'frecuencia', 'nits', 'fields', 'nothingToWatch', 'idempotencyKeyMissing'),
              sourceRejectedData: CATALOG_MESSAGES.sourceRejectedData,
            }),
            headers: { 'X-Motivo-Rechazo': { description: 'Solo cuando el 400 se debe a la Idempotency-Key.', schema: { type: 'string', enum: ['idempotency-key-invalid', 'idempotency-key-reused'] } } },
          },
          ...common,
          '403': catalogError('Sin credenciales de integración, o el catálogo elegido no está habilitado para su integración.', pick(CATALOG_MESSAGES, 'credentialsRequired', 'catalogNotEnabled')),
        }),
      },
    },
    '/vigilancias/{id}': {
      get: {
        operationId: 'getWatchList',
        tags: ['vigilancias'],
        summary: 'Una vigilancia: su próxima ejecución, la última y cuántos cambios ha encontrado',
        parameters: [idParameter],
        responses: withRequestId({ '200': { description: 'La vigilancia.', content: { 'application/json': { schema: ref(watchListSchema), example: list } } }, '404': notFound, ...common }),
      },
      delete: {
        operationId: 'deleteWatchList',
        tags: ['vigilancias'],
        summary: 'Borra una vigilancia, sus NIT y sus cambios; cancela la ejecución en curso',
        description: 'Lo que la ejecución en curso no consultó no se cobra. Los lotes de las ejecuciones terminadas se conservan como cualquier lote, hasta que se borran sus resultados.',
        parameters: [idParameter],
        responses: withRequestId({ '204': { description: 'Borrada.' }, '404': notFound, ...common }),
      },
      patch: {
        operationId: 'updateWatchList',
        tags: ['vigilancias'],
        summary: 'Cambia el nombre, la frecuencia o el estado de una vigilancia, o le agrega o quita NIT, sin perder su historia',
        description: [
          'Envíe solo lo que cambia. Cada cambio queda en la actividad de su integración (portal, Actividad), sin los NIT.',
          'Un NIT agregado no tiene estado anterior: la próxima ejecución lo consulta y guarda su estado sin reportar cambios; desde la siguiente se compara. Un NIT quitado se borra con su último estado y sus cambios. Una ejecución ya en curso termina (y se cobra) con los NIT con que empezó.',
          'Los NIT inválidos, repetidos o ya vigilados (agregar_nits) y los que la vigilancia no tiene (quitar_nits) se apartan (campo apartados); el resto del cambio se aplica. Si la vigilancia se quedaría sin NIT responde 400: para dejar de vigilar, elimínela.',
        ].join('\n\n'),
        parameters: [idParameter],
        requestBody: { required: true, content: { 'application/json': { schema: ref(watchListEditSchema), example: { agregar_nits: ['576937-K'], quitar_nits: ['12345678'] } } } },
        responses: withRequestId({
          '200': {
            description: 'La vigilancia después del cambio.',
            content: {
              'application/json': {
                schema: ref(watchListEditedSchema),
                example: watchListEditedBody({ ...exampleWatchListView(), entries: 5_000 }, [{ field: 'remove', position: 1, reason: 'no_vigilado' }]),
              },
            },
          },
          '400': catalogError('El cuerpo no se puede usar, o la vigilancia se quedaría sin NIT o con más de los que cabe en un lote.', {
            ...pick(BULK_MESSAGES, 'content_type', 'too_large', 'malformed'),
            ...pick(WATCH_LIST_MESSAGES, 'nombre', 'frecuencia', 'estado', 'agregar_nits', 'quitar_nits', 'editFields', 'nothingLeft', 'tooMany'),
          }),
          '404': notFound,
          ...common,
        }),
      },
    },
    '/vigilancias/{id}/cambios': {
      get: {
        operationId: 'listWatchListChanges',
        tags: ['vigilancias'],
        summary: 'Lo que cambió en cada ejecución, con el antes y el después',
        description: `La ejecución más reciente primero; dentro de una ejecución, en el orden de la lista. Hasta ${WATCH_CHANGES_PAGE_SIZE} por página: pida la siguiente con ?cursor= y el campo siguiente (null en la última).`,
        parameters: [idParameter, { name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior.', schema: { type: 'string' } }],
        responses: withRequestId({
          '200': {
            description: 'Una página de cambios.',
            content: {
              'application/json': {
                schema: ref(watchListChangesSchema),
                example: {
                  cambios: [{ nit: '576937-K', tipo: 'omiso', antes: false, despues: true, ejecucion: 2, lote: 'lote_8d41c0a9f27b5e3c1a60', detectado_en: '2026-12-24T11:02:41.318Z' }],
                  siguiente: null,
                },
              },
            },
          },
          '400': catalogError('El cursor no es uno que esta API haya dado.', pick(WATCH_LIST_MESSAGES, 'invalidCursor')),
          '404': notFound,
          ...common,
        }),
      },
    },
  };
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
