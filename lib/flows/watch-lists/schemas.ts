// The shapes /api/vigilancias takes and answers with, as zod schemas: the routes parse and build
// them, and the OpenAPI document (lib/surfaces/api/watch-list-openapi.ts) describes them from these same objects.
import { z } from 'zod';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';
import { MAX_BULK_IDENTIFIERS } from '@/lib/flows/bulk/identifiers';
import type { ChangesPage } from './changes';
import type { EditSetAside } from './edit';
import type { SetAsideEntry, WatchListView } from './lists';
import { WATCH_CATALOGS } from './snapshot';
import { WATCH_SCHEDULES } from './schedule';
import { constanciaAddress } from '@/lib/core/constancias/payload';

export const MAX_WATCH_LIST_NAME_LENGTH = 100;

/**
 * No control characters in a list's name: PostgreSQL refuses a NUL in text (a 500 where the route
 * owes a 400), and a line break or escape would only garble the pages and notices that show it.
 */
export const WATCH_LIST_NAME_PATTERN = /^[^\p{Cc}]*$/u;

export const watchListRequestSchema = z
  .strictObject({
    nombre: z.string().trim().min(1).max(MAX_WATCH_LIST_NAME_LENGTH).regex(WATCH_LIST_NAME_PATTERN).describe('Un nombre para reconocerla (por ejemplo «Proveedores»).'),
    catalogo: z.enum(WATCH_CATALOGS).describe('omisos (omiso, cobro coactivo y estado en el RTU) o rtu (estado en el RTU).'),
    frecuencia: z.enum(WATCH_SCHEDULES).describe('mensual (el mismo día de cada mes, a la misma hora de Guatemala) o semanal (cada 7 días), desde que se crea.'),
    nits: z
      .array(z.string().max(MAX_IDENTIFIER_LENGTH))
      .min(1)
      .max(MAX_BULK_IDENTIFIERS)
      .describe('Los NIT que vigila (con o sin guion). Los inválidos y los repetidos se apartan: no se guardan ni se consultan.'),
    constancias: z
      .boolean()
      .optional()
      .describe(
        'Con true, cada NIT encontrado en cada ejecución lleva la constancia de consulta firmada de su respuesta, y cada cambio la de la respuesta que lo mostró. Solo si su integración tiene las constancias habilitadas; si no, 403.',
      ),
  })
  .meta({ id: 'VigilanciaRequest', description: 'Cuerpo de POST /vigilancias.' });

export type WatchListRequestProblem = 'nombre' | 'catalogo' | 'frecuencia' | 'nits' | 'constancias' | 'fields';

export function parseWatchListRequest(value: unknown): { ok: true; value: z.infer<typeof watchListRequestSchema> } | { ok: false; problem: WatchListRequestProblem } {
  const parsed = watchListRequestSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0]?.path[0];
  if (first === 'nombre' || first === 'catalogo' || first === 'frecuencia' || first === 'nits' || first === 'constancias') return { ok: false, problem: first };
  return { ok: false, problem: 'fields' };
}

export const watchListSchema = z
  .object({
    id: z.string().describe('El id de la vigilancia: vig_ y 20 caracteres hexadecimales.'),
    nombre: z.string(),
    catalogo: z.enum(WATCH_CATALOGS),
    frecuencia: z.enum(WATCH_SCHEDULES),
    estado: z.enum(['activa', 'en_pausa']),
    nits: z.int().describe('Cuántos NIT vigila.'),
    proxima_ejecucion: z.string().describe('ISO 8601, UTC. Si una ejecución sigue en curso a esa hora, la siguiente empieza cuando termine.'),
    creada_en: z.string(),
    ejecuciones: z.int().describe('Cuántas ejecuciones ha iniciado; la primera es la base y no reporta cambios.'),
    ultima_ejecucion: z
      .object({ lote: z.string().describe('El lote de la ejecución: GET /lotes/{id} da su estado, conteos y lo cobrado.'), estado: z.string(), creada_en: z.string(), terminada_en: z.string().nullable() })
      .nullable(),
    cambios: z.int().describe('Cuántos cambios han encontrado sus ejecuciones.'),
    cambios_url: z.string().describe('La ruta de sus cambios.'),
    constancias: z.boolean().describe('true si sus ejecuciones piden una constancia de consulta por NIT encontrado (y cada cambio trae la suya).'),
  })
  .meta({ id: 'Vigilancia', description: 'Una lista de NIT guardada que se consulta según su frecuencia.' });

