// One error type per cause the contract names. A status alone does not say the cause: two 401s,
// two 402s, three 403s and three 429s differ only by their message (the contract's "Errors" rules),
// so each is decided here by status and message, once, for every caller.
import { CAUSE_OF_MESSAGE, CAUSE_OF_STATUS } from './contract-messages.js';

/** Every answer the gateway did not resolve, with what the integrator needs to report it. */
export class ErrorDeConsulta extends Error {
  constructor(
    message: string,
    /** The HTTP status (0 when no answer arrived). */
    readonly status: number,
    /** The answer's x-request-id: quote it to support. Null when no answer arrived. */
    readonly requestId: string | null,
    /** The answer's body as received (parsed JSON, or text). */
    readonly body: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request lacks a usable identifier, or is malformed. Fix the request; do not retry it. */
export class SolicitudNoValida extends ErrorDeConsulta {}
/** 400: the source rejected the data of the query. */
export class DatosRechazadosPorLaFuente extends ErrorDeConsulta {}
/** 400: the Idempotency-Key was used in the last 24 hours with another body or route. */
export class ClaveDeIdempotenciaReusada extends ErrorDeConsulta {}
/** 401: the two credential headers match no integration (or only one was sent). */
export class IntegracionNoEncontrada extends ErrorDeConsulta {}
/** 401: the source rejected the service's own authentication: write to support. */
export class AutenticacionDelServicioRechazada extends ErrorDeConsulta {}
/** 402: the integration's prepaid balance does not pay the query; it did not run and was not charged. */
export class SaldoInsuficiente extends ErrorDeConsulta {}
/** 402: the service's own balance with the source is exhausted: write to support. */
export class SaldoDelServicioAgotado extends ErrorDeConsulta {}
/** 403: the request carried no integration credentials. */
export class CredencialesRequeridas extends ErrorDeConsulta {}
/** 403: this lookup is not enabled for the integration. */
export class ConsultaNoHabilitada extends ErrorDeConsulta {}
/** 403: the source does not allow this query type to the service: write to support. */
export class ConsultaNegadaPorLaFuente extends ErrorDeConsulta {}
/** 404: the source has no information for these data now (not that the taxpayer does not exist). */
export class NoEncontrado extends ErrorDeConsulta {}
/** 429: the integration's per-minute limit for this route. Not a trigger for automatic retries. */
export class LimitePorMinuto extends ErrorDeConsulta {}
/** 429: the source is limiting queries. */
export class FuenteLimitando extends ErrorDeConsulta {}
/** 429: the API's global limit per IP address (100 per 15 minutes), answered in the limiter's own body. */
export class LimiteGlobalPorIp extends ErrorDeConsulta {}
/** 500: a failure the gateway did not handle, or (registries) querying the registry failed. */
export class ErrorInterno extends ErrorDeConsulta {}
/** 502: the source did not answer in time or failed: not resolved, not charged; safe to retry (the client already did). */
export class ServicioNoDisponible extends ErrorDeConsulta {}
/** No answer arrived (a network failure or the client's time-out) after every retry. */
export class SinRespuesta extends ErrorDeConsulta {}

type ErrorType = new (message: string, status: number, requestId: string | null, body: unknown) => ErrorDeConsulta;

type Cause = (typeof CAUSE_OF_MESSAGE)[keyof typeof CAUSE_OF_MESSAGE] | (typeof CAUSE_OF_STATUS)[keyof typeof CAUSE_OF_STATUS];

const TYPES: Record<Cause, ErrorType> = {
  ErrorInterno,
  SolicitudNoValida,
  DatosRechazadosPorLaFuente,
  IntegracionNoEncontrada,
  AutenticacionDelServicioRechazada,
  SaldoInsuficiente,
  SaldoDelServicioAgotado,
  CredencialesRequeridas,
  ConsultaNoHabilitada,
  ConsultaNegadaPorLaFuente,
  NoEncontrado,
  LimitePorMinuto,
  FuenteLimitando,
  ServicioNoDisponible,
};

/** The contract's messages, byte for byte (generated from the app's own: ./contract-messages.ts), and the cause each one names. */
const BY_MESSAGE: Record<string, ErrorType> = Object.fromEntries(Object.entries(CAUSE_OF_MESSAGE).map(([message, cause]) => [message, TYPES[cause]]));

/** When the message is not one the contract lists: the cause the status alone allows (./contract-messages.ts). */
const BY_STATUS: Record<number, ErrorType> = Object.fromEntries(Object.entries(CAUSE_OF_STATUS).map(([status, cause]) => [status, TYPES[cause]]));

/** The contract's error for an answer that is not a success. */
export function errorOf(status: number, requestId: string | null, body: unknown, headers: { get(name: string): string | null }): ErrorDeConsulta {
  const message = messageOf(body);
  // The global limiter answers in its own body, not the API's JSON (the contract's "Errors": check Content-Type).
  if (status === 429 && !(headers.get('content-type') ?? '').includes('application/json')) {
    return new LimiteGlobalPorIp(typeof body === 'string' && body !== '' ? body : 'Límite global por IP', status, requestId, body);
  }
  if (status === 400 && headers.get('x-motivo-rechazo') === 'idempotency-key-reused') return new ClaveDeIdempotenciaReusada(message ?? '', status, requestId, body);
  const type = (message !== undefined ? BY_MESSAGE[message] : undefined) ?? BY_STATUS[status] ?? ErrorDeConsulta;
  return new type(message ?? `HTTP ${status}`, status, requestId, body);
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error']) if (typeof record[key] === 'string') return record[key] as string;
  return undefined;
}
