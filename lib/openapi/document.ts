import { z } from 'zod';
import { catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema } from '@/lib/contract/requests';
import {
  catalogErrorSchema,
  cuiNitSuccessSchema,
  omisosSuccessSchema,
  registryErrorSchema,
  renapEnvelopeSchema,
  rtuNitsEnvelopeSchema,
  rtuSuccessSchema,
} from '@/lib/contract/envelopes';
import { CATALOG_MESSAGES, CONTRACT_REVISION, REGISTRY_MESSAGES, rtuFoundMessage } from '@/lib/contract/messages';
import { CATALOG_REQUEST_MESSAGES } from '@/lib/api/catalog-responses';
import { REGISTRY_FAILED_MESSAGE, REGISTRY_REQUEST_MESSAGES } from '@/lib/api/registry-responses';
import { GLOBAL_LIMIT_BODY } from '@/lib/limits/global-limit-body';

// The OpenAPI 3.1 document, generated from the same zod schemas the handlers and normalizers use
// and the same message constants they answer with, so it cannot drift from what the API does.

type JsonObject = Record<string, unknown>;

const ref = (schema: z.ZodType) => {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('every schema used by the OpenAPI document needs a .meta({ id })');
  return { $ref: `#/components/schemas/${id}` };
};

function componentSchemas(): Record<string, JsonObject> {
  // Make sure every schema is registered before the registry is converted.
  void [catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema, renapEnvelopeSchema, rtuNitsEnvelopeSchema];
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    // A fragment-only $id would rebase the references inside the schema; the component name is enough.
    delete schema.$id;
  }
  // z.json() is recursive and lands in a shared $defs entry; "any JSON value" is simply {} in JSON Schema.
  if (schemas.OpaqueJson) schemas.OpaqueJson = { description: schemas.OpaqueJson.description };
  delete schemas.__shared;
  // The refinement "at least one of nit and cui" is not representable by zod's converter.
  const catalogRequest = schemas.CatalogRequest;
  if (catalogRequest) {
    catalogRequest.anyOf = ['nit', 'cui'].map((key) => ({ required: [key], properties: { [key]: { type: 'string', pattern: '\\S' } } }));
  }
  return schemas;
}

function examples(messages: Record<string, string>, key: 'error' | 'message'): JsonObject {
  return Object.fromEntries(Object.entries(messages).map(([name, text]) => [name, { summary: text, value: { [key]: text } }]));
}

function catalogError(description: string, messages: Record<string, string>): JsonObject {
  return { description, content: { 'application/json': { schema: ref(catalogErrorSchema), examples: examples(messages, 'message') } } };
}

function registryError(description: string, messages: Record<string, string>): JsonObject {
  return { description, content: { 'application/json': { schema: ref(registryErrorSchema), examples: examples(messages, 'error') } } };
}

const GLOBAL_LIMIT_CONTENT = {
  'text/plain': {
    schema: { type: 'string' },
    example: GLOBAL_LIMIT_BODY,
  },
};

const REQUEST_ID_HEADER = {
  'x-request-id': { description: 'Unique id of this request (req_…); quote it to support.', schema: { type: 'string' } },
};

const withRequestId = (responses: Record<string, JsonObject>) =>
  Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { headers: REQUEST_ID_HEADER, ...response }]));

const pick = <T extends Record<string, string>>(messages: T, ...keys: Array<keyof T>) =>
  Object.fromEntries(keys.map((key) => [key, messages[key]])) as Record<string, string>;