export type WatchListBody = z.infer<typeof watchListSchema>;

export const watchListCreatedSchema = watchListSchema
  .extend({
    apartados: z
      .array(z.object({ posicion: z.int().describe('Desde 1, en la lista enviada.'), motivo: z.enum(['nit_invalido', 'cui_invalido', 'duplicado']) }))
      .describe('Los NIT que no se guardaron, por su posición; [] si ninguno.'),
  })
  .meta({ id: 'VigilanciaCreada', description: 'La vigilancia creada, con los NIT apartados.' });

const watchedValue = z.union([z.string(), z.boolean(), z.null()]);

export const watchListChangeSchema = z
  .object({
    nit: z.string().describe('Tal como se envió al crear la vigilancia.'),
    tipo: z.enum(['omiso', 'cobro_coactivo', 'estado_rtu', 'registro']).describe('omiso, cobro_coactivo, estado_rtu, o registro (el NIT apareció o dejó de aparecer en el catálogo).'),
    antes: watchedValue.describe('El valor en la ejecución anterior (null: la fuente no lo reportó; registro: encontrado o no_encontrado).'),
    despues: watchedValue.describe('El valor en esta ejecución.'),
    ejecucion: z.int(),
    lote: z.string().describe('El lote de la ejecución que lo encontró.'),
    detectado_en: z.string(),
    constancia_id: z
      .string()
      .nullable()
      .describe('La constancia de consulta de la respuesta que mostró el cambio, en una vigilancia con constancias: true; null si no la tiene (el NIT dejó de encontrarse, o la ejecución no las pedía).'),
    constancia_url: z.string().nullable().describe('Dónde leer esa constancia (GET, JSON o PDF); null si no la tiene.'),
  })
  .meta({ id: 'VigilanciaCambio', description: 'Un cambio de un NIT entre dos ejecuciones.' });

export const watchListChangesSchema = z
  .object({
    cambios: z.array(watchListChangeSchema).describe('La ejecución más reciente primero; dentro de una ejecución, en el orden de la lista.'),
    siguiente: z.string().nullable().describe('El cursor de la página siguiente (?cursor=…); null en la última.'),
  })
  .meta({ id: 'VigilanciaCambios', description: 'Una página de cambios de una vigilancia.' });

export function watchListBody(list: WatchListView): WatchListBody {
  return {
    id: list.publicId,
    nombre: list.name,
    catalogo: list.catalog,
    frecuencia: list.schedule,
    estado: list.state,
    nits: list.entries,
    proxima_ejecucion: list.nextRunAt.toISOString(),
    creada_en: list.createdAt.toISOString(),
    ejecuciones: list.runs,
    ultima_ejecucion:
      list.lastRun === null
        ? null
        : { lote: list.lastRun.jobId, estado: list.lastRun.state, creada_en: list.lastRun.createdAt.toISOString(), terminada_en: list.lastRun.finishedAt?.toISOString() ?? null },
    cambios: list.changes,
    cambios_url: `/api/vigilancias/${list.publicId}/cambios`,
    constancias: list.constancias,
  };
}

export function watchListCreatedBody(list: WatchListView, setAside: SetAsideEntry[]): z.infer<typeof watchListCreatedSchema> {
  return { ...watchListBody(list), apartados: setAside.map((entry) => ({ posicion: entry.position, motivo: entry.reason })) };
}

export function watchListChangesBody(page: ChangesPage): z.infer<typeof watchListChangesSchema> {
  return {
    cambios: page.changes.map((change) => ({
      nit: change.nit,
      tipo: change.kind,
      antes: change.before,
      despues: change.after,
      ejecucion: change.run,
      lote: change.jobId,
      detectado_en: change.detectedAt.toISOString(),
      constancia_id: change.constanciaId,
      constancia_url: change.constanciaId === null ? null : constanciaAddress(change.constanciaId),
    })),
    siguiente: page.next ?? null,
  };
}

