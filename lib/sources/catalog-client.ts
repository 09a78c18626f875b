// Client of the catalog data source behind /catalogos/* (docs/sources.md, "Catalog source").
// One POST per query, HTTP Basic with the client id and secret, a ceiling per query, no retries.
// Every outcome is a value: the normalized contract record, or one classified failure.

import type { CuiNitResultado, OmisosResultado, RtuResultado } from '../contract/catalog';
import type { CatalogAnswerMetadata } from './catalog-normalize';
import { CATALOG_KINDS, CATALOG_OPERATIONS, type CatalogKind, type CatalogResultByKind } from './catalogs';
import { CATALOG_REJECTION_CODES, type CatalogRejectionCode, type SourceFault } from './faults';
import { guarded, type SourceGuard } from './guard';
import { excerpt, joinUrl, parseJsonText, postJson } from './http';
import { classifyCatalogErrorStatus, sourceFailure, sourceSuccess, type SourceResult } from './outcomes';
import { asObject, member } from './source-values';

export type { CatalogKind, CatalogResultByKind } from './catalogs';

export interface CatalogQuery {
  nit?: string;
  cui?: string;
  /** true: the source asks the authority now (slower, newest data); false: its held copy. */
  actualizado: boolean;
  /** Forwarded as received, and only by the catalogs that send it (catalogs.ts); the source asks for it when it holds no copy. */
  dateOfBirth?: string;
}

/** The source's operation for each catalog. */
export const CATALOG_SOURCE_PATHS = Object.fromEntries(CATALOG_KINDS.map((kind) => [kind, CATALOG_OPERATIONS[kind].sourcePath])) as Readonly<Record<CatalogKind, string>>;

/** The request body in the source's own keys. Identifiers go as received: the source decides. */
export function catalogRequestBody(kind: CatalogKind, query: CatalogQuery): Record<string, string> {
  return {
    ...(query.nit === undefined ? {} : { nit_consulta: query.nit }),
    ...(query.cui === undefined ? {} : { cui_consulta: query.cui }),
    modo: query.actualizado ? 'EN_LINEA' : 'COPIA',
    ...(CATALOG_OPERATIONS[kind].sendsDateOfBirth && query.dateOfBirth !== undefined ? { fecha_nacimiento: query.dateOfBirth } : {}),
  };
}

const PROVIDER_NO_RESULT_CODE = 'SIN_RESULTADOS';

/** The provider's `error.codigo`, when its error body is its JSON. */
function providerErrorCode(bodyText: string): unknown {
  const parsed = parseJsonText(bodyText);
  if (!parsed.ok) return undefined;
  return member(asObject(member(asObject(parsed.value), 'error')), 'codigo');
}

function isProviderNoResult(bodyText: string): boolean {
  return providerErrorCode(bodyText) === PROVIDER_NO_RESULT_CODE;
}

/** An error status as a fault; a 400 keeps the provider's reason when it is one of the known codes. */
function statusFault(status: number, bodyText: string): SourceFault {
  if (status !== 400) return { kind: 'status', status };
  const code = providerErrorCode(bodyText);
  return (CATALOG_REJECTION_CODES as readonly unknown[]).includes(code) ? { kind: 'status', status, code: code as CatalogRejectionCode } : { kind: 'status', status };
}

/**
 * Classifies one answer of the source and normalizes its result. Pure, so every status and every
 * body can be tested without a network.
 * - a 2xx whose body is not a JSON object: the source failed (unavailable, 502);
 * - a 2xx with `estado_consulta` FALLIDA: the source marked the query failed (not_found, 404);
 * - any other 2xx is a success, normalized; a result with nothing recognizable gives all fields null;
 * - a 404 counts as "no result" only with the provider's own SIN_RESULTADOS body: a 404 from
 *   anything else (a wrong CATALOG_BASE_URL, a proxy) is the source failing (502), so a
 *   misconfiguration shows up in monitoring instead of as "no information" to integrators;
 * - any other status is classified by status alone (classifyCatalogErrorStatus).
 */
