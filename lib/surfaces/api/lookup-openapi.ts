// The five lookups in the OpenAPI document: one plain description each (LOOKUP_OPERATIONS), and one
// builder per family that turns it into the path, with the answers route.ts, registry-responses.ts
// and catalog-responses.ts give and the example answers of success-examples.json.
import type { z } from 'zod';
import { catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema } from '@/lib/contract/requests';
import { catalogErrorSchema, registryErrorSchema, renapEnvelopeSchema, rtuNitsEnvelopeSchema } from '@/lib/contract/envelopes';
import { CATALOG_OPERATIONS } from '@/lib/sources/catalogs';
import { CATALOG_MESSAGES, REGISTRY_MESSAGES, rtuFoundMessage } from '@/lib/contract/messages';
import type { RegistryRequestProblem } from '@/lib/flows/lookups/registry-request';
import { CATALOG_LOOKUPS, type LookupKind } from '@/db/schema';
import { catalogPathName, LOOKUP_CATALOGUE } from '@/lib/vocabulary/lookups';
import { CATALOG_REQUEST_MESSAGES } from './catalog-responses';
import { REGISTRY_FAILED_MESSAGE, REGISTRY_REQUEST_MESSAGES } from './registry-responses';
import { SUCCESS_EXAMPLES, type LookupPath } from './success-examples';
import { CONSTANCIA_PARAMETER, withConstanciaHeaders } from './constancia-openapi';
import {
  catalogError,
  examples,
  GLOBAL_LIMIT_CONTENT,
  IDEMPOTENCY_KEY_PARAMETER,
  pick,
  ref,
  registryError,
  withReplayHeader,
  withRequestId,
  type JsonObject,
  type Paths,
} from './openapi-parts';

interface LookupBase {
  path: LookupPath;
  operationId: string;
  summary: string;
  /** The contract's name of the flag that enables the lookup for an integration. */
  flag: string;
  request: z.ZodType;
  /** The 200's body. */
  success: z.ZodType;
}

/** RENAP and RTU by NIT: free, a per-minute limit each, the registry's own status in its envelope. */
export interface RegistryLookup extends LookupBase {
  family: 'registry';
  perMinute: number;
  /** What the HTTP status and the envelope say, as the description's second paragraph. */
  statusNote: string;
  notEnabled: 'renapNotEnabled' | 'rtuNotEnabled';
  answered: {
    description: string;
    /** Named examples of the 200; without them the recorded example answer is the only one. */
    examples?: Record<string, { summary: string; value: unknown }>;
  };
  invalidRequest: {
    description: string;
    problems: RegistryRequestProblem[];
    /** Named examples of the 400 beyond the malformed requests' texts. */
    examples?: Record<string, { summary: string; value: unknown }>;
  };
  /** Other statuses the registry answers about the person, in the envelope: status to description. */
  envelopeAnswers?: Record<string, string>;
}

/** The catalogs: charged from the prepaid balance, a per-minute limit they share, `{data}` or `{message}` (lib/sources/catalogs.ts). */
export interface CatalogLookup extends LookupBase {
  family: 'catalog';
  readsDateOfBirth: boolean;
}

export type LookupOperation = RegistryLookup | CatalogLookup;

/** What the lookup catalogue (lib/vocabulary/lookups.ts) declares of a lookup: its path under {base_url}, operationId, summary and flag. */
function declared(lookup: LookupKind): Pick<LookupBase, 'path' | 'operationId' | 'summary' | 'flag'> {
  const { path, operationId, summary, flag } = LOOKUP_CATALOGUE[lookup];
  return { path: path.slice('/api'.length) as LookupPath, operationId, summary, flag };
}

