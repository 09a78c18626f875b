// The contract's answers whose causes share a status, and the error type every client library gives
// each (docs/clients.md): the two 401s, two 402s, three 403s, three 429s (the global limiter's body is
// text), the 400s with a reused Idempotency-Key apart, a 500 and a 502. Read by each library's test.
import { CATALOG_MESSAGES, REGISTRY_MESSAGES } from '@/lib/contract/messages';

const json = { 'content-type': 'application/json' };
export const PAIRED_ANSWERS: ReadonlyArray<[status: number, body: unknown, headers: Record<string, string>, type: string]> = [
  [401, { message: CATALOG_MESSAGES.integrationNotFound }, json, 'IntegracionNoEncontrada'],
  [401, { message: CATALOG_MESSAGES.sourceAuthRejected }, json, 'AutenticacionDelServicioRechazada'],
  [402, { message: CATALOG_MESSAGES.balanceExhausted }, json, 'SaldoInsuficiente'],
  [402, { message: CATALOG_MESSAGES.sourceBalanceExhausted }, json, 'SaldoDelServicioAgotado'],
  [403, { message: CATALOG_MESSAGES.credentialsRequired }, json, 'CredencialesRequeridas'],
  [403, { message: CATALOG_MESSAGES.catalogNotEnabled }, json, 'ConsultaNoHabilitada'],
  [403, { message: CATALOG_MESSAGES.sourceDeniedQueryType }, json, 'ConsultaNegadaPorLaFuente'],
  [403, { error: REGISTRY_MESSAGES.authenticationRequired }, json, 'CredencialesRequeridas'],
  [403, { error: REGISTRY_MESSAGES.renapNotEnabled }, json, 'ConsultaNoHabilitada'],
  [429, { message: CATALOG_MESSAGES.rateLimited }, json, 'LimitePorMinuto'],
  [429, { message: CATALOG_MESSAGES.sourceRateLimited }, json, 'FuenteLimitando'],
  [429, { error: REGISTRY_MESSAGES.rateLimited }, json, 'LimitePorMinuto'],
  [429, 'Too many requests', { 'content-type': 'text/plain' }, 'LimiteGlobalPorIp'],
  [400, { message: CATALOG_MESSAGES.identifierRequired }, json, 'SolicitudNoValida'],
  [400, { message: CATALOG_MESSAGES.sourceRejectedData }, json, 'DatosRechazadosPorLaFuente'],
  [400, { message: CATALOG_MESSAGES.sourceRejectedData }, { ...json, 'x-motivo-rechazo': 'idempotency-key-reused' }, 'ClaveDeIdempotenciaReusada'],
  [500, { error: 'cualquier texto' }, json, 'ErrorInterno'],
  [502, { message: CATALOG_MESSAGES.sourceUnavailable }, json, 'ServicioNoDisponible'],
];
