// The FEL certifier INFILE, from the request and answer shapes its published integrations use
// (docs/fel.md): certify in one call with signing as a service, lookup by identifier, void, and the
// NIT name lookup. One attempt per call; retrying, and settling an indeterminate answer by lookup,
// is the caller's decision. Credentials, receptor NITs and names never reach a log line.

import { isValidClassicNit, normalizeNit } from '../../platform/guatemala/identifiers';
import { outsideParty, type CallOnceResult } from '../../platform/http/call-once';
import { logger } from '../../platform/logging/logger';
import { emissionDay, type FelDocument, type VoidInput } from './document';
import { documentXml, voidXml } from './xml';
import type {
  CertifiedNumbers,
  CertifierMessage,
  CertifyOutcome,
  FelCertifier,
  FelIdentifier,
  LookupOutcome,
  LookupQuery,
  NitNameOutcome,
  VoidOutcome,
} from './certifier';

/** INFILE's production addresses; the simulator serves the same paths under `<simulator>/fel`. */
export const INFILE_BASE_URLS = {
  certifier: 'https://certificador.feel.com.gt/fel',
  nitLookup: 'https://consultareceptores.feel.com.gt',
} as const;

export const INFILE_PATHS = {
  certify: '/procesounificado/transaccion/v2/xml',
  lookup: '/consulta/dte/v2/identificador_unico',
  void: '/anulacion/v2/dte/',
  nitLookup: '/rest/action',
} as const;

export interface InfileCredentials {
  /** UsuarioFirma and LlaveFirma: INFILE signs for the issuer with these. */
  signingUser: string;
  signingKey: string;
  /** UsuarioApi and LlaveApi: certifying, lookups and the NIT name lookup. */
  apiUser: string;
  apiKey: string;
}

export interface InfileOptions {
  certifierBaseUrl: string;
  nitLookupBaseUrl: string;
  credentials: InfileCredentials;
  /** Certify and void: INFILE's integrations wait 60 s. */
  timeoutMs?: number;
  /** Lookups (by identifier, NIT name). */
  lookupTimeoutMs?: number;
  /** Up to here, a request that has not connected was never sent. */
  connectTimeoutMs?: number;
  /** One line per call (operation, outcome, status, codes, time): never a credential, NIT or name. */
  log?: (line: Record<string, unknown>) => void;
}