/** The five lookups, in the contract's order. */
export const LOOKUP_OPERATIONS: LookupOperation[] = [
  {
    family: 'registry',
    ...declared('renap'),
    perMinute: 30,
    statusNote:
      'El estado HTTP es el que respondió el registro, y success se calcula a partir de él; responseCode es un campo del cuerpo del propio registro. Un 200 con success true puede traer un responseCode de error (por ejemplo 404 cuando el CUI no tiene registro): revise los dos.',
    request: renapRequestSchema,
    success: renapEnvelopeSchema,
    notEnabled: 'renapNotEnabled',
    answered: { description: 'La respuesta del registro, en el sobre de la consulta.' },
    invalidRequest: {
      description: 'Falta cui o el cuerpo no se puede usar ({error}); o el registro rechazó el CUI (el sobre de la consulta, con su estado).',
      problems: ['cui_missing', 'cui_not_text', 'content_type', 'malformed', 'not_an_object', 'too_large', 'identifier_too_long'],
    },
    envelopeAnswers: {
      '404': 'El registro respondió 404: el sobre de la consulta, con success false.',
      '4XX': 'Cualquier otro estado 4xx que el registro responda sobre la persona (salvo 401, 403, 407 y 429, que se refieren al propio servicio y se vuelven 500): el sobre de la consulta, con ese estado y success false.',
    },
  },
  {
    family: 'registry',
    ...declared('rtu_nits'),
    perMinute: 50,
    statusNote:
      'El estado HTTP es igual a responseCode. Una consulta sin coincidencias es un 200 con un arreglo data vacío, no un error. Los registros se devuelven tal como el registro los publica.',
    request: rtuNitsRequestSchema,
    success: rtuNitsEnvelopeSchema,
    notEnabled: 'rtuNotEnabled',
    answered: {
      description: 'Los registros encontrados.',
      examples: {
        found: { summary: 'Dos NIT encontrados', value: SUCCESS_EXAMPLES['/rtu/nits'].response },
        none: { summary: 'Ninguna coincidencia: también un 200', value: { success: true, data: [], message: rtuFoundMessage(0, 2), responseCode: 200 } },
      },
    },
    invalidRequest: {
      description: 'Falta nits, está vacío o no es un arreglo ({error}); o trae más de 50 NIT (el sobre, rechazado antes de consultar el registro).',
      problems: ['nits_missing', 'nit_not_text', 'content_type', 'malformed', 'not_an_object', 'too_large', 'identifier_too_long'],
      examples: {
        tooManyNits: {
          summary: REGISTRY_MESSAGES.tooManyNits,
          value: { success: false, message: REGISTRY_MESSAGES.tooManyNits, responseCode: 400, data: null },
        },
      },
    },
  },
  ...CATALOG_LOOKUPS.map((catalog): CatalogLookup => {
    const operation = CATALOG_OPERATIONS[catalogPathName(catalog)];
    return { family: 'catalog', ...declared(catalog), request: catalogRequestSchema, success: operation.success, readsDateOfBirth: operation.sendsDateOfBirth };
  }),
];

/** The paths of the five lookups, in the order of LOOKUP_OPERATIONS. */
export function lookupPaths(): Paths {
  return Object.fromEntries(LOOKUP_OPERATIONS.map((lookup) => [lookup.path, lookupPath(lookup)]));
}

/** One lookup's path item, from its description. */
export function lookupPath(lookup: LookupOperation): JsonObject {
  return { post: lookup.family === 'registry' ? registryOperation(lookup) : catalogOperation(lookup) };
}

