// The FEL certifier simulator: INFILE's request and answer shapes (docs/fel.md) under `/fel`, with
// what a certifier checks of a DTE (namespace and version, required nodes, the receptor, the IVA
// arithmetic, the emission window), one certification per identifier, lookup by identifier, voids
// against a deadline given as data, the NIT name lookup, and faults tests can drive. It keeps what
// it certified and counts certifications per identifier, so a test can prove "exactly once".
// Rejection codes are the simulator's own, in SAT's style (FEL_RCP… for the receptor); SAT's real
// codes that mean something to a client (FEL_AUT001, FEL_GEN104) are SAT's.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isValidClassicNit, isValidCui, normalizeNit } from '../lib/platform/guatemala/identifiers';
import { guatemalanMonthOf, guatemalanToday, startOfNextGuatemalanDay } from '../lib/platform/time/guatemala-time';
import { REQUIRED_PHRASES } from '../lib/providers/fel/phrases';
import { ivaReturnDueDate } from '../lib/providers/fel/void-deadlines';
import { DTE_NAMESPACE, NOTE_REFERENCE_COMPLEMENT_ID, VOID_NAMESPACE } from '../lib/providers/fel/xml';
import { FAULT_HEADER, LATENCY_HEADER } from './faults';
import type { Population } from './population';
import { createRandom, labelSeed, mixSeed } from './random';
import { sleep } from './abortable-sleep';
import { readBody } from './body';

/** What the simulated certifier accepts unless told otherwise (INFILE's four keys). */
export const FEL_SIM_DEV_CREDENTIALS = {
  signingUser: 'sim-fel-firma',
  signingKey: 'sim-fel-llave-firma',
  apiUser: 'sim-fel-api',
  apiKey: 'sim-fel-llave-api',
} as const;

export interface FelSimCredentials {
  signingUser: string;
  signingKey: string;
  apiUser: string;
  apiKey: string;
}

/** Paths below `/fel`, as INFILE's below its base URLs (lib/providers/fel/infile.ts, INFILE_PATHS). */
export const FEL_SIM_PATHS = {
  certify: '/procesounificado/transaccion/v2/xml',
  lookup: '/consulta/dte/v2/identificador_unico',
  void: '/anulacion/v2/dte/',
  /** The NIT name lookup's base URL is `<simulator>/fel/receptores`. */
  nitLookup: '/receptores/rest/action',
  /** GET, the simulator's own: certifications per identifier (`?identificador=` for one). */
  certifications: '/_sim/certificaciones',
} as const;

/**
 * NITs whose names the simulated registry knows besides the population's, for tests. Valid
 * (mod 11) and outside every range the population and the fault identifiers draw from.
 */
export const FEL_SIM_RECEPTORS = [
  { nit: '910000018', name: 'EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA' },
  { nit: '910000026', name: 'PEREZ,LOPEZ,,JUAN,CARLOS' },
  { nit: '910000034', name: "O'BRIEN & ASOCIADOS, S.A." },
] as const;

/** The simulated certifier's own identity, written into each certification. */
export const FEL_SIM_CERTIFIER = { nit: '910000107', name: 'CERTIFICADOR SIMULADO, S.A.' } as const;

export const FEL_FAULT_NAMES = ['latency', 'drop_after_certify', 'html_500', 'invalid_json', 'wrong_credentials', 'retryable', 'daily_quota'] as const;
export type FelFaultName = (typeof FEL_FAULT_NAMES)[number];
export type FelOperation = 'certify' | 'lookup' | 'void' | 'nit_name';

/**
 * A fault for the requests of some operations (certify alone by default): every one, `rate` of
 * them, or the next `times`. `latency` waits `delayMs` (default FEL_LATENCY_FAULT_MS) after doing
 * the work; `drop_after_certify` and `invalid_json` also do the work (a certification is recorded)
 * before failing to answer; `html_500`, `wrong_credentials`, `retryable` and `daily_quota` do none.
 */
export interface FelFault {
  fault: FelFaultName;
  operations?: FelOperation[];
  rate?: number;
  times?: number;
  delayMs?: number;
}

/**
 * Reads SIMULATOR_FEL_FAULT: comma-separated `fault[@rate]`, e.g. `drop_after_certify@0.2,html_500@0.1`,
 * each for the certify call.
 */
export function parseFelFaultSpec(spec: string): FelFault[] {
  return spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^([a-z_0-9]+)(?:@([0-9]*\.?[0-9]+))?$/.exec(entry);
      const name = match?.[1] ?? '';
      if (match === null || !(FEL_FAULT_NAMES as readonly string[]).includes(name)) {
        throw new Error(`SIMULATOR_FEL_FAULT: cannot read "${entry}"; expected fault[@rate], faults: ${FEL_FAULT_NAMES.join(', ')}`);
      }
      const rate = match[2] === undefined ? 1 : Number(match[2]);
      if (!(rate > 0 && rate <= 1)) throw new Error(`SIMULATOR_FEL_FAULT: the rate of "${entry}" must be in (0, 1]`);
      return { fault: name as FelFaultName, rate };
    });
}