export function interpretCatalogAnswer<K extends CatalogKind>(kind: K, status: number, bodyText: string): SourceResult<CatalogResultByKind[K]> {
  if (status === 404 && !isProviderNoResult(bodyText)) {
    return sourceFailure('unavailable', `catalog source answered HTTP 404 without SIN_RESULTADOS (wrong base URL?): ${excerpt(bodyText)}`, { kind: 'status', status });
  }
  if (status < 200 || status > 299) {
    return sourceFailure(classifyCatalogErrorStatus(status), `catalog source answered HTTP ${status}: ${excerpt(bodyText)}`, statusFault(status, bodyText));
  }
  const parsed = parseJsonText(bodyText);
  if (!parsed.ok) return sourceFailure('unavailable', `catalog source answered HTTP ${status} with a body that is not JSON: ${excerpt(bodyText)}`, { kind: 'unreadable', status });
  const answer = asObject(parsed.value);
  if (answer === null) return sourceFailure('unavailable', `catalog source answered HTTP ${status} with JSON that is not an object: ${excerpt(bodyText)}`, { kind: 'unreadable', status });
  const state = member(answer, 'estado_consulta');
  if (typeof state === 'string' && state.trim().toUpperCase() === 'FALLIDA') {
    const reason = member(answer, 'motivo');
    return sourceFailure('not_found', `catalog source marked the query failed${typeof reason === 'string' ? `: ${reason}` : ''}`, { kind: 'marked_failed' });
  }
  const normalize = CATALOG_OPERATIONS[kind].normalize as (result: unknown, metadata: CatalogAnswerMetadata) => CatalogResultByKind[K];
  return sourceSuccess(normalize(member(answer, 'resultado'), { fechaConsulta: member(answer, 'fecha_consulta') }));
}

export interface CatalogClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Ceiling per query; the contract's is 30 seconds (SOURCE_TIMEOUT_MS). */
  timeoutMs: number;
  /** For tests: a fetch to call instead of the default node:http transport (lib/sources/http.ts). */
  fetch?: typeof fetch;
  /** Circuit breaker and bulkhead of this source (lib/sources/guard.ts); none in unit tests. */
  guard?: SourceGuard;
}

export interface CatalogClient {
  /** Any catalog of catalogs.ts, by the name in its path. */
  lookup<K extends CatalogKind>(kind: K, query: CatalogQuery): Promise<SourceResult<CatalogResultByKind[K]>>;
  lookupCuiNit(query: CatalogQuery): Promise<SourceResult<CuiNitResultado>>;
  lookupRtu(query: CatalogQuery): Promise<SourceResult<RtuResultado>>;
  lookupOmisos(query: CatalogQuery): Promise<SourceResult<OmisosResultado>>;
}

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
  const fetchImplementation = options.fetch;
  const authorization = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`, 'utf8').toString('base64')}`;

  async function lookup<K extends CatalogKind>(kind: K, query: CatalogQuery): Promise<SourceResult<CatalogResultByKind[K]>> {
    const exchange = await guarded(options.guard, () =>
        postJson({
      fetch: fetchImplementation,
      url: joinUrl(options.baseUrl, CATALOG_OPERATIONS[kind].sourcePath),
      headers: { authorization },
      body: catalogRequestBody(kind, query),
      timeoutMs: options.timeoutMs,
      }),
    );
    if (!exchange.ok) return { ...sourceFailure('unavailable', `catalog source (${kind}): ${exchange.detail}`, exchange.fault), ...('notSent' in exchange ? { notSent: true } : {}) };
    return interpretCatalogAnswer(kind, exchange.status, exchange.bodyText);
  }

  return {
    lookup,
    lookupCuiNit: (query) => lookup('cui-nit', query),
    lookupRtu: (query) => lookup('rtu', query),
    lookupOmisos: (query) => lookup('omisos', query),
  };
}
