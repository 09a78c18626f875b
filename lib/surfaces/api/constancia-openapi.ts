// The constancias in the OpenAPI document (docs/constancias.md): the lookups' x-constancia header and
// the headers that answer it, the receipt of GET /constancias/{id}, and the public log and
// verification. /.well-known/jwks.json is outside {base_url}, so the description names it.
import { CONSTANCIA_ID_HEADER, CONSTANCIA_REFUSAL_HEADER, CONSTANCIA_REFUSALS, CONSTANCIA_REQUEST_HEADER, CONSTANCIA_URL_HEADER } from './constancia-answer';
import { CONSTANCIA_MESSAGES } from './constancias';
import { GLOBAL_LIMIT_CONTENT, withRequestId, type JsonObject, type Paths } from './openapi-parts';

export const CONSTANCIA_PARAMETER = {
  name: CONSTANCIA_REQUEST_HEADER,
  in: 'header',
  required: false,
  description:
    'true: además de la respuesta de siempre (el mismo cuerpo y el mismo estado), una constancia de consulta firmada de lo que respondió el registro (200 o 404), si su integración tiene constancias habilitadas. Las cabeceras x-constancia-id y x-constancia-url la nombran; x-constancia-motivo dice por qué no se emitió.',
  schema: { type: 'string', enum: ['true'] },
};

const CONSTANCIA_HEADERS = {
  [CONSTANCIA_ID_HEADER]: { description: 'Con x-constancia: true, el id de la constancia emitida.', schema: { type: 'string', format: 'uuid' } },
  [CONSTANCIA_URL_HEADER]: { description: 'Con x-constancia: true, dónde leerla: GET {base_url}/constancias/{id}.', schema: { type: 'string', format: 'uri' } },
  [CONSTANCIA_REFUSAL_HEADER]: {
    description:
      'Con x-constancia: true, por qué no se emitió: no-habilitada (su integración no tiene constancias), sin-respuesta-del-registro (un rechazo o una falla: solo hay constancia de un 200 o un 404), repeticion (la repetición de una Idempotency-Key), saldo-insuficiente (el saldo no cubre la tarifa por constancia; la consulta vale y no se cobró constancia) o no-disponible (la consulta vale; pida otra vez la constancia).',
    schema: { type: 'string', enum: Object.values(CONSTANCIA_REFUSALS) },
  },
};

/** Every answer of a lookup may carry the constancia's headers. */
export const withConstanciaHeaders = (responses: Record<string, JsonObject>) =>
  Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...response, headers: { ...(response.headers as JsonObject | undefined), ...CONSTANCIA_HEADERS } }]));

const message = (text: string) => ({ 'application/json': { schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } }, example: { message: text } } });
const hex = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const proof = { type: 'array', items: hex, description: 'Los hashes de la prueba (RFC 9162), en hexadecimal.' };
const jws = { type: 'string', description: 'Un JWS compacto (RFC 7515), EdDSA con Ed25519, sobre JSON canónico (RFC 8785).' };

const standing = {
  type: 'object',
  required: ['indice', 'estado', 'cabeza', 'tamano', 'prueba', 'sello'],
  properties: {
    indice: { type: 'integer', description: 'Su hoja en el registro.' },
    estado: { type: 'string', enum: ['incluida', 'pendiente'], description: 'incluida: en la cabeza firmada más reciente (la prueba la acompaña); pendiente: todavía no hay cabeza que la incluya (se firma una cada pocos minutos).' },
    cabeza: { ...jws, type: ['string', 'null'], description: 'La cabeza firmada más reciente que la incluye.' },
    tamano: { type: ['integer', 'null'] },
    prueba: { ...proof, type: ['array', 'null'] },
    sello: {
      type: ['object', 'null'],
      description: 'La cabeza más reciente con sello de tiempo RFC 3161 que la incluye: la respuesta de la autoridad (DER en base64) sobre el SHA-256 del texto de esa cabeza, y la prueba de inclusión en ella.',
      properties: { cabeza: jws, tamano: { type: 'integer' }, prueba: proof, respuesta: { type: 'string' }, selladaEn: { type: 'string', format: 'date-time' } },
    },
  },
};