/** "Documento enviado previamente.": the identifier was used; the answer names that document. */
const SENT_BEFORE = /documento enviado previamente/i;
/** SAT's codes: wrong credentials (fix the settings, do not retry each document). */
const CREDENTIAL_CODES = new Set(['FEL_AUT001', 'FEL_AUT002', 'FEL_AUT003']);
/** SAT asks to resend. */
const RESEND_CODES = new Set(['FEL_GEN104', 'FEL_GEN105', 'FEL_GEN107', 'FEL_GEN108']);
/** "Documento ya existe": certified before under this identifier. */
const ALREADY_EXISTS_CODE = 'FEL_GEN106';
const CODE_PATTERN = /\b[A-Z]{2,}_[A-Z]{2,}[0-9]{2,}\b/;
const UUID_PATTERN = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export function createInfileCertifier(options: InfileOptions): FelCertifier {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? 15_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const log = options.log ?? ((line) => logger('fel-infile').info(line, 'FEL certifier call'));
  const { credentials } = options;
  // Its own connections: the certifier's connect time-out is not the lookups' sources' concern.
  const call = outsideParty(connectTimeoutMs);

  function exchange(url: string, init: { headers: Record<string, string>; body: string; timeoutMs: number }): Promise<CallOnceResult> {
    return call(url, { method: 'POST', ...init, maxAnswerBytes: MAX_ANSWER_BYTES });
  }

  const signingHeaders = (identifier: FelIdentifier) => ({
    'content-type': 'application/xml; charset=utf-8',
    accept: 'application/json',
    UsuarioFirma: credentials.signingUser,
    LlaveFirma: credentials.signingKey,
    UsuarioApi: credentials.apiUser,
    LlaveApi: credentials.apiKey,
    identificador: identifier,
  });

  async function timed<T extends { kind: string }>(operation: string, identifier: string | null, run: () => Promise<{ outcome: T; status?: number; codes?: string[] }>): Promise<T> {
    const started = Date.now();
    const { outcome, status, codes } = await run();
    log({ certifier: 'infile', operation, identifier, outcome: outcome.kind, reason: 'reason' in outcome ? outcome.reason : undefined, status, codes, ms: Date.now() - started });
    return outcome;
  }

  const lookupByIdentifier = (query: LookupQuery): Promise<LookupOutcome> =>
    timed('lookup', query.identifier, async () => {
      const [year, month, day] = query.emittedOn.split('-');
      const result = await exchange(`${trimSlash(options.certifierBaseUrl)}${INFILE_PATHS.lookup}`, {
        headers: { 'content-type': 'application/json', accept: 'application/json', usuario: credentials.apiUser, llave: credentials.apiKey, identificador: query.identifier },
        // The day's field names are as the integrations spell them (unconfirmed: docs/fel.md).
        body: JSON.stringify({
          nit_emisor: normalizeNit(query.issuerNit),
          tipo_operacion: 'CERTIFICACION',
          tipo_documento: query.documentType,
          codigo_establecimiento: String(query.establishmentCode),
          identificador_unico_dte: query.identifier,
          anio: year,
          mes: month,
          dia: day,
        }),
        timeoutMs: lookupTimeoutMs,
      });
      if (result.kind !== 'answer') return { outcome: { kind: 'unavailable', detail: result.detail } };
      return { outcome: interpretLookupAnswer(result.status, result.bodyText), status: result.status };
    });

  /** "Sent before" or "ya existe" without readable numbers: the lookup names the document. */
  async function numbersOfUsedIdentifier(document: FelDocument, identifier: FelIdentifier): Promise<CertifyOutcome> {
    const found = await lookupByIdentifier({
      identifier,
      issuerNit: document.issuer.nit,
      documentType: document.type,
      establishmentCode: document.issuer.establishmentCode,
      emittedOn: emissionDay(document),
    });
    if (found.kind === 'found') return { kind: 'already_certified', uuid: found.uuid, serie: found.serie, numero: found.numero };
    return { kind: 'indeterminate', reason: 'unreadable_answer', detail: `identifier used before, and the lookup answered ${found.kind}` };
  }

  return {
    name: 'infile',

    certify: (document, identifier) =>
      timed('certify', identifier, async () => {
        const result = await exchange(`${trimSlash(options.certifierBaseUrl)}${INFILE_PATHS.certify}`, {
          headers: signingHeaders(identifier),
          body: documentXml(document),
          timeoutMs,
        });
        if (result.kind === 'not_sent') return { outcome: { kind: 'retry_later', reason: 'not_sent', detail: result.detail } };
        if (result.kind === 'lost') return { outcome: { kind: 'indeterminate', reason: result.reason, detail: result.detail } };
        const interpreted = interpretCertifyAnswer(result.status, result.bodyText);
        const outcome = interpreted.kind === 'used_without_numbers' ? await numbersOfUsedIdentifier(document, identifier) : interpreted;
        return { outcome, status: result.status, codes: codesOf(result.bodyText) };
      }),

    lookupByIdentifier,

    voidDocument: (voidRequest: VoidInput, identifier) =>
      timed('void', identifier, async () => {
        const result = await exchange(`${trimSlash(options.certifierBaseUrl)}${INFILE_PATHS.void}`, {
          headers: { ...signingHeaders(identifier), es_anulacion: 'S' },
          body: voidXml(voidRequest),
          timeoutMs,
        });
        if (result.kind === 'not_sent') return { outcome: { kind: 'retry_later', reason: 'not_sent', detail: result.detail } };
        if (result.kind === 'lost') return { outcome: { kind: 'indeterminate', reason: result.reason, detail: result.detail } };
        return { outcome: interpretVoidAnswer(result.status, result.bodyText, voidRequest.voidedAt), status: result.status, codes: codesOf(result.bodyText) };
      }),

    lookupNitName: (nit) =>
      timed('nit_name', null, async () => {
        if (!isValidClassicNit(nit)) return { outcome: { kind: 'not_found' } satisfies NitNameOutcome };
        const result = await exchange(`${trimSlash(options.nitLookupBaseUrl)}${INFILE_PATHS.nitLookup}`, {
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ emisor_codigo: credentials.apiUser, emisor_clave: credentials.apiKey, nit_consulta: normalizeNit(nit) }),
          timeoutMs: lookupTimeoutMs,
        });
        if (result.kind !== 'answer') return { outcome: { kind: 'unavailable', detail: result.detail } satisfies NitNameOutcome };
        return { outcome: interpretNitNameAnswer(result.status, result.bodyText), status: result.status };
      }),
  };
}

