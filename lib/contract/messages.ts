// Every text the contract shows integrators, byte for byte. Code and tests import these; only
// the conformance tests quote the contract literally, so that a changed text fails them.

/** Person registry (/renap/buscar-cui) and RTU by NIT (/rtu/nits): body key `error`. */
export const REGISTRY_MESSAGES = {
  cuiRequired: 'CUI is required',
  nitsRequired: 'Array of NITs is required',
  tooManyNits: 'Máximo 50 NITs por petición',
  authenticationRequired: 'Integration authentication required.',
  renapNotEnabled: 'RENAP access not enabled.',
  rtuNotEnabled: 'RTU access not enabled.',
  rateLimited: 'Rate limit exceeded.',
} as const;

/** The three catalogs (/catalogos/*): body key `message`, no accents except where the contract has them. */
export const CATALOG_MESSAGES = {
  identifierRequired: 'Envia un NIT o un CUI para consultar.',
  sourceRejectedData: 'Los datos de la consulta no son validos.',
  integrationNotFound: 'Integración no encontrada con estas credenciales.',
  sourceAuthRejected: 'No fue posible autenticar la consulta. Escribe a soporte.',
  balanceExhausted: 'Tu integracion no tiene saldo disponible. Recarga para seguir consultando.',
  sourceBalanceExhausted: 'El servicio de consultas no tiene saldo disponible. Escribe a soporte.',
  credentialsRequired: 'Se requieren credenciales de integracion.',
  catalogNotEnabled: 'Esta consulta no esta habilitada para tu integracion.',
  sourceDeniedQueryType: 'Esta consulta no esta habilitada. Escribe a soporte.',
  notFound: 'No encontramos informacion para los datos enviados.',
  rateLimited: 'Demasiadas consultas seguidas. Intenta en un minuto.',
  sourceRateLimited: 'Demasiadas consultas seguidas. Intenta de nuevo en unos minutos.',
  unhandled: 'Algo salió mal',
  sourceUnavailable: 'El servicio de consultas no esta disponible en este momento.',
} as const;

/** The RTU-by-NIT envelope's message: how many records were found of how many requested. */
export function rtuFoundMessage(found: number, requested: number): string {
  return `Se encontraron ${found} de ${requested} NITs`;
}

/** The contract's revision label (Versioning rule 2); the OpenAPI document uses it as its version. */
export const CONTRACT_REVISION = '2026-11-01';
