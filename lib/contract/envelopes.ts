import { z } from 'zod';
import { cuiNitResultadoSchema, omisosResultadoSchema, rtuResultadoSchema } from './catalog';

// The response bodies of the contract that are not catalog records: the lookup envelope of the
// person registry and RTU by NIT, and the error bodies of both route families.

export const personRecordSchema = z
  .looseObject({ cui: z.string().describe('The CUI of the person') })
  .meta({ id: 'PersonaRenap', description: 'A person as the registry publishes it. Fields beyond cui: not shown by the contract.' });

export const rtuRecordSchema = z
  .looseObject({ nit: z.string().describe('The NIT of the taxpayer') })
  .meta({ id: 'RegistroRtu', description: 'A taxpayer as the RTU registry publishes it. Fields beyond nit: not shown by the contract.' });

export const renapEnvelopeSchema = z
  .object({
    success: z.boolean().describe('Computed from the HTTP status (2xx).'),
    data: personRecordSchema.nullable(),
    message: z.string(),
    responseCode: z.int().describe("A field of the registry's own body. A 200 with success true can carry an error responseCode: check both."),
  })
  .strict()
  .meta({ id: 'RenapEnvelope', description: 'Lookup envelope of POST /renap/buscar-cui. The HTTP status is the status the registry answered with.' });

export const rtuNitsEnvelopeSchema = z
  .object({
    success: z.boolean(),
    data: z.array(rtuRecordSchema).nullable().describe('The records found, as the source publishes them; null on the over-50 rejection.'),
    message: z.string().describe('How many records were found out of how many requested.'),
    responseCode: z.int().describe('Equals the HTTP status.'),
  })
  .strict()
  .meta({ id: 'RtuNitsEnvelope', description: 'Lookup envelope of POST /rtu/nits. A query without matches is a 200, not an error.' });

export const registryErrorSchema = z
  .object({ error: z.string() })
  .strict()
  .meta({ id: 'RegistryError', description: 'Error body of /renap/buscar-cui and /rtu/nits (a string, not a boolean).' });

export const catalogErrorSchema = z
  .object({ message: z.string() })
  .strict()
  .meta({ id: 'CatalogError', description: 'Error body of the catalogs: a single key, message. Branch on the status, not on the text.' });

const catalogSuccess = <T extends z.ZodType>(data: T, id: string, lookup: string) =>
  z.object({ data }).strict().meta({ id, description: `Success of ${lookup}: one key, data. No success and no responseCode; the HTTP status is the only success signal.` });

export const cuiNitSuccessSchema = catalogSuccess(cuiNitResultadoSchema, 'CuiNitRespuesta', 'POST /catalogos/cui-nit');
export const rtuSuccessSchema = catalogSuccess(rtuResultadoSchema, 'RtuRespuesta', 'POST /catalogos/rtu');
export const omisosSuccessSchema = catalogSuccess(omisosResultadoSchema, 'OmisosRespuesta', 'POST /catalogos/omisos');