function registryPaths(): JsonObject {
  const common = (notEnabled: 'renapNotEnabled' | 'rtuNotEnabled') => ({
    '403': registryError('No integration credentials (also a wrong or partial pair on these routes), or the lookup is not enabled.', {
      ...pick(REGISTRY_MESSAGES, 'authenticationRequired', notEnabled),
    }),
    '429': {
      description: "The route's per-minute limit for the integration (JSON), or the global per-IP limit (plain text: check Content-Type before parsing).",
      content: {
        'application/json': { schema: ref(registryErrorSchema), examples: examples(pick(REGISTRY_MESSAGES, 'rateLimited'), 'error') },
        ...GLOBAL_LIMIT_CONTENT,
      },
    },
    '500': registryError('Failure querying the registry. The text is unspecified.', { registryFailed: REGISTRY_FAILED_MESSAGE }),
  });
  const requestProblems = (keys: Array<keyof typeof REGISTRY_REQUEST_MESSAGES>) => pick(REGISTRY_REQUEST_MESSAGES, ...keys);
  return {
    '/renap/buscar-cui': {
      post: {
        operationId: 'searchRenapByCui',
        tags: ['lookups'],
        summary: 'Una persona en el registro nacional de personas (RENAP), por CUI',
        description:
          'Requiere la bandera is_renap_enabled. Límite propio: 30 por minuto por integración, más el global de 100 cada 15 minutos por IP. No se cobra. Toda consulta que llega al registro queda registrada.\n\nEl estado HTTP es el que respondió el registro, y success se calcula a partir de él; responseCode es un campo del cuerpo del propio registro. Un 200 con success true puede traer un responseCode de error (por ejemplo 404 cuando el CUI no tiene registro): revise los dos.',
        requestBody: { required: true, content: { 'application/json': { schema: ref(renapRequestSchema), example: { cui: '1587564440904' } } } },
        responses: withRequestId({
          '200': { description: "The registry's answer in the lookup envelope.", content: { 'application/json': { schema: ref(renapEnvelopeSchema) } } },
          '400': {
            description: 'cui missing or the body unusable ({error}); or the registry refused the CUI (lookup envelope with its status).',
            content: {
              'application/json': {
                schema: { oneOf: [ref(registryErrorSchema), ref(renapEnvelopeSchema)] },
                examples: examples(requestProblems(['cui_missing', 'cui_not_text', 'content_type', 'malformed', 'not_an_object', 'too_large', 'identifier_too_long']), 'error'),
              },
            },
          },
          '404': { description: 'The registry answered 404: the lookup envelope with success false.', content: { 'application/json': { schema: ref(renapEnvelopeSchema) } } },
          '4XX': {
            description: "Any other client-error status the registry answers about the person (not 401, 403, 407 or 429, which are the gateway's own and become 500): the lookup envelope with that status and success false.",
            content: { 'application/json': { schema: ref(renapEnvelopeSchema) } },
          },
          ...common('renapNotEnabled'),
        }),
      },
    },
    '/rtu/nits': {
      post: {
        operationId: 'searchRtuByNits',
        tags: ['lookups'],
        summary: 'Hasta 50 contribuyentes en el Registro Tributario Unificado (RTU), por NIT',
        description:
          'Requiere la bandera is_rtu_enabled. Límite propio: 50 por minuto por integración, más el global de 100 cada 15 minutos por IP. No se cobra. Toda consulta que llega al registro queda registrada.\n\nEl estado HTTP es igual a responseCode. Una consulta sin coincidencias es un 200 con un arreglo data vacío, no un error. Los registros se devuelven tal como el registro los publica.',
        requestBody: { required: true, content: { 'application/json': { schema: ref(rtuNitsRequestSchema), example: { nits: ['576937-K', '7108-0'] } } } },
        responses: withRequestId({
          '200': {
            description: 'The records found.',
            content: { 'application/json': { schema: ref(rtuNitsEnvelopeSchema), example: { success: true, data: [], message: rtuFoundMessage(0, 2), responseCode: 200 } } },
          },
          '400': {
            description: 'nits missing, empty or not an array ({error}); or more than 50 NITs (the envelope, rejected by the RTU client before any query).',
            content: {
              'application/json': {
                schema: { oneOf: [ref(registryErrorSchema), ref(rtuNitsEnvelopeSchema)] },
                examples: {
                  ...examples(requestProblems(['nits_missing', 'nit_not_text', 'content_type', 'malformed', 'not_an_object', 'too_large', 'identifier_too_long']), 'error'),
                  tooManyNits: {
                    summary: REGISTRY_MESSAGES.tooManyNits,
                    value: { success: false, message: REGISTRY_MESSAGES.tooManyNits, responseCode: 400, data: null },
                  },
                },
              },
            },
          },
          ...common('rtuNotEnabled'),
        }),
      },
    },
  };
}

