import { z } from 'zod';
import { cuiNitResultadoSchema, omisosResultadoSchema, rtuResultadoSchema } from './catalog';

// The response bodies of the contract that are not catalog records: the lookup envelope of the
// person registry and RTU by NIT, and the error bodies of both route families.

export const personRecordSchema = z
  .looseObject({ cui: z.string().describe('El CUI de la persona') })
  .meta({ id: 'PersonaRenap', description: 'Una persona tal como la publica el registro. Los campos además de cui no están fijados por el contrato.' });

export const rtuRecordSchema = z
  .looseObject({ nit: z.string().describe('El NIT del contribuyente') })
  .meta({ id: 'RegistroRtu', description: 'Un contribuyente tal como lo publica el registro del RTU. Los campos además de nit no están fijados por el contrato.' });

export const renapEnvelopeSchema = z
  .object({
    success: z.boolean().describe('Se calcula a partir del estado HTTP (2xx).'),
    data: personRecordSchema.nullable(),
    message: z.string(),
    responseCode: z.int().describe('Un campo del cuerpo del propio registro. Un 200 con success true puede traer un responseCode de error: revise los dos.'),
  })
  .strict()
  .meta({ id: 'RenapEnvelope', description: 'Sobre de POST /renap/buscar-cui. El estado HTTP es el que respondió el registro.' });

export const rtuNitsEnvelopeSchema = z
  .object({
    success: z.boolean(),
    data: z.array(rtuRecordSchema).nullable().describe('Los registros encontrados, tal como los publica la fuente; null cuando se rechazan más de 50 NIT.'),
    message: z.string().describe('Cuántos registros se encontraron de cuántos se pidieron.'),
    responseCode: z.int().describe('Igual al estado HTTP.'),
  })
  .strict()
  .meta({ id: 'RtuNitsEnvelope', description: 'Sobre de POST /rtu/nits. Una consulta sin coincidencias es un 200, no un error.' });

export const registryErrorSchema = z
  .object({ error: z.string() })
  .strict()
  .meta({ id: 'RegistryError', description: 'Cuerpo de error de /renap/buscar-cui y /rtu/nits (error es texto, no un booleano).' });

export const catalogErrorSchema = z
  .object({ message: z.string() })
  .strict()
  .meta({ id: 'CatalogError', description: 'Cuerpo de error de los catálogos: una sola clave, message. Decida por el estado HTTP, no por el texto.' });

const catalogSuccess = <T extends z.ZodType>(data: T, id: string, lookup: string) =>
  z.object({ data }).strict().meta({ id, description: `Éxito de ${lookup}: una sola clave, data. No hay success ni responseCode: el estado HTTP es la única señal.` });

export const cuiNitSuccessSchema = catalogSuccess(cuiNitResultadoSchema, 'CuiNitRespuesta', 'POST /catalogos/cui-nit');
export const rtuSuccessSchema = catalogSuccess(rtuResultadoSchema, 'RtuRespuesta', 'POST /catalogos/rtu');
export const omisosSuccessSchema = catalogSuccess(omisosResultadoSchema, 'OmisosRespuesta', 'POST /catalogos/omisos');