/** The latency fault's default wait: beyond INFILE's usual 60-second client time-out. */
export const FEL_LATENCY_FAULT_MS = 65_000;
/** SAT's emission window: at most this long before the certification. */
const EMISSION_WINDOW_MS = 5 * 86_400_000;
const MAX_BODY_BYTES = 1024 * 1024;

export interface FelSimOptions {
  population: Population;
  seed: number;
  credentials?: FelSimCredentials;
  faults?: FelFault[];
  /** Certifications a day (Guatemala's day) before the plan's quota answers; none when unset. */
  dailyQuota?: number;
  /**
   * The void deadline of each month of issue, `YYYY-MM` → last day `YYYY-MM-DD`, over SAT's
   * calendar (the due date of that month's IVA return, lib/providers/fel/void-deadlines.ts).
   */
  voidDeadlines?: Record<string, string>;
  /** The simulator's clock (tests of the emission window and void deadlines). */
  now?: () => Date;
  log?: (line: string) => void;
}

export interface FelCertification {
  identifier: string;
  uuid: string;
  serie: string;
  numero: string;
  issuerNit: string;
  type: string;
  establishmentCode: string;
  receptorId: string;
  grandTotal: string;
  /** FechaHoraEmision as sent, and its Guatemalan day. */
  emittedAt: string;
  emittedOn: string;
  certifiedAt: Date;
  xml: string;
  voided: { at: Date; reason: string } | null;
  /** An NCRE's: the UUID of the one DTE it references. */
  references: string | null;
  /** The UUIDs of the NCREs that reference this document. */
  creditNotes: string[];
}

export interface FelSimControl {
  /** How many documents (invoices and credit notes) were certified under this identifier: never more than 1 unless something is wrong. */
  certificationCount(identifier: string): number;
  /** How many voids were registered under this identifier: as many, never more than 1. */
  voidCount(identifier: string): number;
  /** Every certification, in order. */
  certifications(): FelCertification[];
  certification(identifier: string): FelCertification | undefined;
  /** Replaces the faults from now on. */
  setFaults(faults: FelFault[]): void;
}

export interface FelSimulator extends FelSimControl {
  /** Serves one request whose path starts with `/fel`; `path` is what follows it. */
  serve(request: IncomingMessage, response: ServerResponse, path: string): Promise<void>;
}

type Answer = { status: number; json: unknown } | { status: number; contentType: string; text: string };
interface SimError {
  code: string;
  message: string;
  source?: 'SAT' | 'INFILE';
}