type InterpretedCertify = CertifyOutcome | { kind: 'used_without_numbers' };

/**
 * One answer of the certify (or void) call as an outcome. Pure, so every status and body can be
 * tested without a network:
 * - a body that is not a JSON object (an HTML error page, a truncated answer): the certifier may
 *   have certified and we cannot read it, so indeterminate, whatever the status;
 * - 401, 403 or SAT's FEL_AUT001–003: credentials_refused;
 * - "Documento enviado previamente." or FEL_GEN106: already certified, with the answer's numbers
 *   when it carries them (else the caller looks them up);
 * - resultado true with readable numbers: certified;
 * - 429: the plan's daily quota (Saldo 0) or a rate limit; FEL_GEN104/105/107/108 and a 5xx with a
 *   JSON body (the certifier says it failed): retry_later;
 * - any other refusal: rejected, with the certifier's messages.
 */
export function interpretCertifyAnswer(status: number, bodyText: string): InterpretedCertify {
  // Refused at the door, whatever the body: nothing was certified.
  if (status === 401 || status === 403) return { kind: 'credentials_refused', detail: `HTTP ${status}` };
  const body = parseObject(bodyText);
  if (body === null) return { kind: 'indeterminate', reason: 'unreadable_answer', detail: `HTTP ${status} with a body that is not JSON` };
  const errors = errorsOf(body);
  const codes = errors.map((error) => error.code).filter((code): code is string => code !== null);
  const description = typeof body.descripcion === 'string' ? body.descripcion : '';
  if (codes.some((code) => CREDENTIAL_CODES.has(code))) {
    return { kind: 'credentials_refused', detail: `HTTP ${status} ${codes.join(', ')}` };
  }
  if (SENT_BEFORE.test(description) || codes.includes(ALREADY_EXISTS_CODE)) {
    const numbers = numbersOf(body);
    return numbers === null ? { kind: 'used_without_numbers' } : { kind: 'already_certified', ...numbers };
  }
  if (status >= 200 && status < 300 && body.resultado === true) {
    const numbers = numbersOf(body);
    const xml = typeof body.xml_certificado === 'string' ? Buffer.from(body.xml_certificado, 'base64').toString('utf8') : '';
    if (numbers === null || xml === '') return { kind: 'indeterminate', reason: 'unreadable_answer', detail: 'resultado true without the document’s numbers or XML' };
    return { kind: 'certified', ...numbers, certifiedAt: certificationTime(xml, body.fecha), xml };
  }
  if (status === 429) {
    const saldo = typeof body.control_emision === 'object' && body.control_emision !== null ? (body.control_emision as Record<string, unknown>).Saldo : undefined;
    const quotaSpent = typeof saldo === 'number' && saldo <= 0;
    return { kind: 'retry_later', reason: quotaSpent ? 'daily_quota' : 'rate_limited', detail: `HTTP 429${description === '' ? '' : `: ${description}`}` };
  }
  if (codes.some((code) => RESEND_CODES.has(code))) return { kind: 'retry_later', reason: 'resend_requested', detail: codes.join(', ') };
  if (status >= 500) return { kind: 'retry_later', reason: 'certifier_error', detail: `HTTP ${status}` };
  if (errors.length > 0) return { kind: 'rejected', errors };
  return { kind: 'rejected', errors: [{ code: null, message: description === '' ? `HTTP ${status} without a reason` : description }] };
}

/**
 * An answer of the void call: as a certify answer, except that a void carries no numbers of its
 * own, and a void identifier used before means that void went through.
 */
