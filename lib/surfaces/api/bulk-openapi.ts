// /lotes in the OpenAPI document, described from the flow's schemas and the texts of
// bulk-responses.ts, with examples built by the handlers' own jobBody and CSV writer.
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { bulkJobRequestSchema } from '@/lib/flows/bulk/requests';
import { catalogPathName } from '@/lib/vocabulary/lookups';
import { bulkJobPageSchema, bulkJobSchema, bulkResultRowSchema } from '@/lib/flows/bulk/schemas';
import { CONSOLE_JOBS_PAGE_SIZE } from '@/lib/flows/bulk/console';
import { CATALOG_CSV_COLUMNS, csvHeader, csvLine, sourceForIntegrator, type ResultRow } from '@/lib/flows/bulk/results';
import { BULK_MESSAGES, jobBody } from './bulk-responses';
import { SUCCESS_EXAMPLES } from './success-examples';
import { catalogError, IDEMPOTENCY_KEY_PARAMETER, integrationApiErrors, limitExceeded, OWN_LIMIT_RETRY_AFTER, pick, ref, withRequestId, type Paths } from './openapi-parts';

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
    constancia_id: null,
    constancia_url: null,
  },
  { posicion: 2, identificador: '12345678', estado: 'invalido', motivo: 'nit_invalido', datos: null, respondido_en: '2026-11-24T10:30:00.000Z', ...sourceForIntegrator(null), request_id: null, constancia_id: null, constancia_url: null },
  { posicion: 3, identificador: '10527478-K', estado: 'no_encontrado', motivo: null, datos: null, respondido_en: '2026-11-24T10:31:03.020Z', ...sourceForIntegrator('catalog'), request_id: 'req_8b1e07d4c2a95f3e6d70', constancia_id: null, constancia_url: null },
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
    constancias: false,
  });
}

/** The bulk jobs: an extension beside the contract's five lookups, with their credentials and error shape. */
export function bulkPaths(): Paths {
  const job = (description: string, example = exampleJob('en_curso')) => ({ description, content: { 'application/json': { schema: ref(bulkJobSchema), example } } });
  const common = integrationApiErrors(
    limitExceeded('El límite por minuto de /lotes para su integración (JSON; aparte del de los catálogos), o el límite global por IP (texto plano).', OWN_LIMIT_RETRY_AFTER),
  );
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
              ...pick(BULK_MESSAGES, 'content_type', 'too_large', 'malformed', 'catalog', 'identifiers', 'constancias', 'fields', 'idempotencyKeyMissing'),
              sourceRejectedData: CATALOG_MESSAGES.sourceRejectedData,
            }),
            headers: { 'X-Motivo-Rechazo': { description: 'Solo cuando el 400 se debe a la Idempotency-Key.', schema: { type: 'string', enum: ['idempotency-key-invalid', 'idempotency-key-reused'] } } },
          },
          ...common,
          '403': catalogError('Sin credenciales de integración, el catálogo elegido no está habilitado para su integración, o pidió constancias sin tenerlas habilitadas.', {
            ...pick(CATALOG_MESSAGES, 'credentialsRequired', 'catalogNotEnabled'),
            ...pick(BULK_MESSAGES, 'constanciasNotEnabled'),
          }),
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
          .filter(([, columns]) => columns.headers.length > 0)
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
