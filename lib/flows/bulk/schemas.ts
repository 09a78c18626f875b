// The shapes /api/lotes answers with, as zod schemas: lib/surfaces/api/bulk-responses.ts builds them and the
// OpenAPI document (lib/surfaces/api/bulk-openapi.ts) describes them from these same objects.
import { z } from 'zod';
import { bulkItemStatus, bulkJobState } from '@/db/schema';
import { BULK_CATALOGS, type BulkCatalogPathName } from './requests';

export const bulkJobSchema = z
  .object({
    id: z.string().describe('El id del lote: lote_ y 20 caracteres hexadecimales.'),
    catalogo: z.enum(Object.keys(BULK_CATALOGS) as [BulkCatalogPathName, ...BulkCatalogPathName[]]),
    estado: z.enum(bulkJobState.enumValues).describe('en_curso, en_pausa_sin_saldo (sigue después de una recarga), en_pausa (pausado por la administración: sigue cuando la administración lo reanuda), completado o cancelado.'),
    motivo_estado: z
      .string()
      .nullable()
      .describe('Por qué el lote no corre, en una frase: en en_pausa, que la administración lo pausó y el motivo que dio; en en_pausa_sin_saldo, que espera una recarga. null en los demás estados.'),
    creado_en: z.string().describe('ISO 8601, UTC.'),
    terminado_en: z.string().nullable(),
    conteos: z.object({
      total: z.int(),
      procesados: z.int(),
      pendientes: z.int(),
      encontrados: z.int(),
      no_encontrados: z.int(),
      invalidos: z.int().describe('Apartados sin costo: inválidos y repetidos (estos también en duplicados), o rechazados por la fuente.'),
      duplicados: z.int(),
      rechazados: z
        .int()
        .describe('De los invalidos, los que la fuente rechazó al consultarlos (motivo rechazado_por_la_fuente; por ejemplo, un RTU que pide la fecha de nacimiento): sin costo. invalidos menos duplicados y rechazados es lo apartado antes de consultar.'),
      fallidos: z.int().describe('La fuente respondió con un error: error_fuente, sin costo.'),
    }),
    monto_cobrado: z.string().describe('Lo cobrado hasta ahora, en quetzales con dos decimales ("12.50").'),
    moneda: z.literal('GTQ'),
    estimado_fin: z.string().nullable().describe('Cuándo se espera terminar (ISO 8601); null si no queda nada pendiente o el lote está en pausa.'),
    resultados: z.string().describe('La ruta de los resultados.'),
    reintenta: z.string().nullable().describe('El id del lote cuyas filas fallidas (error_fuente) reintenta este lote (POST /lotes/{id}/reintentar); null en un lote enviado como lista.'),
    constancias: z.boolean().describe('true si cada fila encontrada lleva la constancia de consulta de su respuesta (constancia_id y constancia_url en sus resultados).'),
  })
  .meta({ id: 'Lote', description: 'Un lote: su estado, sus conteos y lo cobrado.' });

export const bulkJobPageSchema = z
  .object({
    lotes: z.array(bulkJobSchema).describe('El más reciente primero; también las ejecuciones de sus vigilancias.'),
    siguiente: z.string().nullable().describe('El cursor de la página siguiente (?cursor=…); null en la última.'),
  })
  .meta({ id: 'Lotes', description: 'Una página de los lotes de su integración.' });

export type BulkJobBody = z.infer<typeof bulkJobSchema>;

export const bulkResultRowSchema = z
  .object({
    posicion: z.int().describe('La posición del identificador en la lista enviada, desde 1.'),
    identificador: z.string().describe('Tal como se envió.'),
    estado: z.enum([...bulkItemStatus.enumValues, 'cancelado']),
    motivo: z.string().nullable().describe('nit_invalido, cui_invalido, duplicado, rechazado_por_la_fuente, o la falla de la fuente.'),
    datos: z.unknown().describe('Lo mismo que data en la consulta individual del catálogo; null si no se encontró.'),
    respondido_en: z.string().nullable(),
    fuente: z
      .string()
      .nullable()
      .describe('El nombre de la fuente que respondió, como lo dan /estado (su nombre) y los avisos (fuente): «Fuente de catálogos (CUI/NIT, RTU, omisos)». null si la fila no se consultó.'),
    fuente_id: z
      .string()
      .nullable()
      .describe('Su identificador, el mismo de fuente en GET /api/estado y de fuente_id en los avisos (catalog). null si la fila no se consultó.'),
    request_id: z.string().nullable().describe('El de la consulta que respondió la fila: con él soporte encuentra su registro.'),
    constancia_id: z
      .string()
      .nullable()
      .describe('La constancia de consulta de la respuesta de la fila, en un lote enviado con constancias: true (solo filas encontradas); null en las demás.'),
    constancia_url: z.string().nullable().describe('Dónde leer esa constancia (GET, JSON o PDF con Accept: application/pdf); null si la fila no tiene.'),
  })
  .meta({
    id: 'LoteResultado',
    description:
      'Una fila de los resultados de un lote (una línea JSON, o las nueve primeras columnas de una fila del CSV, con datos como texto JSON, seguidas por la fila en palabras y la respuesta del catálogo en columnas; en el CSV, un texto que una hoja de cálculo tomaría por fórmula lleva delante un apóstrofo).',
  });
