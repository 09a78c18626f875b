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
        summary: 'A person in the national person registry, by CUI',
        description:
          'Requires the flag is_renap_enabled. Own limit: 30 per minute per integration, plus the global 100 per 15 minutes per IP. Not billed. Every query that reaches the registry is recorded.\n\nThe HTTP status is the status the registry answered with, and success is computed from it; responseCode is a field of the registry\'s own body. A 200 with success true can carry an error responseCode (for example 404 when the CUI has no record): check both.',
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
        summary: 'Up to 50 taxpayers in the unified tax registry (RTU), by NIT',
        description:
          'Requires the flag is_rtu_enabled. Own limit: 50 per minute per integration, plus the global 100 per 15 minutes per IP. Not billed. Every query that reaches the registry is recorded.\n\nThe HTTP status equals responseCode. A query without matches is a 200 with an empty data array, not an error. The records are returned as the registry publishes them.',
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
        `Requires the flag ${flag}. Billed: each query resolved successfully (200, including a 200 whose fields are all null) deducts the integration's tariff from its prepaid balance; a 400 from the source, 401, 403, 404, 429, 500 and 502 are not charged. At zero balance the catalogs answer 402 and the query does not reach the source.`,
        'Limits: one counter of 30 per minute per integration, shared by the three catalogs, plus the global 100 per 15 minutes per IP. No 429 carries Retry-After. Each query has a ceiling of 30 seconds, then 502: client time-outs should exceed 30 seconds. A 502 was not resolved and not charged: retrying is safe, with exponential backoff.',
        'Every query that reaches the source is recorded with the identifier sent; rejections before the query (400 without identifier, credentials, flag, balance, the per-minute limit) are not.',
        readsDateOfBirth ? 'date_of_birth is forwarded as received when the source holds no copy of the record.' : 'date_of_birth is ignored by this lookup.',
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
      title: 'Taxpayer Lookup Integration API',
      version: CONTRACT_REVISION,
      description: [
        'Five taxpayer lookups for integrators: a person in the national person registry by CUI, up to 50 taxpayers in the RTU by NIT, and three catalogs (CUI/NIT resolution, the full RTU record, and compliance status, omisos) billed from a prepaid balance.',
        'Authentication: both headers x-integracion-login (compared lowercased with the integration name) and x-integracion-token, on every request; neither works alone. Each lookup is enabled separately per integration by an administrator.',
        'Limits: 100 requests per 15 minutes per IP over the whole API (429 with a plain-text body), plus per integration: 30 per minute on /renap/buscar-cui, 50 per minute on /rtu/nits, 30 per minute shared by the three catalogs. Windows reset at most 60 seconds after their first request. Limits may be tightened without notice.',
        'Branch on the HTTP status, not on message texts: they may change without notice. Catalog messages carry no accents.',
        `The version label is the revision date of the contract (${CONTRACT_REVISION}); the API carries no version in its paths or headers.`,
      ].join('\n\n'),
    },
    servers: [{ url: baseUrl, description: 'This deployment' }],
    security: [{ integracionLogin: [], integracionToken: [] }],
    tags: [{ name: 'lookups', description: 'The five taxpayer lookups.' }],
    paths: {
      ...registryPaths(),
      '/catalogos/cui-nit': catalogPath('lookupCuiNit', 'The NIT for a CUI, or the CUI for a NIT', 'is_cui_nit_enabled', cuiNitSuccessSchema, false),
      '/catalogos/rtu': catalogPath('lookupRtuV2', 'Regime, affiliations, obligations and special traits of one taxpayer', 'is_rtu_v2_enabled', rtuSuccessSchema, true),
      '/catalogos/omisos': catalogPath('lookupOmisos', 'Whether the tax authority records unfiled obligations or a coercive collection process', 'is_omisos_enabled', omisosSuccessSchema, false),
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