function catalogPath(operationId: string, summary: string, flag: string, success: z.ZodType, readsDateOfBirth: boolean): JsonObject {
  const invalidRequest = { ...CATALOG_REQUEST_MESSAGES } as Record<string, string>;
  if (!readsDateOfBirth) delete invalidRequest.date_of_birth_not_text;
  return {
    post: {
      operationId,
      tags: ['lookups'],
      summary,
      description: [
        `Requiere la bandera ${flag}. Se cobra: cada consulta resuelta con éxito (200, incluso un 200 con todos sus campos en null) descuenta la tarifa de la integración de su saldo prepagado; un 400 de la fuente, 401, 403, 404, 429, 500 y 502 no se cobran. Con saldo cero los catálogos responden 402 y la consulta no llega a la fuente.`,
        'Límites: un contador de 30 por minuto por integración, compartido por los tres catálogos, más el global de 100 cada 15 minutos por IP. Ningún 429 lleva Retry-After. Cada consulta tiene un tope de 30 segundos, luego 502: el tiempo de espera del cliente debe superar 30 segundos. Un 502 no se resolvió ni se cobró: reintentar es seguro, con espera exponencial.',
        'Toda consulta que llega a la fuente queda registrada con el identificador enviado; los rechazos antes de la consulta (400 sin identificador, credenciales, bandera, saldo, el límite por minuto) no.',
        readsDateOfBirth ? 'date_of_birth se reenvía tal como llega cuando la fuente no tiene copia del registro.' : 'Esta consulta ignora date_of_birth.',
      ].join('\n\n'),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(catalogRequestSchema), example: { nit: '576937-K', actualizado: false } } },
      },
      responses: withRequestId({
        '200': { description: 'The record. Every field is present; null means not reported.', content: { 'application/json': { schema: ref(success) } } },
        '400': catalogError('Neither nit nor cui usable, another malformed body, or the source rejected the query data.', {
          ...invalidRequest,
          sourceRejectedData: CATALOG_MESSAGES.sourceRejectedData,
        }),
        '401': catalogError('Credentials that match no integration (also only one of the two headers), or the source rejected the service\'s authentication.', pick(CATALOG_MESSAGES, 'integrationNotFound', 'sourceAuthRejected')),
        '402': catalogError("The integration's prepaid balance is exhausted, or the query service's own. The query did not run and was not charged.", pick(CATALOG_MESSAGES, 'balanceExhausted', 'sourceBalanceExhausted')),
        '403': catalogError('No integration credentials, the lookup is not enabled for the integration, or the source denies this query type.', pick(CATALOG_MESSAGES, 'credentialsRequired', 'catalogNotEnabled', 'sourceDeniedQueryType')),
        '404': catalogError('The source reports no result or marked the query failed: the datum is not available now, which does not mean the taxpayer does not exist.', pick(CATALOG_MESSAGES, 'notFound')),
        '429': {
          description: 'The shared catalog limit, the source limiting queries (both JSON), or the global per-IP limit (plain text: check Content-Type before parsing).',
          content: {
            'application/json': { schema: ref(catalogErrorSchema), examples: examples(pick(CATALOG_MESSAGES, 'rateLimited', 'sourceRateLimited'), 'message') },
            ...GLOBAL_LIMIT_CONTENT,
          },
        },
        '500': catalogError('Unhandled failure; the text varies and must not be used as a condition.', pick(CATALOG_MESSAGES, 'unhandled')),
        '502': catalogError('The source did not respond or failed, or the 30-second ceiling passed. Not charged; safe to retry with backoff.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
      }),
    },
  };
}

export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, JsonObject>;
  components: { schemas: Record<string, JsonObject>; securitySchemes: Record<string, JsonObject> };
}

/** The document; `baseUrl` is this deployment's {base_url} (origin + /api). */
export function buildOpenApiDocument(baseUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'API de consulta de contribuyentes (integradores)',
      version: CONTRACT_REVISION,
      description: [
        'Cinco consultas de contribuyentes para integradores: una persona en el registro nacional de personas (RENAP) por CUI, hasta 50 contribuyentes en el RTU por NIT, y tres catálogos (CUI/NIT, el RTU completo y el estado de cumplimiento, omisos) que se cobran de un saldo prepagado.',
        'Autenticación: las dos cabeceras x-integracion-login (se compara en minúsculas con el nombre de la integración) y x-integracion-token, en cada solicitud; ninguna sirve sola. Un administrador habilita cada consulta por separado para cada integración.',
        'Límites: 100 solicitudes cada 15 minutos por IP en toda la API (429 con cuerpo de texto plano), y por integración: 30 por minuto en /renap/buscar-cui, 50 por minuto en /rtu/nits y 30 por minuto compartidos por los tres catálogos. Las ventanas se reinician a más tardar 60 segundos después de su primera solicitud. Los límites pueden reducirse sin aviso.',
        'Decida por el estado HTTP, no por el texto de los mensajes: pueden cambiar sin aviso. Los mensajes de los catálogos no llevan tildes.',
        `La versión es la fecha de revisión del contrato (${CONTRACT_REVISION}); la API no lleva versión en sus rutas ni en sus cabeceras.`,
      ].join('\n\n'),
    },
    servers: [{ url: baseUrl, description: 'This deployment' }],
    security: [{ integracionLogin: [], integracionToken: [] }],
    tags: [{ name: 'lookups', description: 'The five taxpayer lookups.' }],
    paths: {
      ...registryPaths(),
      '/catalogos/cui-nit': catalogPath('lookupCuiNit', 'El NIT de un CUI, o el CUI de un NIT', 'is_cui_nit_enabled', cuiNitSuccessSchema, false),
      '/catalogos/rtu': catalogPath('lookupRtuV2', 'Régimen, afiliaciones, obligaciones y características especiales de un contribuyente', 'is_rtu_v2_enabled', rtuSuccessSchema, true),
      '/catalogos/omisos': catalogPath('lookupOmisos', 'Si la administración tributaria registra obligaciones omisas o un proceso de cobro coactivo', 'is_omisos_enabled', omisosSuccessSchema, false),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        integracionLogin: { type: 'apiKey', in: 'header', name: 'x-integracion-login', description: 'The integration name, compared lowercased.' },
        integracionToken: { type: 'apiKey', in: 'header', name: 'x-integracion-token', description: 'The integration secret. Never in the query string or the body.' },
      },
    },
  };
}