function registryOperation(lookup: RegistryLookup): JsonObject {
  const { path, answered, invalidRequest } = lookup;
  const envelope = (description: string) => ({ description, content: { 'application/json': { schema: ref(lookup.success) } } });
  return {
    operationId: lookup.operationId,
    tags: ['consultas'],
    summary: lookup.summary,
    description: [
      `Requiere la bandera ${lookup.flag}. Límite propio: ${lookup.perMinute} por minuto por integración, más el global de 100 cada 15 minutos por IP. No se cobra. Toda consulta que llega al registro queda registrada.`,
      lookup.statusNote,
    ].join('\n\n'),
    parameters: [CONSTANCIA_PARAMETER],
    requestBody: { required: true, content: { 'application/json': { schema: ref(lookup.request), example: SUCCESS_EXAMPLES[path].request } } },
    responses: withConstanciaHeaders(withRequestId({
      '200': {
        description: answered.description,
        content: {
          'application/json': answered.examples
            ? { schema: ref(lookup.success), examples: answered.examples }
            : { schema: ref(lookup.success), example: SUCCESS_EXAMPLES[path].response },
        },
      },
      '400': {
        description: invalidRequest.description,
        content: {
          'application/json': {
            schema: { oneOf: [ref(registryErrorSchema), ref(lookup.success)] },
            examples: { ...examples(pick(REGISTRY_REQUEST_MESSAGES, ...invalidRequest.problems), 'error'), ...invalidRequest.examples },
          },
        },
      },
      ...Object.fromEntries(Object.entries(lookup.envelopeAnswers ?? {}).map(([status, description]) => [status, envelope(description)])),
      '403': registryError('Sin credenciales de integración (en estas rutas, también un par incorrecto o incompleto), o la consulta no está habilitada para su integración.', pick(REGISTRY_MESSAGES, 'authenticationRequired', lookup.notEnabled)),
      '429': {
        description: 'El límite por minuto de la ruta para su integración (JSON), o el límite global por IP (texto plano: revise content-type antes de parsear).',
        content: {
          'application/json': { schema: ref(registryErrorSchema), examples: examples(pick(REGISTRY_MESSAGES, 'rateLimited'), 'error') },
          ...GLOBAL_LIMIT_CONTENT,
        },
      },
      '500': registryError('Falla al consultar el registro. El texto no está definido: no lo use como condición.', { registryFailed: REGISTRY_FAILED_MESSAGE }),
    })),
  };
}