export function createFelSimulator(options: FelSimOptions): FelSimulator {
  const credentials = options.credentials ?? FEL_SIM_DEV_CREDENTIALS;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const random = createRandom(mixSeed(options.seed, labelSeed('fel-faults')));
  let faults = (options.faults ?? []).map((fault) => ({ ...fault }));
  const byIdentifier = new Map<string, FelCertification>();
  const byUuid = new Map<string, FelCertification>();
  const counts = new Map<string, number>();
  const ordered: FelCertification[] = [];
  const voidsByIdentifier = new Map<string, { uuid: string; at: Date }>();
  const voidCounts = new Map<string, number>();
  const registry = new Map<string, string>(FEL_SIM_RECEPTORS.map((receptor) => [receptor.nit, receptor.name]));

  function registryName(nit: string): string | null {
    const normalized = normalizeNit(nit);
    const fixed = registry.get(normalized);
    if (fixed !== undefined) return fixed;
    if (!isValidClassicNit(normalized)) return null;
    return options.population.findByNit(normalized)?.satName ?? null;
  }

  function chooseFault(operation: FelOperation, headerFault: string | undefined): FelFault | null | { problem: string } {
    if (headerFault !== undefined) {
      const named = headerFault.trim();
      return (FEL_FAULT_NAMES as readonly string[]).includes(named)
        ? { fault: named as FelFaultName }
        : { problem: `${FAULT_HEADER}: "${named}" is not a fault of the FEL certifier; known: ${FEL_FAULT_NAMES.join(', ')}` };
    }
    for (const fault of faults) {
      if (!(fault.operations ?? ['certify']).includes(operation)) continue;
      if (fault.times !== undefined && fault.times <= 0) continue;
      if (fault.rate !== undefined && fault.rate < 1 && random.next() >= fault.rate) continue;
      if (fault.times !== undefined) fault.times -= 1;
      return fault;
    }
    return null;
  }

  function certificationsToday(at: Date): number {
    const today = guatemalanToday(at);
    return ordered.filter((certification) => guatemalanToday(certification.certifiedAt) === today).length;
  }

  function controlEmision(at: Date) {
    const used = certificationsToday(at);
    return { Saldo: options.dailyQuota === undefined ? 1_000_000 : Math.max(0, options.dailyQuota - used), Creditos: used };
  }

  function infileAnswer(at: Date, fields: Record<string, unknown>, errors: SimError[] = []) {
    return {
      resultado: errors.length === 0,
      fecha: at.toISOString(),
      origen: 'Certificador FEL (simulador)',
      descripcion: errors.length === 0 ? 'Operación exitosa' : 'Se encontraron errores en el documento.',
      control_emision: controlEmision(at),
      alertas_infile: false,
      descripcion_alertas_infile: [],
      alertas_sat: false,
      descripcion_alertas_sat: [],
      cantidad_errores: errors.length,
      descripcion_errores: errors.map((error) => ({
        resultado: false,
        fuente: error.source ?? 'SAT',
        categoria: error.code.slice(4, 7),
        numeral: '',
        validacion: error.code,
        mensaje_error: error.message,
      })),
      informacion_adicional: '',
      uuid: '',
      serie: '',
      numero: '',
      xml_certificado: '',
      ...fields,
    };
  }

  const faultAnswers = {
    wrong_credentials: (at: Date): Answer => ({
      status: 200,
      json: infileAnswer(at, {}, [{ code: 'FEL_AUT001', message: 'Las credenciales del emisor no son válidas.', source: 'INFILE' }]),
    }),
    retryable: (at: Date): Answer => ({
      status: 200,
      json: infileAnswer(at, {}, [{ code: 'FEL_GEN104', message: 'Error temporal al procesar el documento: reenviar.' }]),
    }),
    daily_quota: (at: Date): Answer => ({
      status: 429,
      json: { ...infileAnswer(at, {}, [{ code: 'INF_CUOTA01', message: 'Se agotó la cuota diaria de documentos del plan.', source: 'INFILE' }]), control_emision: { Saldo: 0, Creditos: certificationsToday(at) } },
    }),
    html_500: (): Answer => ({
      status: 500,
      contentType: 'text/html; charset=utf-8',
      text: '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error</h1></body></html>',
    }),
  };

  function signingCredentialsMatch(request: IncomingMessage): boolean {
    const header = (name: string) => headerValue(request, name);
    return (
      header('usuariofirma') === credentials.signingUser &&
      header('llavefirma') === credentials.signingKey &&
      header('usuarioapi') === credentials.apiUser &&
      header('llaveapi') === credentials.apiKey
    );
  }

  function certify(request: IncomingMessage, bodyText: string, at: Date): Answer {
    if (!signingCredentialsMatch(request)) return faultAnswers.wrong_credentials(at);
    const identifier = headerValue(request, 'identificador');
    if (identifier === undefined || identifier.trim() === '') {
      return { status: 400, json: infileAnswer(at, {}, [{ code: 'FEL_GEN001', message: 'Falta el identificador único del documento.', source: 'INFILE' }]) };
    }
    const used = byIdentifier.get(identifier);
    if (used !== undefined) {
      return {
        status: 200,
        json: { ...infileAnswer(at, { uuid: used.uuid, serie: used.serie, numero: used.numero, xml_certificado: Buffer.from(used.xml).toString('base64') }), resultado: false, descripcion: 'Documento enviado previamente.' },
      };
    }
    if (options.dailyQuota !== undefined && certificationsToday(at) >= options.dailyQuota) return faultAnswers.daily_quota(at);
    const checked = checkDocument(bodyText, at, registryName);
    if (!checked.ok) return { status: 200, json: infileAnswer(at, {}, checked.errors) };
    const origin = checked.reference === null ? undefined : byUuid.get(checked.reference.uuid);
    if (checked.reference !== null) {
      const refused = (code: string, message: string): Answer => ({ status: 200, json: infileAnswer(at, {}, [{ code, message }]) });
      if (origin === undefined || origin.issuerNit !== checked.issuerNit || origin.type === 'NCRE') return refused('FEL_NCR002', 'El documento de origen no existe o no es una factura del emisor.');
      if (origin.voided !== null) return refused('FEL_NCR002', 'El documento de origen está anulado.');
      if (origin.emittedOn !== checked.reference.day) return refused('FEL_NCR003', 'La fecha de emisión del documento de origen no coincide.');
      const credited = origin.creditNotes.reduce((sum, uuid) => sum + (centavos(byUuid.get(uuid)?.grandTotal) ?? 0), 0);
      if (credited + (centavos(checked.grandTotal) ?? 0) > (centavos(origin.grandTotal) ?? 0)) return refused('FEL_NCR004', 'Las notas de crédito superan el total del documento de origen.');
    }
    const uuid = randomUUID().toUpperCase();
    const hex = uuid.replace(/-/g, '');
    const serie = hex.slice(0, 8);
    const numero = String(Number.parseInt(hex.slice(8, 16), 16));
    const certification: FelCertification = {
      identifier,
      uuid,
      serie,
      numero,
      issuerNit: checked.issuerNit,
      type: checked.type,
      establishmentCode: checked.establishmentCode,
      receptorId: checked.receptorId,
      grandTotal: checked.grandTotal,
      emittedAt: checked.emittedAt,
      emittedOn: checked.emittedOn,
      certifiedAt: at,
      xml: withCertification(bodyText, checked.prefix, { uuid, serie, numero, at }),
      voided: null,
      references: origin?.uuid ?? null,
      creditNotes: [],
    };
    origin?.creditNotes.push(uuid);
    byIdentifier.set(identifier, certification);
    byUuid.set(uuid, certification);
    counts.set(identifier, (counts.get(identifier) ?? 0) + 1);
    ordered.push(certification);
    return { status: 200, json: infileAnswer(at, { uuid, serie, numero, xml_certificado: Buffer.from(certification.xml).toString('base64') }) };
  }

  function lookup(request: IncomingMessage, bodyText: string, at: Date): Answer {
    if (headerValue(request, 'usuario') !== credentials.apiUser || headerValue(request, 'llave') !== credentials.apiKey) return faultAnswers.wrong_credentials(at);
    const body = parseJsonObject(bodyText);
    if (body === null) return { status: 400, json: { resultado: false, descripcion: 'Cuerpo de la consulta inválido.' } };
    const identifier = stringOf(body.identificador_unico_dte) ?? headerValue(request, 'identificador') ?? '';
    const day = `${stringOf(body.anio) ?? ''}-${(stringOf(body.mes) ?? '').padStart(2, '0')}-${(stringOf(body.dia) ?? '').padStart(2, '0')}`;
    const found = byIdentifier.get(identifier);
    // Like the real service, it searches the issuer's documents of the day given: a wrong day finds nothing.
    if (found === undefined || found.issuerNit !== normalizeNit(stringOf(body.nit_emisor) ?? '') || found.emittedOn !== day) {
      return { status: 202, json: { resultado: false, descripcion: 'No se encontró un documento con el identificador indicado.', uuid: '', serie: '', numero: '' } };
    }
    return { status: 202, json: { resultado: true, descripcion: 'Documento encontrado.', uuid: found.uuid, serie: found.serie, numero: found.numero } };
  }

  function voidDocument(request: IncomingMessage, bodyText: string, at: Date): Answer {
    if (!signingCredentialsMatch(request)) return faultAnswers.wrong_credentials(at);
    const identifier = headerValue(request, 'identificador');
    if (identifier === undefined || identifier.trim() === '') {
      return { status: 400, json: infileAnswer(at, {}, [{ code: 'FEL_GEN001', message: 'Falta el identificador único del documento.', source: 'INFILE' }]) };
    }
    const usedBefore = voidsByIdentifier.get(identifier);
    if (usedBefore !== undefined) {
      return { status: 200, json: { ...infileAnswer(at, { uuid: usedBefore.uuid }), resultado: false, descripcion: 'Documento enviado previamente.' } };
    }
    const parsed = parseRoot(bodyText, 'GTAnulacionDocumento', VOID_NAMESPACE);
    if (!parsed.ok) return { status: 200, json: infileAnswer(at, {}, [parsed.error]) };
    const general = path(parsed.root, 'SAT', 'AnulacionDTE', 'DatosGenerales');
    const attribute = (name: string) => (general === undefined ? undefined : stringOf(general[`@${name}`]));
    const uuid = (attribute('NumeroDocumentoAAnular') ?? '').toUpperCase();
    const reason = attribute('MotivoAnulacion') ?? '';
    if (general === undefined || attribute('FechaHoraAnulacion') === undefined || reason.trim() === '' || reason.length > 255) {
      return { status: 200, json: infileAnswer(at, {}, [{ code: 'FEL_XML002', message: 'Faltan datos de la anulación o el motivo no tiene de 1 a 255 caracteres.' }]) };
    }
    const document = byUuid.get(uuid);
    if (document === undefined || document.issuerNit !== normalizeNit(attribute('NITEmisor') ?? '')) {
      return { status: 200, json: infileAnswer(at, {}, [{ code: 'FEL_ANU001', message: 'El documento a anular no existe o no es del emisor.' }]) };
    }
    const originalEmission = Date.parse(attribute('FechaEmisionDocumentoAnular') ?? '');
    if (normalizeNit(attribute('IDReceptor') ?? '') !== document.receptorId || originalEmission !== Date.parse(document.emittedAt)) {
      return { status: 200, json: infileAnswer(at, {}, [{ code: 'FEL_ANU004', message: 'El receptor o la fecha de emisión no coinciden con el documento.' }]) };
    }
    if (document.voided !== null) return { status: 200, json: infileAnswer(at, {}, [{ code: 'FEL_ANU002', message: 'El documento ya fue anulado.' }]) };
    if (document.creditNotes.length > 0) return { status: 200, json: infileAnswer(at, {}, [{ code: 'FEL_ANU005', message: 'El documento no se puede anular: una nota de crédito lo referencia.' }]) };
    const deadline = voidDeadline(document.emittedOn.slice(0, 7), options.voidDeadlines);
    if (at.getTime() >= startOfNextGuatemalanDay(deadline).getTime()) {
      return { status: 200, json: infileAnswer(at, {}, [{ code: 'FEL_ANU003', message: `El plazo para anular venció el ${deadline}.` }]) };
    }
    document.voided = { at, reason };
    voidsByIdentifier.set(identifier, { uuid, at });
    voidCounts.set(identifier, (voidCounts.get(identifier) ?? 0) + 1);
    return { status: 200, json: infileAnswer(at, { uuid }) };
  }

  function nitName(bodyText: string): Answer {
    const body = parseJsonObject(bodyText);
    if (body === null) return { status: 400, json: { nit: '', nombre: '', mensaje: 'Solicitud inválida.' } };
    if (stringOf(body.emisor_codigo) !== credentials.apiUser || stringOf(body.emisor_clave) !== credentials.apiKey) {
      return { status: 401, json: { nit: '', nombre: '', mensaje: 'Credenciales inválidas.' } };
    }
    const nit = normalizeNit(stringOf(body.nit_consulta) ?? '');
    const name = registryName(nit);
    return { status: 200, json: { nit, nombre: name ?? '', mensaje: name === null ? 'NIT no válido o no registrado.' : '' } };
  }

  function counted(): Answer {
    return { status: 200, json: { certificaciones: Object.fromEntries(counts), total: ordered.length, anulaciones: Object.fromEntries(voidCounts) } };
  }

  return {
    certificationCount: (identifier) => counts.get(identifier) ?? 0,
    voidCount: (identifier) => voidCounts.get(identifier) ?? 0,
    certifications: () => [...ordered],
    certification: (identifier) => byIdentifier.get(identifier),
    setFaults(next) {
      faults = next.map((fault) => ({ ...fault }));
    },

    async serve(request, response, path) {
      const started = Date.now();
      const url = new URL(path === '' ? '/' : path, 'http://simulator');
      if (request.method === 'GET' && url.pathname === FEL_SIM_PATHS.certifications) {
        const identifier = url.searchParams.get('identificador');
        write(response, identifier === null ? counted() : { status: 200, json: { identificador: identifier, certificaciones: counts.get(identifier) ?? 0, anulaciones: voidCounts.get(identifier) ?? 0 } });
        return;
      }
      const operation = operationOf(url.pathname);
      if (operation === null) {
        write(response, { status: 404, contentType: 'text/plain; charset=utf-8', text: `No route ${request.method} /fel${url.pathname}\n` });
        return;
      }
      if (request.method !== 'POST') {
        response.setHeader('allow', 'POST');
        write(response, { status: 405, contentType: 'text/plain; charset=utf-8', text: 'Method not allowed\n' });
        return;
      }
      const abort = new AbortController();
      response.once('close', () => {
        if (!response.writableFinished) abort.abort();
      });
      const bodyText = await readBody(request, MAX_BODY_BYTES);
      const at = now();
      const chosen = chooseFault(operation, headerValue(request, FAULT_HEADER));
      if (chosen !== null && 'problem' in chosen) {
        write(response, { status: 400, contentType: 'text/plain; charset=utf-8', text: `${chosen.problem}\n` });
        return;
      }
      const fault = chosen?.fault ?? null;
      let answer: Answer;
      if (bodyText === null) answer = { status: 413, contentType: 'text/plain; charset=utf-8', text: 'Request body too large\n' };
      else if (fault === 'wrong_credentials') answer = operation === 'nit_name' ? { status: 401, json: { nit: '', nombre: '', mensaje: 'Credenciales inválidas.' } } : faultAnswers.wrong_credentials(at);
      else if (fault === 'retryable') answer = faultAnswers.retryable(at);
      else if (fault === 'daily_quota') answer = faultAnswers.daily_quota(at);
      else if (fault === 'html_500') answer = faultAnswers.html_500();
      else if (operation === 'certify') answer = certify(request, bodyText, at);
      else if (operation === 'lookup') answer = lookup(request, bodyText, at);
      else if (operation === 'void') answer = voidDocument(request, bodyText, at);
      else answer = nitName(bodyText);

      const summary = `POST /fel${url.pathname}${fault === null ? '' : ` fault=${fault}`}`;
      if (fault === 'drop_after_certify') {
        log(`${summary} -> work done, connection dropped`);
        request.socket.destroy();
        return;
      }
      if (fault === 'invalid_json' && 'json' in answer) {
        const text = JSON.stringify(answer.json);
        answer = { status: answer.status, contentType: 'application/json; charset=utf-8', text: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
      }
      const latencyHeader = Number(headerValue(request, LATENCY_HEADER));
      const delayMs = fault === 'latency' ? (chosen?.delayMs ?? FEL_LATENCY_FAULT_MS) : Number.isFinite(latencyHeader) && latencyHeader > 0 ? latencyHeader : 0;
      if (delayMs > 0 && !(await sleep(delayMs, abort.signal))) {
        log(`${summary} -> client went away after ${Date.now() - started} ms`);
        return;
      }
      write(response, answer);
      log(`${summary} -> ${answer.status} in ${Date.now() - started} ms`);
    },
  };
}

function operationOf(pathname: string): FelOperation | null {
  switch (pathname) {
    case FEL_SIM_PATHS.certify:
      return 'certify';
    case FEL_SIM_PATHS.lookup:
      return 'lookup';
    case FEL_SIM_PATHS.void:
    case FEL_SIM_PATHS.void.replace(/\/$/, ''):
      return 'void';
    case FEL_SIM_PATHS.nitLookup:
      return 'nit_name';
    default:
      return null;
  }
}

/** The last day to void a document of a month: from the test's table, else SAT's calendar as the product keeps it. */
export function voidDeadline(month: string, table: Record<string, string> | undefined): string {
  return table?.[month] ?? ivaReturnDueDate(month).day;
}

// ---------------------------------------------------------------------------------------------
// What a certifier checks of a GTDocumento

type XmlNode = Record<string, unknown>;

const prefixedParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false });
const plainParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  isArray: (name) => ['Item', 'Frase', 'Impuesto', 'TotalImpuesto', 'Complemento', 'ReferenciasNota'].includes(name),
});

