// /vigilancias in the OpenAPI document, described from the flow's schemas and the texts of
// watch-list-responses.ts, with examples built by the handlers' own watchListBody.
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { WATCH_LISTS_PAGE_SIZE, type WatchListView } from '@/lib/flows/watch-lists/lists';
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
import { BULK_MESSAGES } from './bulk-responses';
import { WATCH_LIST_MESSAGES } from './watch-list-responses';
import { EXAMPLE_JOB_ID } from './bulk-openapi';
import { catalogError, IDEMPOTENCY_KEY_PARAMETER, integrationApiErrors, limitExceeded, OWN_LIMIT_RETRY_AFTER, pick, ref, withRequestId, type Paths } from './openapi-parts';

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
    constancias: false,
  };
}

/** Watch lists (Vigilancia), beside /lotes: the same credentials, error shape and per-minute counter. */
export function watchListPaths(): Paths {
  const common = integrationApiErrors(
    limitExceeded('El límite por minuto de /lotes y /vigilancias para su integración (JSON; el mismo contador), o el límite global por IP (texto plano).', OWN_LIMIT_RETRY_AFTER),
  );
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
              ...pick(WATCH_LIST_MESSAGES, 'nombre', 'catalogo', 'frecuencia', 'nits', 'constancias', 'fields', 'nothingToWatch', 'idempotencyKeyMissing'),
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
            ...pick(WATCH_LIST_MESSAGES, 'nombre', 'frecuencia', 'estado', 'agregar_nits', 'quitar_nits', 'constancias', 'editFields', 'nothingLeft', 'tooMany'),
          }),
          '404': notFound,
          ...common,
          '403': catalogError('Sin credenciales de integración, o pidió constancias sin tenerlas habilitadas.', {
            ...pick(CATALOG_MESSAGES, 'credentialsRequired'),
            ...pick(BULK_MESSAGES, 'constanciasNotEnabled'),
          }),
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
                  cambios: [{ nit: '576937-K', tipo: 'omiso', antes: false, despues: true, ejecucion: 2, lote: 'lote_8d41c0a9f27b5e3c1a60', detectado_en: '2026-12-24T11:02:41.318Z', constancia_id: null, constancia_url: null }],
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