export const watchListEditSchema = z
  .strictObject({
    nombre: watchListRequestSchema.shape.nombre.optional(),
    frecuencia: z
      .enum(WATCH_SCHEDULES)
      .optional()
      .describe('La nueva frecuencia, contada desde que se creó: la próxima ejecución pasa al siguiente día de la nueva frecuencia (una ejecución ya pendiente sigue pendiente).'),
    estado: z.enum(['activa', 'en_pausa']).optional().describe('en_pausa: no empieza ninguna ejecución (la que esté en curso termina); activa: reanuda, y si su hora pasó mientras estaba en pausa corre enseguida, una vez.'),
    agregar_nits: z
      .array(z.string().max(MAX_IDENTIFIER_LENGTH))
      .max(MAX_BULK_IDENTIFIERS)
      .optional()
      .describe('NIT que empieza a vigilar. La próxima ejecución los consulta y guarda su estado sin reportar cambios (como la primera ejecución); desde la siguiente se comparan.'),
    quitar_nits: z
      .array(z.string().max(MAX_IDENTIFIER_LENGTH))
      .max(MAX_BULK_IDENTIFIERS)
      .optional()
      .describe('NIT que deja de vigilar (con o sin guion). Se borran con su último estado y sus cambios. Una ejecución ya en curso termina con los NIT con que empezó.'),
    constancias: z
      .boolean()
      .optional()
      .describe('Si las próximas ejecuciones piden constancias de consulta (una ya en curso sigue como empezó). true solo si su integración las tiene habilitadas; si no, 403.'),
  })
  .refine((edit) => Object.values(edit).some((value) => value !== undefined), { message: 'empty' })
  .meta({ id: 'VigilanciaCambioRequest', description: 'Cuerpo de PATCH /vigilancias/{id}: al menos un campo; cada cambio queda en la actividad de su integración.' });

export type WatchListEditProblem = 'nombre' | 'frecuencia' | 'estado' | 'agregar_nits' | 'quitar_nits' | 'constancias' | 'editFields';

export function parseWatchListEdit(value: unknown): { ok: true; value: z.infer<typeof watchListEditSchema> } | { ok: false; problem: WatchListEditProblem } {
  const parsed = watchListEditSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0]?.path[0];
  if (first === 'nombre' || first === 'frecuencia' || first === 'estado' || first === 'agregar_nits' || first === 'quitar_nits' || first === 'constancias') return { ok: false, problem: first };
  return { ok: false, problem: 'editFields' };
}

export const watchListEditedSchema = watchListSchema
  .extend({
    apartados: z
      .array(
        z.object({
          campo: z.enum(['agregar_nits', 'quitar_nits']),
          posicion: z.int().describe('Desde 1, en la lista de ese campo.'),
          motivo: z.enum(['nit_invalido', 'cui_invalido', 'duplicado', 'no_vigilado']).describe('duplicado: repetido en la solicitud o ya vigilado; no_vigilado: la vigilancia no tiene ese NIT.'),
        }),
      )
      .describe('Los NIT enviados que no se agregaron ni quitaron, por su posición; [] si ninguno.'),
  })
  .meta({ id: 'VigilanciaModificada', description: 'La vigilancia después del cambio, con los NIT apartados.' });

export const watchListPageSchema = z
  .object({
    vigilancias: z.array(watchListSchema).describe('La más reciente primero.'),
    siguiente: z.string().nullable().describe('El cursor de la página siguiente (?cursor=…); null en la última.'),
  })
  .meta({ id: 'Vigilancias', description: 'Una página de las vigilancias de su integración.' });

export function watchListEditedBody(list: WatchListView, setAside: EditSetAside[]): z.infer<typeof watchListEditedSchema> {
  return {
    ...watchListBody(list),
    apartados: setAside.map((entry) => ({ campo: entry.field === 'add' ? 'agregar_nits' : 'quitar_nits', posicion: entry.position, motivo: entry.reason })),
  };
}
