// The pieces every capability's OpenAPI paths are built from (lookup-openapi.ts, bulk-openapi.ts and
// their siblings): references to the contract's schemas, error answers with their texts as
// examples, and the headers and limits the endpoints share. lib/surfaces/openapi/document.ts
// assembles the paths into the document.
import { z } from 'zod';
import { catalogErrorSchema, registryErrorSchema } from '@/lib/contract/envelopes';
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { GLOBAL_LIMIT_BODY } from '@/lib/core/limits/global-limit-body';

export type JsonObject = Record<string, unknown>;

/** A capability's paths: each path with its operations. */
export type Paths = Record<string, JsonObject>;

export const ref = (schema: z.ZodType) => {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('every schema used by the OpenAPI document needs a .meta({ id })');
  return { $ref: `#/components/schemas/${id}` };
};

export const pick = <T extends Record<string, string>>(messages: T, ...keys: Array<keyof T>) =>
  Object.fromEntries(keys.map((key) => [key, messages[key]])) as Record<string, string>;

export function examples(messages: Record<string, string>, key: 'error' | 'message'): JsonObject {
  return Object.fromEntries(Object.entries(messages).map(([name, text]) => [name, { summary: text, value: { [key]: text } }]));
}

export function catalogError(description: string, messages: Record<string, string>): JsonObject {
  return { description, content: { 'application/json': { schema: ref(catalogErrorSchema), examples: examples(messages, 'message') } } };
}

export function registryError(description: string, messages: Record<string, string>): JsonObject {
  return { description, content: { 'application/json': { schema: ref(registryErrorSchema), examples: examples(messages, 'error') } } };
}

export const GLOBAL_LIMIT_CONTENT = {
  'text/plain': {
    schema: { type: 'string' },
    example: GLOBAL_LIMIT_BODY,
  },
};

/** The Retry-After of the API's own endpoints' per-minute limits (not the contract's routes, whose 429 carries none). */
export const OWN_LIMIT_RETRY_AFTER = {
  'Retry-After': {
    description: 'Segundos hasta que termina el minuto del contador (de 1 a 60). Solo en el 429 JSON de este límite; el global por IP lleva el suyo.',
    schema: { type: 'integer', minimum: 1, maximum: 60 },
  },
};

const REQUEST_ID_HEADER = {
  'x-request-id': { description: 'Identificador único de esta solicitud (req_…): inclúyalo al escribir a soporte.', schema: { type: 'string' } },
};

export const withRequestId = (responses: Record<string, JsonObject>) =>
  Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...response, headers: { ...REQUEST_ID_HEADER, ...(response.headers as JsonObject | undefined) } }]));

/** The optional header of the catalogs (lib/core/idempotency): repeats within 24 hours get the first answer. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Opcional. Una clave de 1 a 255 caracteres ASCII imprimibles (por ejemplo un UUID) que identifica esta consulta en su sistema. Si repite la solicitud con la misma clave en las 24 horas siguientes y el mismo cuerpo, recibe la primera respuesta otra vez (mismo estado y cuerpo, con la cabecera Idempotency-Replayed: true), sin un nuevo cobro y sin consultar de nuevo la fuente; si la primera todavía está en curso, la repetición la espera (hasta 30 segundos). La misma clave con otro cuerpo, u otra ruta, recibe 400. Se guardan el 200 y los 400 y 404 de la fuente; un 402, 429, 500 o 502 no se guarda, así que repetir con la misma clave vuelve a intentar. Cada repetición cuenta para los límites por minuto y global. Sin esta cabecera la consulta funciona como siempre.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

const REPLAYED_HEADER = {
  'Idempotency-Replayed': {
    description: 'true cuando esta respuesta es la guardada de una solicitud anterior con la misma Idempotency-Key (no se cobró ni consultó la fuente otra vez). Ausente en cualquier otro caso.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The answers a repeat with the same Idempotency-Key may get again, and say so with a header. */
export const withReplayHeader = (responses: Record<string, JsonObject>, statuses: string[]) =>
  Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      statuses.includes(status) ? { ...response, headers: { ...(response.headers as JsonObject), ...REPLAYED_HEADER } } : response,
    ]),
  );

/** The 429 of a per-minute limit of the integration (JSON) or of the global one per IP (plain text). */
export function limitExceeded(description: string, headers?: JsonObject): JsonObject {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema: ref(catalogErrorSchema), examples: examples(pick(CATALOG_MESSAGES, 'rateLimited'), 'message') }, ...GLOBAL_LIMIT_CONTENT },
  };
}

/**
 * The refusals of the endpoints beside the lookups (/lotes, /vigilancias, /cuenta, /consultas): the
 * catalogs' credentials and error shape; each endpoint says which per-minute limit its 429 is.
 */
export function integrationApiErrors(tooManyRequests: JsonObject): Record<string, JsonObject> {
  return {
    '401': catalogError('Credenciales que no corresponden a ninguna integración (o solo una de las dos cabeceras).', pick(CATALOG_MESSAGES, 'integrationNotFound')),
    '403': catalogError('Sin credenciales de integración.', pick(CATALOG_MESSAGES, 'credentialsRequired')),
    '429': tooManyRequests,
    '500': catalogError('Falla no controlada; el texto varía y no debe usarse como condición.', pick(CATALOG_MESSAGES, 'unhandled')),
    '502': catalogError('No fue posible validar las credenciales en este momento. Reintente con espera exponencial.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
  };
}
