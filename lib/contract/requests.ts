import { z } from 'zod';

// Request bodies of the five lookups, as the OpenAPI document describes them. The route parsers
// (lib/lookups/*-request.ts) classify each violation into its own 400 message; a property test
// (lib/lookups/request-schemas.test.ts) proves they accept exactly what these schemas accept.

/** The contract leaves maximum lengths open (docs/decisions.md): a NIT has at most 12 characters, a CUI 13 digits. */
export const MAX_IDENTIFIER_LENGTH = 32;

/** A non-empty identifier: at least one character that is not white space. */
const identifier = (description: string) =>
  z.string().max(MAX_IDENTIFIER_LENGTH).regex(/\S/, 'must not be empty').describe(description);

// Loose objects: keys the contract does not name are ignored, not refused.
export const renapRequestSchema = z
  .looseObject({ cui: identifier('CUI of the person, 13 digits; forwarded as sent (group spaces allowed)') })
  .meta({ id: 'BuscarCuiRequest', description: 'Body of POST /renap/buscar-cui.' });

export const rtuNitsRequestSchema = z
  .looseObject({
    nits: z
      .array(identifier('A NIT, with or without the hyphen before the check character'))
      .min(1)
      .max(50)
      .describe('Up to 50 NITs. More than 50 are refused with the 400 envelope "Máximo 50 NITs por petición".'),
  })
  .meta({ id: 'RtuNitsRequest', description: 'Body of POST /rtu/nits.' });

// An empty or blank catalog identifier counts as not sent (the other one must then be usable).
const optionalIdentifier = (description: string) => z.string().max(MAX_IDENTIFIER_LENGTH).nullable().optional().describe(description);

const catalogFields = {
  nit: optionalIdentifier('NIT of the taxpayer. At least one of nit and cui must be a non-empty string; an empty one counts as not sent.'),
  cui: optionalIdentifier('CUI of the taxpayer. When both are sent, both are forwarded and the source decides.'),
  actualizado: z
    .boolean()
    .nullable()
    .optional()
    .describe('false (default): answer from the copy the source holds. true: query the source now (most recent, noticeably slower). Must be a JSON boolean, not text.'),
  date_of_birth: z
    .string()
    .nullable()
    .optional()
    .describe('YYYY-MM-DD. Read only by /catalogos/rtu, forwarded without validation; the source asks for it only when it holds no copy of the record.'),
};

export const catalogRequestSchema = z
  .looseObject(catalogFields)
  .refine((body) => [body.nit, body.cui].some((value) => typeof value === 'string' && /\S/.test(value)), {
    message: 'Envia un NIT o un CUI para consultar.',
  })
  .meta({
    id: 'CatalogRequest',
    description: 'Body of the three catalog lookups. At least one of nit and cui must arrive as a non-empty string.',
  });

export type CatalogRequestBody = z.infer<typeof catalogRequestSchema>;