function parseRoot(xml: string, rootName: string, namespace: string): { ok: true; root: XmlNode; prefix: string } | { ok: false; error: SimError } {
  const invalid = (message: string): { ok: false; error: SimError } => ({ ok: false, error: { code: 'FEL_XML001', message } });
  if (XMLValidator.validate(xml) !== true) return invalid('El documento no es XML válido.');
  const prefixed = prefixedParser.parse(xml) as XmlNode;
  const rootKey = Object.keys(prefixed).find((key) => key === rootName || key.endsWith(`:${rootName}`));
  if (rootKey === undefined) return invalid(`El elemento raíz debe ser ${rootName}.`);
  const prefix = rootKey.includes(':') ? rootKey.slice(0, rootKey.indexOf(':')) : '';
  const rootNode = prefixed[rootKey] as XmlNode;
  const declared = rootNode[prefix === '' ? '@xmlns' : `@xmlns:${prefix}`];
  if (declared !== namespace) return invalid(`El espacio de nombres debe ser ${namespace}.`);
  if (rootNode['@Version'] !== '0.1') return invalid('La versión del documento debe ser 0.1.');
  const plain = plainParser.parse(xml) as XmlNode;
  return { ok: true, root: plain[rootName] as XmlNode, prefix };
}

function path(node: unknown, ...names: string[]): XmlNode | undefined {
  let current = node;
  for (const name of names) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as XmlNode)[name];
  }
  return typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as XmlNode) : undefined;
}