export function interpretVoidAnswer(status: number, bodyText: string, voidedAt: Date): VoidOutcome {
  const body = status >= 200 && status < 300 ? parseObject(bodyText) : null;
  if (body?.resultado === true) return { kind: 'voided', voidedAt: typeof body.fecha === 'string' && !Number.isNaN(Date.parse(body.fecha)) ? new Date(body.fecha) : voidedAt };
  const interpreted = interpretCertifyAnswer(status, bodyText);
  switch (interpreted.kind) {
    case 'certified':
    case 'already_certified':
    case 'used_without_numbers':
      return { kind: 'voided', voidedAt };
    default:
      return interpreted;
  }
}

/**
 * An answer of the lookup by identifier. `not_found` only from a readable answer that says so
 * (resultado false and no credential error): it is what lets another certifier take over.
 */
export function interpretLookupAnswer(status: number, bodyText: string): LookupOutcome {
  const body = parseObject(bodyText);
  if (body === null) return { kind: 'unavailable', detail: `HTTP ${status} with a body that is not JSON` };
  if (status < 200 || status >= 300) return { kind: 'unavailable', detail: `HTTP ${status}` };
  if (body.resultado === true) {
    const numbers = numbersOf(body);
    return numbers === null ? { kind: 'unavailable', detail: 'resultado true without the document’s numbers' } : { kind: 'found', ...numbers };
  }
  if (body.resultado === false) {
    const codes = errorsOf(body).map((error) => error.code);
    if (codes.some((code) => code !== null && (CREDENTIAL_CODES.has(code) || RESEND_CODES.has(code)))) return { kind: 'unavailable', detail: codes.join(', ') };
    return { kind: 'not_found' };
  }
  return { kind: 'unavailable', detail: 'an answer without resultado' };
}

/** An answer of the NIT name lookup: `{ nit, nombre, mensaje }`, an empty nombre for a NIT SAT does not know. */
export function interpretNitNameAnswer(status: number, bodyText: string): NitNameOutcome {
  const body = parseObject(bodyText);
  if (body === null || status < 200 || status >= 300) return { kind: 'unavailable', detail: `HTTP ${status}` };
  if (typeof body.nombre !== 'string') return { kind: 'unavailable', detail: 'an answer without nombre' };
  const name = body.nombre.trim();
  return name === '' ? { kind: 'not_found' } : { kind: 'name', name };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function errorsOf(body: Record<string, unknown>): CertifierMessage[] {
  const list = Array.isArray(body.descripcion_errores) ? body.descripcion_errores : [];
  return list
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((item) => {
      const text = (key: string) => (typeof item[key] === 'string' ? (item[key] as string) : '');
      const code = [text('validacion'), text('numeral'), text('mensaje_error')].map((field) => CODE_PATTERN.exec(field)?.[0]).find((found) => found !== undefined);
      return { code: code ?? null, message: text('mensaje_error') || text('validacion') || 'sin mensaje' };
    });
}

/** The codes of an answer, for the log line (codes only: messages may name the receptor). */
function codesOf(bodyText: string): string[] | undefined {
  const body = parseObject(bodyText);
  if (body === null) return undefined;
  const codes = errorsOf(body).flatMap((error) => (error.code === null ? [] : [error.code]));
  return codes.length > 0 ? codes : undefined;
}

function numbersOf(body: Record<string, unknown>): CertifiedNumbers | null {
  const uuid = typeof body.uuid === 'string' ? body.uuid.trim().toUpperCase() : '';
  const serie = typeof body.serie === 'string' ? body.serie.trim() : '';
  const numero = typeof body.numero === 'string' || typeof body.numero === 'number' ? String(body.numero).trim() : '';
  if (!UUID_PATTERN.test(uuid) || serie === '' || !/^[0-9]+$/.test(numero)) return null;
  return { uuid, serie, numero };
}

/** FechaHoraCertificacion of the certified XML; else the answer's `fecha`; else now. */
function certificationTime(xml: string, fecha: unknown): Date {
  const inXml = /FechaHoraCertificacion>([^<]+)</.exec(xml)?.[1];
  for (const candidate of [inXml, typeof fecha === 'string' ? fecha : undefined]) {
    if (candidate === undefined) continue;
    const parsed = new Date(candidate.trim());
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return new Date();
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