export function constanciaPaths(): Paths {
  const limited = { '429': { description: 'El límite global por IP (texto plano).', content: GLOBAL_LIMIT_CONTENT } };
  return {
    '/constancias/{id}': {
      get: {
        operationId: 'getConstancia',
        tags: ['constancias'],
        summary: 'Una constancia de consulta de su integración y su lugar en el registro (o su PDF, con Accept: application/pdf)',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, description: 'El de x-constancia-id (x-constancia-url es esta dirección).' }],
        responses: withRequestId({
          '200': {
            description: 'La constancia (null cuando pasó la retención de los registros: su hoja sigue en el registro) y su prueba de inclusión.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'constancia', 'emitidaEn', 'consulta', 'estado', 'clave', 'registro'],
                  properties: { id: { type: 'string' }, constancia: { ...jws, type: ['string', 'null'] }, emitidaEn: { type: 'string', format: 'date-time' }, consulta: { type: 'string' }, estado: { type: 'integer' }, clave: { type: 'string' }, registro: standing },
                },
              },
              // With Accept: application/pdf: the «Constancia de consulta» for the client file, with its QR code.
              'application/pdf': { schema: { type: 'string', format: 'binary' } },
            },
          },
          '404': { description: 'No existe, es de otra integración, o (el PDF) su texto ya se depuró.', content: message(CONSTANCIA_MESSAGES.notFound) },
          ...limited,
        }),
      },
    },
    '/constancias/registro': {
      get: {
        operationId: 'getConstanciaLogHead',
        tags: ['constancias'],
        summary: 'La cabeza firmada más reciente del registro de constancias, y la más reciente sellada',
        description: 'Público. Las claves que firman las constancias y las cabezas se publican en {origen}/.well-known/jwks.json (RFC 7517), cada una con firmaDesde y firmaHasta.',
        security: [],
        responses: withRequestId({
          '200': {
            description: 'La cabeza.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['cabeza', 'tamano', 'raizSha256', 'firmadaEn', 'sello'],
                  properties: {
                    cabeza: jws,
                    tamano: { type: 'integer' },
                    raizSha256: hex,
                    firmadaEn: { type: 'string', format: 'date-time' },
                    sello: { type: ['object', 'null'], properties: { cabeza: jws, tamano: { type: 'integer' }, respuesta: { type: 'string' }, selladaEn: { type: 'string', format: 'date-time' } } },
                  },
                },
              },
            },
          },
          '404': { description: 'Todavía no hay cabeza firmada.', content: message(CONSTANCIA_MESSAGES.noHead) },
          ...limited,
        }),
      },
    },
    '/constancias/registro/inclusion': {
      get: {
        operationId: 'getConstanciaInclusionProof',
        tags: ['constancias'],
        summary: 'La prueba de que una hoja, por su hash, está en el registro de una cabeza firmada',
        security: [],
        parameters: [
          { name: 'hoja', in: 'query', required: true, schema: hex, description: 'SHA-256(0x00 ‖ el JWS de la constancia), en hexadecimal.' },
          { name: 'tamano', in: 'query', required: true, schema: { type: 'integer', minimum: 1 }, description: 'El tamaño de una cabeza firmada (tamano de GET /constancias/registro).' },
        ],
        responses: withRequestId({
          '200': { description: 'La prueba.', content: { 'application/json': { schema: { type: 'object', required: ['indice', 'tamano', 'cabeza', 'prueba'], properties: { indice: { type: 'integer' }, tamano: { type: 'integer' }, cabeza: jws, prueba: proof } } } } },
          '400': { description: 'Falta la hoja o el tamaño, o no hay cabeza de ese tamaño.', content: message(CONSTANCIA_MESSAGES.leaf) },
          '404': { description: 'El registro de ese tamaño no contiene esa hoja.', content: message(CONSTANCIA_MESSAGES.leafNotFound) },
          ...limited,
        }),
      },
    },
    '/constancias/registro/consistencia': {
      get: {
        operationId: 'getConstanciaConsistencyProof',
        tags: ['constancias'],
        summary: 'La prueba de que el registro de un tamaño extiende al de otro sin cambiarlo',
        security: [],
        parameters: [
          { name: 'desde', in: 'query', required: true, schema: { type: 'integer', minimum: 1 }, description: 'El tamaño de la cabeza anterior.' },
          { name: 'hasta', in: 'query', required: true, schema: { type: 'integer', minimum: 1 }, description: 'El tamaño de la cabeza posterior.' },
        ],
        responses: withRequestId({
          '200': {
            description: 'Las dos cabezas firmadas y la prueba.',
            content: { 'application/json': { schema: { type: 'object', required: ['desde', 'hasta', 'tamanoDesde', 'tamanoHasta', 'prueba'], properties: { desde: jws, hasta: jws, tamanoDesde: { type: 'integer' }, tamanoHasta: { type: 'integer' }, prueba: proof } } } },
          },
          '400': { description: 'Tamaños que no son de cabezas firmadas, o desde mayor que hasta.', content: message(CONSTANCIA_MESSAGES.sizes) },
          ...limited,
        }),
      },
    },
    '/constancias/verificar': {
      post: {
        operationId: 'verifyConstancia',
        tags: ['constancias'],
        summary: 'Verifica una constancia: su firma, su clave y su lugar en el registro',
        description: 'Público. Lo mismo que puede hacer usted sin la pasarela con las claves publicadas (docs/constancias.md).',
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['constancia'], properties: { constancia: jws } }, example: { constancia: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiIsInR5cCI6ImNvbnN0YW5jaWEtZGUtY29uc3VsdGEifQ.eyJ0aXBvIjoiLi4uIn0.firma' } } },
        },
        responses: withRequestId({
          '200': {
            description: 'El veredicto.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['valida', 'motivo', 'constancia', 'clave', 'registro'],
                  properties: {
                    valida: { type: 'boolean' },
                    motivo: {
                      type: ['string', 'null'],
                      enum: ['mal-formada', 'clave-desconocida', 'firma-invalida', 'fuera-de-la-vigencia-de-la-clave', 'no-es-una-constancia', 'no-canonica', 'fuera-del-registro', null],
                    },
                    constancia: { description: 'Lo que firma la constancia, cuando la firma es válida.' },
                    clave: { type: ['object', 'null'], properties: { kid: { type: 'string' }, firmaDesde: { type: 'string' }, firmaHasta: { type: ['string', 'null'] } } },
                    registro: { ...standing, type: ['object', 'null'] },
                  },
                },
              },
            },
          },
          '400': { description: 'El cuerpo no trae el campo constancia como texto.', content: message(CONSTANCIA_MESSAGES.verifyBody) },
          ...limited,
        }),
      },
    },
  };
}