/** Centavos of a decimal amount with at most two decimals, or null. */
function centavos(value: unknown): number | null {
  const text = typeof value === 'string' ? value.trim() : '';
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

type CheckedDocument = {
  ok: true;
  prefix: string;
  issuerNit: string;
  type: string;
  establishmentCode: string;
  receptorId: string;
  grandTotal: string;
  emittedAt: string;
  emittedOn: string;
  /** An NCRE's reference: the DTE's UUID and the emission day it names. */
  reference: { uuid: string; day: string } | null;
};

function checkDocument(xml: string, at: Date, registryName: (nit: string) => string | null): CheckedDocument | { ok: false; errors: SimError[] } {
  const parsed = parseRoot(xml, 'GTDocumento', DTE_NAMESPACE);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const errors: SimError[] = [];
  const missing = (what: string) => errors.push({ code: 'FEL_XML002', message: `Falta o no es válido: ${what}.` });
  const sat = path(parsed.root, 'SAT');
  const dte = path(sat, 'DTE');
  const emision = path(dte, 'DatosEmision');
  if (sat?.['@ClaseDocumento'] !== 'dte' || dte?.['@ID'] !== 'DatosCertificados' || emision?.['@ID'] !== 'DatosEmision') {
    missing('SAT ClaseDocumento="dte", DTE ID="DatosCertificados", DatosEmision ID="DatosEmision"');
    return { ok: false, errors };
  }
  const general = path(emision, 'DatosGenerales');
  const emisor = path(emision, 'Emisor');
  const receptor = path(emision, 'Receptor');
  const totales = path(emision, 'Totales');
  const type = stringOf(general?.['@Tipo']) ?? '';
  const emittedAt = stringOf(general?.['@FechaHoraEmision']) ?? '';
  const affiliation = stringOf(emisor?.['@AfiliacionIVA']) ?? '';
  if (type !== 'FACT' && type !== 'FPEQ' && type !== 'NCRE') missing('DatosGenerales Tipo (FACT, FPEQ o NCRE)');
  if (general?.['@CodigoMoneda'] !== 'GTQ') missing('DatosGenerales CodigoMoneda');
  const emittedTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[-+]\d{2}:\d{2}$/.test(emittedAt) ? Date.parse(emittedAt) : Number.NaN;
  if (Number.isNaN(emittedTime)) missing('DatosGenerales FechaHoraEmision');
  else if (at.getTime() - emittedTime > EMISSION_WINDOW_MS) {
    errors.push({ code: 'FEL_FEC001', message: 'La fecha de emisión es de más de 5 días antes de la certificación.' });
  } else if (emittedTime > at.getTime() && guatemalanMonthOf(new Date(emittedTime)) !== guatemalanMonthOf(at)) {
    errors.push({ code: 'FEL_FEC002', message: 'La fecha de emisión es de un mes posterior al de la certificación.' });
  }

  const issuerNit = normalizeNit(stringOf(emisor?.['@NITEmisor']) ?? '');
  if (emisor === undefined) missing('Emisor');
  else {
    if (!isValidClassicNit(issuerNit)) errors.push({ code: 'FEL_EMI001', message: 'El NIT del emisor no es válido.' });
    if ((stringOf(emisor['@NombreEmisor']) ?? '').trim() === '') missing('Emisor NombreEmisor');
    const establishment = Number(emisor['@CodigoEstablecimiento']);
    if (!Number.isInteger(establishment) || establishment < 1 || establishment > 9999) missing('Emisor CodigoEstablecimiento (1 a 9999)');
    const fits = type === 'NCRE' ? affiliation === 'GEN' || affiliation === 'PEQ' : (affiliation === 'GEN' && type === 'FACT') || (affiliation === 'PEQ' && type === 'FPEQ');
    if (!fits) missing('Emisor AfiliacionIVA acorde al tipo (GEN con FACT, PEQ con FPEQ)');
    if (path(emisor, 'DireccionEmisor') === undefined) missing('Emisor DireccionEmisor');
  }

  // Frases: each the affiliation requires.
  const phrases = (path(emision, 'Frases')?.Frase as XmlNode[] | undefined) ?? [];
  if (affiliation === 'GEN' || affiliation === 'PEQ') {
    for (const required of REQUIRED_PHRASES[affiliation]) {
      if (!phrases.some((phrase) => phrase['@TipoFrase'] === String(required.type) && phrase['@CodigoEscenario'] === String(required.scenario))) {
        errors.push({ code: 'FEL_FRA001', message: `Falta la frase TipoFrase ${required.type}, escenario ${required.scenario}, que requiere la afiliación ${affiliation}.` });
      }
    }
  }

  // Items and their arithmetic.
  const withIva = type === 'FACT' || (type === 'NCRE' && affiliation === 'GEN');
  const items = (path(emision, 'Items')?.Item as XmlNode[] | undefined) ?? [];
  if (items.length === 0) missing('Items (al menos un Item)');
  let sumTotal = 0;
  let sumTax = 0;
  items.forEach((item, index) => {
    const line = index + 1;
    const quantity = Number(stringOf(item.Cantidad));
    const unit = centavos(item.PrecioUnitario);
    const price = centavos(item.Precio);
    const discount = centavos(item.Descuento ?? '0');
    const total = centavos(item.Total);
    if (item['@NumeroLinea'] !== String(line) || !['B', 'S'].includes(stringOf(item['@BienOServicio']) ?? '') || (stringOf(item.Descripcion) ?? '').trim() === '') {
      missing(`Item ${line}: NumeroLinea, BienOServicio o Descripcion`);
    }
    if (!(quantity > 0) || unit === null || price === null || discount === null || total === null) {
      missing(`Item ${line}: Cantidad, PrecioUnitario, Precio, Descuento o Total`);
      return;
    }
    if (Math.round(quantity * unit) !== price || price - discount !== total) {
      errors.push({ code: 'FEL_ITM001', message: `Item ${line}: Precio debe ser Cantidad × PrecioUnitario y Total, Precio − Descuento.` });
    }
    sumTotal += total;
    const taxes = (path(item, 'Impuestos')?.Impuesto as XmlNode[] | undefined) ?? [];
    if (!withIva) {
      if (taxes.length > 0) errors.push({ code: 'FEL_IVA002', message: `Item ${line}: un documento FPEQ no detalla impuestos.` });
      return;
    }
    const iva = taxes.find((tax) => tax.NombreCorto === 'IVA');
    const taxable = centavos(iva?.MontoGravable);
    const tax = centavos(iva?.MontoImpuesto);
    if (iva === undefined || iva.CodigoUnidadGravable === undefined || taxable === null || tax === null) {
      missing(`Item ${line}: Impuestos/Impuesto IVA con CodigoUnidadGravable, MontoGravable y MontoImpuesto`);
      return;
    }
    if (taxable !== Math.round((total * 100) / 112) || tax !== total - taxable) {
      errors.push({ code: 'FEL_IVA001', message: `Item ${line}: MontoGravable debe ser Total / 1.12 y MontoImpuesto, Total − MontoGravable.` });
    }
    sumTax += tax;
  });
  const grandTotal = centavos(totales?.GranTotal);
  if (grandTotal === null) missing('Totales GranTotal');
  else if (grandTotal !== sumTotal) errors.push({ code: 'FEL_TOT001', message: 'GranTotal no es la suma de los totales de los ítems.' });
  if (withIva) {
    const ivaTotal = ((path(totales, 'TotalImpuestos')?.TotalImpuesto as XmlNode[] | undefined) ?? []).find((tax) => tax['@NombreCorto'] === 'IVA');
    const declared = centavos(ivaTotal?.['@TotalMontoImpuesto']);
    if (declared === null) missing('Totales TotalImpuestos IVA');
    else if (declared !== sumTax) errors.push({ code: 'FEL_TOT002', message: 'TotalMontoImpuesto no es la suma del IVA de los ítems.' });
  }

  // The receptor.
  const receptorId = normalizeNit(stringOf(receptor?.['@IDReceptor']) ?? '');
  const receptorName = stringOf(receptor?.['@NombreReceptor']) ?? '';
  const special = stringOf(receptor?.['@TipoEspecial']);
  if (receptor === undefined || receptorId === '' || receptorName.trim() === '') missing('Receptor IDReceptor y NombreReceptor');
  else if (receptorId === 'CF') {
    if (grandTotal !== null && grandTotal >= 250_000) errors.push({ code: 'FEL_RCP002', message: 'Consumidor final (CF) no se admite con un total de Q 2,500.00 o más.' });
  } else if (special === 'CUI') {
    if (!isValidCui(receptorId)) errors.push({ code: 'FEL_RCP003', message: 'El CUI del receptor no es válido.' });
  } else if (special === undefined) {
    if (!isValidClassicNit(receptorId)) errors.push({ code: 'FEL_RCP001', message: 'El NIT del receptor no es válido (dígito verificador).' });
    else {
      const registered = registryName(receptorId);
      if (registered === null) errors.push({ code: 'FEL_RCP005', message: 'El NIT del receptor no está registrado.' });
      else if (comparableName(registered) !== comparableName(receptorName)) {
        errors.push({ code: 'FEL_RCP004', message: 'El nombre del receptor no coincide con el registrado para su NIT.' });
      }
    }
  }

  // An NCRE references exactly one earlier DTE (ReferenciasNota); the caller checks that DTE.
  const references = ((path(emision, 'Complementos')?.Complemento as XmlNode[] | undefined) ?? []).flatMap((complement) => (complement.ReferenciasNota as XmlNode[] | undefined) ?? []);
  let reference: CheckedDocument['reference'] = null;
  if (type === 'NCRE') {
    const only = references.length === 1 ? references[0]! : undefined;
    const uuid = (stringOf(only?.['@NumeroAutorizacionDocumentoOrigen']) ?? '').trim().toUpperCase();
    const day = stringOf(only?.['@FechaEmisionDocumentoOrigen']) ?? '';
    const reason = stringOf(only?.['@MotivoAjuste']) ?? '';
    if (only === undefined || uuid === '' || !/^\d{4}-\d{2}-\d{2}$/.test(day) || reason.trim() === '' || reason.length > 255) {
      errors.push({ code: 'FEL_NCR001', message: `Una nota de crédito referencia exactamente un documento (complemento ${NOTE_REFERENCE_COMPLEMENT_ID} con NumeroAutorizacionDocumentoOrigen, FechaEmisionDocumentoOrigen y MotivoAjuste).` });
    } else reference = { uuid, day };
  }

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    reference,
    prefix: parsed.prefix,
    issuerNit,
    type,
    establishmentCode: String(emisor?.['@CodigoEstablecimiento']),
    receptorId,
    grandTotal: stringOf(totales?.GranTotal) ?? '',
    emittedAt,
    emittedOn: guatemalanToday(new Date(emittedTime)),
  };
}

