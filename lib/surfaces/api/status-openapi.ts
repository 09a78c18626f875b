// GET /estado in the OpenAPI document: the sources' public status, described from the status page's
// own schema and built by its own code (app/api/estado/route.ts answers it).
import { STATUS_API_LIMIT_MESSAGE } from '@/lib/presentation/status-limit';
import { publicStatusSchema } from '@/lib/reactions/status-page/public-schema';
import { buildPublicStatus, STATUS_UNAVAILABLE_MESSAGE } from '@/lib/reactions/status-page/status';
import { ref, type JsonObject, type Paths } from './openapi-parts';

/** An example of GET /estado, built by the status page's own code (two days and two hours of the 90 and 24, to keep it short). */
function exampleStatus(): JsonObject {
  const status = buildPublicStatus({ now: new Date('2026-11-24T16:30:00.000Z'), dayCells: [], hourCells: [], transitions: [] });
  return { ...status, fuentes: status.fuentes.map((source) => ({ ...source, dias: source.dias.slice(-2), horas: source.horas.slice(-2) })) };
}

/** The sources' public status: no credentials, its own per-IP limit. */
export function statusPaths(): Paths {
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
