// What a person reads of a constancia, in the PDF, on /verificar, in the portal and the console:
// one set of words, from what the receipt signs (lib/core/constancias/payload.ts).
import type { ConstanciaPayload } from '@/lib/core/constancias/payload';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { LOOKUP_CATALOGUE, LOOKUPS } from '@/lib/vocabulary/lookups';
import type { SourceName } from '@/lib/sources/guard';

export const CONSTANCIA_TITLE = 'Constancia de consulta';

/** What it proves and what it does not, as every copy says it. */
export const CONSTANCIA_SCOPE =
  'Esta constancia prueba qué respondió la pasarela, de qué fuente, cuándo y a qué integración. No prueba la identidad de la persona ni que el dato del registro sea correcto.';

/** Why a receipt does not verify, by the motivo of POST /api/constancias/verificar. */
export const CONSTANCIA_PROBLEM_WORDS: Record<VerificationProblem, string> = {
  'mal-formada': 'El texto no es una constancia: no tiene la forma de un JWS compacto.',
  'clave-desconocida': 'La firma no es de ninguna clave publicada por este servicio.',
  'firma-invalida': 'La firma no corresponde al contenido: la constancia fue alterada.',
  'fuera-de-la-vigencia-de-la-clave': 'La fecha de la constancia está fuera de la vigencia de la clave que la firmó.',
  'no-es-una-constancia': 'Lo firmado no es una constancia de consulta.',
  'no-canonica': 'El contenido firmado no está en su forma canónica: no la emitió este servicio.',
  'fuera-del-registro': 'La firma es válida, pero el registro público no contiene esta constancia: no la emitió este servicio.',
};

/** The lookup a path names, as people read it. */
export function lookupWords(path: string): string {
  const lookup = LOOKUPS.find((candidate) => LOOKUP_CATALOGUE[candidate].path === path);
  return lookup ? `${LOOKUP_CATALOGUE[lookup].label} (${path})` : path;
}

/** What the registry answered, by the status. */
export function answerWords(status: number): string {
  if (status === 200) return 'El registro respondió con el dato (HTTP 200).';
  if (status === 404) return 'El registro respondió que no tiene el dato (HTTP 404).';
  return `HTTP ${status}.`;
}

export function sourceWords(code: string): string {
  return SOURCE_LABELS[code as SourceName] ?? code;
}

/** Its lines of facts, label and value, as the PDF and the pages list them. */
export function constanciaFacts(payload: ConstanciaPayload): Array<[string, string]> {
  return [
    ['Constancia', payload.id],
    ['Emitida', `${formatDateTime(payload.emitidaEn)} (hora de Guatemala)`],
    ['Emisor', `${payload.emisor.servicio}${payload.emisor.nit ? `, NIT ${payload.emisor.nit}` : ''}`],
    ['Integración', payload.solicitud.integracion],
    ['Consulta', lookupWords(payload.solicitud.consulta)],
    ['Solicitud', payload.solicitud.requestId],
    ['Respuesta', answerWords(payload.respuesta.estado)],
    ['Fuente', sourceWords(payload.fuente.codigo)],
    ['Fecha de la fuente', payload.fuente.fechaConsulta ?? 'La fuente no la reportó'],
    ['Clave de firma', payload.clave],
    ['Lugar en el registro', `Hoja ${payload.registro.indice}`],
  ];
}

/** A JSON value as label-value lines: nested members by their dotted path, null as the source left it. */
export function flattenedFields(value: unknown, prefix = ''): Array<[string, string]> {
  if (value === null) return [[prefix || '(valor)', 'no reportado (null)']];
  if (Array.isArray(value)) {
    if (value.length === 0) return [[prefix || '(valor)', '(lista vacía)']];
    return value.flatMap((item, index) => flattenedFields(item, `${prefix}[${index + 1}]`));
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [[prefix || '(valor)', '(vacío)']];
    return entries.flatMap(([key, item]) => flattenedFields(item, prefix ? `${prefix}.${key}` : key));
  }
  return [[prefix || '(valor)', String(value)]];
}

/** Why a receipt does not verify, as POST /api/constancias/verificar's motivo says it. */
export type VerificationProblem =
  | 'mal-formada'
  | 'clave-desconocida'
  | 'firma-invalida'
  | 'fuera-de-la-vigencia-de-la-clave'
  | 'no-es-una-constancia'
  | 'no-canonica'
  | 'fuera-del-registro';

export interface StandingBody {
  indice: number;
  /** incluida: in the newest signed head (the proof below); pendiente: in the log, not yet in a head. */
  estado: 'incluida' | 'pendiente';
  cabeza: string | null;
  tamano: number | null;
  prueba: string[] | null;
  sello: { cabeza: string; tamano: number; prueba: string[]; respuesta: string; selladaEn: string } | null;
}

export interface VerificationBody {
  valida: boolean;
  motivo: VerificationProblem | null;
  constancia: unknown;
  clave: { kid: string; firmaDesde: string; firmaHasta: string | null } | null;
  registro: StandingBody | null;
}