/** Names compared as SAT's registry is read: case, commas and runs of spaces aside. */
function comparableName(name: string): string {
  return name.replace(/[,\s]+/g, ' ').trim().toUpperCase();
}

/**
 * A moment as SAT's schema writes FechaHoraCertificacion: Guatemala's wall time and its fixed
 * offset, -06:00 (the pattern admits no Z), to the second.
 */
export function guatemalaDateTime(at: Date): string {
  const local = new Date(at.getTime() - 6 * 3_600_000);
  return `${local.toISOString().slice(0, 19)}-06:00`;
}

const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * The certifier's part, as a certifier returns it: the Certificacion inside the DTE after
 * DatosEmision (its time in Guatemala's, as SAT's pattern wants), and the certifier's XML signature
 * (ds:Signature, RSA-SHA256 over DatosCertificados) at the end of GTDocumento. The simulator signs
 * with no key of SAT's: the signature has the element's shape and a digest of nothing, enough for a
 * reader that keeps the document whole, as the gateway does.
 */
function withCertification(xml: string, prefix: string, certified: { uuid: string; serie: string; numero: string; at: Date }): string {
  const p = prefix === '' ? '' : `${prefix}:`;
  const node =
    `<${p}Certificacion><${p}NITCertificador>${FEL_SIM_CERTIFIER.nit}</${p}NITCertificador>` +
    `<${p}NombreCertificador>${FEL_SIM_CERTIFIER.name}</${p}NombreCertificador>` +
    `<${p}NumeroAutorizacion Numero="${certified.numero}" Serie="${certified.serie}">${certified.uuid}</${p}NumeroAutorizacion>` +
    `<${p}FechaHoraCertificacion>${guatemalaDateTime(certified.at)}</${p}FechaHoraCertificacion></${p}Certificacion>`;
  const closing = `</${p}DTE>`;
  const index = xml.lastIndexOf(closing);
  const certifiedXml = index === -1 ? xml : `${xml.slice(0, index)}${node}${xml.slice(index)}`;
  const signature =
    `<ds:Signature xmlns:ds="${XMLDSIG}" Id="Certificador-${certified.uuid}"><ds:SignedInfo>` +
    `<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>` +
    `<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>` +
    `<ds:Reference URI="#DatosCertificados"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue>${Buffer.from(certified.uuid).toString('base64')}</ds:DigestValue></ds:Reference>` +
    `</ds:SignedInfo><ds:SignatureValue>${Buffer.from(`simulador:${certified.uuid}`).toString('base64')}</ds:SignatureValue></ds:Signature>`;
  const documentClosing = `</${p}GTDocumento>`;
  const end = certifiedXml.lastIndexOf(documentClosing);
  return end === -1 ? certifiedXml : `${certifiedXml.slice(0, end)}${signature}${certifiedXml.slice(end)}`;
}

// ---------------------------------------------------------------------------------------------

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function write(response: ServerResponse, answer: Answer): void {
  const [contentType, text] = 'json' in answer ? ['application/json; charset=utf-8', JSON.stringify(answer.json)] : [answer.contentType, answer.text];
  response.writeHead(answer.status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

