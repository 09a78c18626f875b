// The OpenAPI 3.1 document, generated from the same zod schemas the handlers and normalizers use
// and the same message constants they answer with, so it cannot drift from what the API does. Each
// capability's paths live beside its handlers' code (lib/surfaces/api/*-openapi.ts); this module
// assembles them with the component schemas, the credentials and the introduction.
import { z } from 'zod';
// The components are listed in the order their schemas were registered, which is the order their
// modules first load: these imports come before the paths' modules so that the document keeps this
// order (the lookups, jobs, records, watch lists, account, status), whatever the paths import.
import { catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema } from '@/lib/contract/requests';
import { renapEnvelopeSchema, rtuNitsEnvelopeSchema } from '@/lib/contract/envelopes';
import { bulkJobRequestSchema } from '@/lib/flows/bulk/requests';
import { bulkJobPageSchema, bulkJobSchema, bulkResultRowSchema } from '@/lib/flows/bulk/schemas';
import { recordDetailSchema, recordPageSchema, recordSummarySchema, requestAnswerSchema } from '@/lib/surfaces/api/records';
import {
  watchListChangesSchema,
  watchListCreatedSchema,
  watchListEditedSchema,
  watchListEditSchema,
  watchListPageSchema,
  watchListRequestSchema,
  watchListSchema,
} from '@/lib/flows/watch-lists/schemas';
import { accountSchema, movementsSchema } from '@/lib/surfaces/api/account-schemas';
import { publicStatusSchema } from '@/lib/reactions/status-page/public-schema';
import { CONTRACT_REVISION } from '@/lib/contract/messages';
import type { JsonObject, Paths } from '@/lib/surfaces/api/openapi-parts';
import { lookupPaths } from '@/lib/surfaces/api/lookup-openapi';
import { bulkPaths } from '@/lib/surfaces/api/bulk-openapi';
import { watchListPaths } from '@/lib/surfaces/api/watch-list-openapi';
import { accountPaths } from '@/lib/surfaces/api/account-openapi';
import { statusPaths } from '@/lib/surfaces/api/status-openapi';
import { recordPaths } from '@/lib/surfaces/api/records-openapi';
import { constanciaPaths } from '@/lib/surfaces/api/constancia-openapi';

function componentSchemas(): Record<string, JsonObject> {
  // Make sure every schema is registered before the registry is converted.
  void [catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema, renapEnvelopeSchema, rtuNitsEnvelopeSchema, bulkJobRequestSchema, bulkJobSchema, bulkResultRowSchema, watchListRequestSchema, watchListSchema, watchListCreatedSchema, watchListChangesSchema, bulkJobPageSchema, watchListPageSchema, watchListEditSchema, watchListEditedSchema, recordSummarySchema, recordPageSchema, recordDetailSchema, requestAnswerSchema, accountSchema, movementsSchema, publicStatusSchema];
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

export interface OpenApiDocument extends JsonObject {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Paths;
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
        'Tokens: una integración puede tener varios tokens con nombre, y cualquiera de ellos sirve. Para cambiar el token sin cortar el servicio, rótelo con superposición (1 hora, 24 horas o 7 días) en Credenciales del portal de integradores (un propietario o un desarrollador): durante ese tiempo funcionan el token anterior y el nuevo; al terminar, el anterior se rechaza como una credencial desconocida. Un token revocado deja de funcionar de inmediato.',
        'Direcciones IP permitidas: una integración puede limitar sus solicitudes a una lista de direcciones o rangos CIDR (IPv4 e IPv6). Desde otra dirección, las credenciales reciben la misma respuesta que unas credenciales incorrectas (401 en los catálogos, 403 en /renap/buscar-cui y /rtu/nits), y la solicitud no se registra ni se cobra.',
        'Límites: 100 solicitudes cada 15 minutos por IP en toda la API (429 con cuerpo de texto plano), y por integración: 30 por minuto en /renap/buscar-cui, 50 por minuto en /rtu/nits y 30 por minuto compartidos por los tres catálogos. Las ventanas se reinician a más tardar 60 segundos después de su primera solicitud. Los límites pueden reducirse sin aviso.',
        'Decida por el estado HTTP, no por el texto de los mensajes: pueden cambiar sin aviso. Los mensajes de los catálogos se escriben sin tildes, salvo dos que las llevan tal como los fija el contrato: «Integración no encontrada con estas credenciales.» (401) y «Algo salió mal» (500).',
        `La versión es la fecha de revisión del contrato (${CONTRACT_REVISION}); la API no lleva versión en sus rutas ni en sus cabeceras.`,
      ].join('\n\n'),
    },
    servers: [{ url: baseUrl, description: 'Este ambiente' }],
    security: [{ integracionLogin: [], integracionToken: [] }],
    tags: [
      { name: 'consultas', description: 'Las cinco consultas de contribuyentes.' },
      { name: 'lotes', description: 'Listas de identificadores consultadas en segundo plano (una extensión junto a las cinco consultas).' },
      { name: 'vigilancias', description: 'Listas de NIT guardadas que se consultan cada mes o cada semana, avisando solo lo que cambió.' },
      { name: 'cuenta', description: 'Su cuenta: saldo, tarifa, límites, gasto del mes y movimientos del saldo, como los muestra el portal.' },
      { name: 'estado', description: 'El estado público de las fuentes, sin credenciales.' },
      { name: 'constancias', description: 'Constancias de consulta: la respuesta del registro firmada, verificable sin la pasarela, y su registro público.' },
      { name: 'historial', description: 'Las consultas registradas de su integración y lo que pasó con cada solicitud, por su x-request-id, como en el portal.' },
    ],
    paths: {
      ...lookupPaths(),
      ...bulkPaths(),
      ...watchListPaths(),
      ...accountPaths(),
      ...statusPaths(),
      ...recordPaths(),
      ...constanciaPaths(),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        integracionLogin: { type: 'apiKey', in: 'header', name: 'x-integracion-login', description: 'El nombre de la integración; se compara en minúsculas.' },
        integracionToken: { type: 'apiKey', in: 'header', name: 'x-integracion-token', description: 'Uno de los tokens vigentes de la integración (varios pueden estarlo durante una rotación). Nunca en la URL ni en el cuerpo.' },
      },
    },
  };
}
