// GET /api/estado's body as a zod schema, for the OpenAPI document: the same shape as PublicStatus
// (status.ts), checked against it by the compiler below, so the two cannot drift apart.
import { z } from 'zod';
import { SOURCE_NAMES } from '@/lib/sources/guard';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import type { SourceName } from '@/lib/sources/guard';
import { STATUS_DAYS, STATUS_HOURS } from './states';
import type { PublicStatus } from './status';

const SOURCE_STATES = ['operando', 'degradado', 'sin_servicio'] as const;
const BUCKET_STATES = [...SOURCE_STATES, 'sin_datos'] as const;

const source = z.enum(SOURCE_NAMES as [SourceName, ...SourceName[]]).describe(`El identificador de la fuente: ${SOURCE_NAMES.map((name) => `${name} (${SOURCE_LABELS[name]})`).join(', ')}.`);
const share = z.number().nullable().describe('Porcentaje de las llamadas a la fuente que no fallaron por la fuente, con dos decimales redondeados hacia abajo; null si no hubo llamadas.');

export const publicStatusSchema = z
  .object({
    generado_en: z.string().describe('Cuándo se leyó este estado (ISO 8601, UTC); se comparte unos segundos entre solicitudes.'),
    fuentes: z.array(
      z.object({
        fuente: source,
        nombre: z.string(),
        estado: z.enum(SOURCE_STATES).describe('operando, degradado (parte de sus consultas falla) o sin_servicio.'),
        disponibilidad_90_dias: share,
        dias: z.array(z.object({ dia: z.string().describe('AAAA-MM-DD, día de Guatemala.'), disponibilidad: share, estado: z.enum(BUCKET_STATES) })).describe(`Los últimos ${STATUS_DAYS} días, hoy el último.`),
        horas: z.array(z.object({ desde: z.string().describe('Inicio de la hora (ISO 8601, UTC).'), disponibilidad: share, estado: z.enum(BUCKET_STATES) })).describe(`Las últimas ${STATUS_HOURS} horas, la actual la última.`),
      }),
    ),
    incidentes: z
      .array(
        z.object({
          fuente: source,
          nombre: z.string(),
          inicio: z.string(),
          fin: z.string().nullable(),
          en_curso: z.boolean(),
          duracion_segundos: z.int(),
        }),
      )
      .describe('Los incidentes (una fuente sin servicio) de los últimos 90 días, el más reciente primero.'),
    resumen: z.object({
      estado: z.enum(SOURCE_STATES).describe('El peor estado de las fuentes ahora.'),
      texto: z.string().describe('Una frase para una persona.'),
      sin_incidentes: z.boolean(),
      degradaciones_en_curso: z.array(z.object({ fuente: source, nombre: z.string(), desde: z.string() })),
      dias_con_fallas: z.int(),
    }),
    componentes: z
      .array(
        z.object({
          componente: z.enum(['facturacion', 'pagos_en_linea']),
          nombre: z.string(),
          estado: z.enum(SOURCE_STATES).describe('operando, degradado o sin_servicio (la facturación detenida: las recargas se siguen acreditando; los pagos en línea: no se pueden iniciar).'),
          desde: z.string().nullable().describe('Desde cuándo no opera (ISO 8601, UTC); null mientras opera.'),
          texto: z.string().describe('Una frase para una persona.'),
        }),
      )
      .describe('Las otras partes del servicio que este despliegue tiene encendidas: la facturación electrónica (FEL) de las recargas, si factura, y los pagos en línea, si los acepta.'),
  })
  .meta({ id: 'Estado', description: 'El estado público de las fuentes: cada una ahora, por día y por hora, sus incidentes y un resumen. Sin datos de ninguna integración.' });

// Both ways: a field added to one and not the other fails the typecheck.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof publicStatusSchema>, PublicStatus> = true;
void sameShape;
