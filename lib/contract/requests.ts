import { z } from 'zod';
import { REGISTRY_MESSAGES } from './messages';

// Request bodies of the five lookups, as the OpenAPI document describes them. The route parsers
// (lib/flows/lookups/*-request.ts) classify each violation into its own 400 message; a property test
// (lib/flows/lookups/request-schemas.test.ts) proves they accept exactly what these schemas accept.

/** The contract leaves maximum lengths open (docs/decisions.md): a NIT has at most 12 characters, a CUI 13 digits. */
export const MAX_IDENTIFIER_LENGTH = 32;

/** A non-empty identifier: at least one character that is not white space. */
const identifier = (description: string) =>
  z.string().max(MAX_IDENTIFIER_LENGTH).regex(/\S/, 'no debe estar vacío').describe(description);

// Loose objects: keys the contract does not name are ignored, not refused.
export const renapRequestSchema = z
  .looseObject({ cui: identifier('CUI de la persona, 13 dígitos; se reenvía tal como se envía (se admiten espacios entre grupos)') })
  .meta({ id: 'BuscarCuiRequest', description: 'Cuerpo de POST /renap/buscar-cui.' });

export const rtuNitsRequestSchema = z
  .looseObject({
    nits: z
      .array(identifier('Un NIT, con o sin el guion antes del dígito verificador'))
      .min(1)
      .max(50)
      .describe(`Hasta 50 NIT. Más de 50 se rechazan con un 400 y el sobre "${REGISTRY_MESSAGES.tooManyNits}"; parta el lote.`),
  })
  .meta({ id: 'RtuNitsRequest', description: 'Cuerpo de POST /rtu/nits.' });

// An empty or blank catalog identifier counts as not sent (the other one must then be usable).
const optionalIdentifier = (description: string) => z.string().max(MAX_IDENTIFIER_LENGTH).nullable().optional().describe(description);

const catalogFields = {
  nit: optionalIdentifier('NIT del contribuyente. Envíe nit, cui o ambos como texto no vacío; uno vacío cuenta como no enviado.'),
  cui: optionalIdentifier('CUI del contribuyente. Si envía ambos, no verificamos que sean de la misma persona: se reenvían los dos y la fuente decide.'),
  actualizado: z
    .boolean()
    .nullable()
    .optional()
    .describe('false (por defecto): la respuesta sale de la copia que guarda la fuente. true: se consulta en ese momento (más reciente, pero notablemente más lento). Debe ser un booleano JSON (true, no "true").'),
  date_of_birth: z
    .string()
    .nullable()
    .optional()
    .describe('YYYY-MM-DD. Solo lo lee /catalogos/rtu y se reenvía sin validar; la fuente lo pide solo cuando no tiene copia del registro (fecha de nacimiento, o de constitución de una empresa).'),
};

export const catalogRequestSchema = z
  .looseObject(catalogFields)
  .refine((body) => [body.nit, body.cui].some((value) => typeof value === 'string' && /\S/.test(value)), {
    message: 'Envia un NIT o un CUI para consultar.',
  })
  .meta({
    id: 'CatalogRequest',
    description: 'Cuerpo de las tres consultas de catálogo. Al menos uno de nit y cui debe llegar como texto no vacío.',
  });

export type CatalogRequestBody = z.infer<typeof catalogRequestSchema>;