function catalogOperation(lookup: CatalogLookup): JsonObject {
  const { path, readsDateOfBirth } = lookup;
  const invalidRequest = { ...CATALOG_REQUEST_MESSAGES } as Record<string, string>;
  if (!readsDateOfBirth) delete invalidRequest.date_of_birth_not_text;
  // The same text as the source's rejection (below): the 400's description names these cases.
  delete invalidRequest.idempotency_key_invalid;
  delete invalidRequest.idempotency_key_reused;
  return {
    operationId: lookup.operationId,
    tags: ['consultas'],
    summary: lookup.summary,
    description: [
      `Requiere la bandera ${lookup.flag}. Se cobra: cada consulta resuelta con éxito (200, incluso un 200 con todos sus campos en null) descuenta la tarifa de la integración de su saldo prepagado; un 400 de la fuente, 401, 403, 404, 429, 500 y 502 no se cobran. Con saldo cero los catálogos responden 402 y la consulta no llega a la fuente.`,
      'Límites: un contador de 30 por minuto por integración, compartido por los tres catálogos, más el global de 100 cada 15 minutos por IP. Ningún 429 lleva Retry-After. Cada consulta tiene un tope de 30 segundos, luego 502: el tiempo de espera del cliente debe superar 30 segundos. Un 502 no se resolvió ni se cobró: reintentar es seguro, con espera exponencial.',
      'Toda consulta que llega a la fuente queda registrada con el identificador enviado; los rechazos antes de la consulta (400 sin identificador, credenciales, bandera, saldo, el límite por minuto) no.',
      readsDateOfBirth ? 'date_of_birth se reenvía tal como llega cuando la fuente no tiene copia del registro.' : 'Esta consulta ignora date_of_birth.',
      'Reintentos seguros: envíe la cabecera opcional Idempotency-Key y repita la solicitud con la misma clave y el mismo cuerpo si no recibió respuesta (por ejemplo, su cliente cortó antes de los 30 segundos). En 24 horas la consulta se cobra y llega a la fuente una sola vez; las repeticiones reciben la misma respuesta con Idempotency-Replayed: true.',
    ].join('\n\n'),
    parameters: [IDEMPOTENCY_KEY_PARAMETER, CONSTANCIA_PARAMETER],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref(lookup.request), example: SUCCESS_EXAMPLES[path].request } },
    },
    responses: withConstanciaHeaders(withReplayHeader(withRequestId({
      '200': {
        description: 'El registro. Todos los campos están presentes; null significa que la fuente no lo reportó.',
        content: { 'application/json': { schema: ref(lookup.success), example: SUCCESS_EXAMPLES[path].response } },
      },
      '400': {
        ...catalogError('Ni nit ni cui se pueden usar, el cuerpo está mal formado de otra manera, o la fuente rechazó los datos de la consulta. También (con el mensaje de datos no válidos) una Idempotency-Key vacía, de más de 255 caracteres o con caracteres no imprimibles, o una clave ya usada en las últimas 24 horas con otro cuerpo u otra ruta: la cabecera X-Motivo-Rechazo dice cuál.', {
          ...invalidRequest,
          sourceRejectedData: CATALOG_MESSAGES.sourceRejectedData,
        }),
        headers: {
          'X-Motivo-Rechazo': {
            description: 'Solo cuando el 400 se debe a la Idempotency-Key: idempotency-key-invalid (clave vacía, demasiado larga o con caracteres no imprimibles) o idempotency-key-reused (la clave ya se usó con otro cuerpo u otra ruta). Ausente en cualquier otro 400.',
            schema: { type: 'string', enum: ['idempotency-key-invalid', 'idempotency-key-reused'] },
          },
        },
      },
      '401': catalogError('Credenciales que no corresponden a ninguna integración (o solo una de las dos cabeceras), o la fuente rechazó la autenticación del servicio.', pick(CATALOG_MESSAGES, 'integrationNotFound', 'sourceAuthRejected')),
      '402': catalogError('Sin saldo: el prepagado de su integración, o el del servicio de consultas. La consulta no se ejecutó ni se cobró. Si es el de su integración, vea el saldo en el portal de integradores (Inicio) y lo que lo movió (Movimientos); para recargar, un propietario o facturación deposita en una cuenta del servicio y lo reporta en Recargas del portal. Si es el del servicio, escriba a soporte.', pick(CATALOG_MESSAGES, 'balanceExhausted', 'sourceBalanceExhausted')),
      '403': catalogError('Sin credenciales de integración, consulta no habilitada para su integración, o la fuente niega ese tipo de consulta.', pick(CATALOG_MESSAGES, 'credentialsRequired', 'catalogNotEnabled', 'sourceDeniedQueryType')),
      '404': catalogError('La fuente no tiene el dato ahora, o marcó la consulta como fallida. No significa que el contribuyente no exista. No se cobra.', pick(CATALOG_MESSAGES, 'notFound')),
      '429': {
        description: 'El límite compartido de los catálogos o el límite de la fuente (ambos JSON), o el límite global por IP (texto plano: revise content-type antes de parsear).',
        content: {
          'application/json': { schema: ref(catalogErrorSchema), examples: examples(pick(CATALOG_MESSAGES, 'rateLimited', 'sourceRateLimited'), 'message') },
          ...GLOBAL_LIMIT_CONTENT,
        },
      },
      '500': catalogError('Falla no controlada; el texto varía y no debe usarse como condición.', pick(CATALOG_MESSAGES, 'unhandled')),
      '502': catalogError('La fuente no respondió, falló o pasó el techo de 30 segundos (también cuando una solicitud anterior con la misma Idempotency-Key sigue en curso después de 30 segundos). No se resolvió ni se cobró: es seguro reintentar con espera exponencial.', pick(CATALOG_MESSAGES, 'sourceUnavailable')),
    }), ['200', '400', '404'])),
  };
}
