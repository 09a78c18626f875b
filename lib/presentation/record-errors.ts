import type { LookupKind, StoredRecordFailure } from '@/db/schema';
import { failureFromLegacyDetail, type RecordFailure } from '@/lib/core/records/failure';
import type { CatalogRejectionCode } from '@/lib/sources/faults';
import type { SourceName } from '@/lib/sources/guard';
import { LOOKUP_SOURCE } from '@/lib/vocabulary/lookups';

// What a failed query record means, in Spanish, for support staff. It is read from the record's
// failure (lib/core/records/failure.ts: statuses, durations, codes as data), never from the source's
// own detail, which stays in English (or the upstream's HTML) for engineers and is shown folded
// under this. Records written before failures were kept fall back to our own fixed phrases in
// that detail, then to the status the integrator got.

/** Each source, as the subject of a sentence. */
const SOURCE_SUBJECTS: Record<SourceName, string> = {
  renap: 'El registro de personas (RENAP)',
  rtu: 'El registro tributario (RTU)',
  catalog: 'La fuente de catálogos',
};

/** The HTTP statuses a source answers, named as a reader of HTTP knows them. */
const STATUS_NAMES: Record<number, string> = {
  400: 'solicitud no válida',
  401: 'no autorizado',
  402: 'pago requerido',
  403: 'prohibido',
  404: 'no encontrado',
  407: 'autenticación del proxy requerida',
  408: 'tiempo de espera agotado',
  429: 'demasiadas solicitudes',
  500: 'error interno',
  502: 'puerta de enlace incorrecta',
  503: 'servicio no disponible',
  504: 'tiempo de espera agotado en la puerta de enlace',
};

/** What a source's error status means for this service, once named. */
const STATUS_MEANINGS: Record<number, string> = {
  400: 'rechazó los datos de la consulta por no ser válidos',
  401: 'no aceptó las credenciales con las que este servicio la consulta (revise la configuración de la fuente)',
  402: 'indicó que la cuenta de este servicio en la fuente no tiene saldo',
  403: 'no permite este tipo de consulta con la cuenta de este servicio',
  404: 'no encontró registros para el identificador consultado',
  407: 'exige una autenticación de proxy que este servicio no envía (revise la configuración de la fuente)',
  429: 'está limitando la cantidad de consultas de este servicio',
};

/** Network codes support may meet, in words; the code itself follows for engineers. */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'la conexión fue rechazada',
  ECONNRESET: 'la fuente cortó la conexión',
  EPIPE: 'la fuente cortó la conexión',
  UND_ERR_SOCKET: 'la fuente cerró la conexión',
  ETIMEDOUT: 'la conexión no se pudo establecer a tiempo',
  ENOTFOUND: 'el nombre del servidor de la fuente no existe',
  EAI_AGAIN: 'no se pudo resolver el nombre del servidor de la fuente',
  EHOSTUNREACH: 'el servidor de la fuente no es alcanzable',
  ENETUNREACH: 'la red de la fuente no es alcanzable',
};

/** The catalog source's reasons for a 400, as what the integrator has to do about it. */
const REJECTION_REASONS: Record<CatalogRejectionCode, string> = {
  FECHA_NACIMIENTO_REQUERIDA:
    'este contribuyente requiere fecha de nacimiento: envíe date_of_birth (AAAA-MM-DD; la fecha de constitución si es una empresa)',
  FECHA_NACIMIENTO_NO_COINCIDE: 'la fecha enviada en date_of_birth no coincide con la del registro de este contribuyente',
};

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** 30000 → "30 s", 1500 → "1.5 s". */
function seconds(ms: number): string {
  return `${(ms / 1000).toLocaleString('es-GT', { maximumFractionDigits: 1 })} s`;
}

function statusName(status: number): string {
  if (STATUS_NAMES[status]) return STATUS_NAMES[status];
  if (status >= 300 && status < 400) return 'una redirección';
  if (status >= 500) return 'error del servidor';
  return 'error';
}

function describeStatus(source: string, status: number, integratorStatus: number, code?: CatalogRejectionCode): string {
  // Read from the database: a code this release does not know falls back to the status.
  const reason = code ? REJECTION_REASONS[code] : undefined;
  if (reason) return `${source} rechazó la consulta: ${reason}.`;
  const answered = `${source} respondió HTTP ${status} (${statusName(status)})`;
  // A 404 turned into a 502: not the provider's "no result" but something else at that address.
  if (status === 404 && integratorStatus >= 500) return `${answered} sin su código de «sin resultados»: la dirección configurada de la fuente probablemente no es la correcta.`;
  if (status >= 300 && status < 400) return `${answered}: la dirección configurada de la fuente probablemente no es la correcta.`;
  if (status >= 500) return `${answered}: la fuente falló.`;
  const meaning = STATUS_MEANINGS[status];
  return meaning ? `${answered}: ${meaning}.` : `${answered}.`;
}

function describeFailure(failure: RecordFailure, lookup: LookupKind, integratorStatus: number): string {
  const source = SOURCE_SUBJECTS[LOOKUP_SOURCE[lookup]];
  switch (failure.kind) {
    case 'status':
      return describeStatus(source, failure.status, integratorStatus, failure.code);
    case 'unreadable':
      return `${source} respondió HTTP ${failure.status}, pero con una respuesta que no se pudo leer (no tiene el formato de la fuente).`;
    case 'marked_failed':
      return `${source} respondió, pero marcó la consulta como fallida (no entregó datos).`;
    case 'timeout':
      return `${source} no respondió dentro de ${seconds(failure.afterMs)}.`;
    case 'no_answer': {
      const what = failure.code ? NETWORK_CODES[failure.code] : undefined;
      const code = failure.code ? ` (código ${failure.code})` : '';
      return what
        ? `${source} no respondió: ${what}${code}.`
        : `${source} no respondió: la conexión falló o se cortó antes de la respuesta${code}.`;
    }
    case 'too_large':
      return `${source} envió una respuesta más grande de lo que admite su protocolo.`;
    case 'misconfigured':
      return `La dirección configurada para ${lowerFirst(source)} no es válida (revise la configuración).`;
    case 'not_sent':
      return `La consulta no se envió: ${lowerFirst(source)} estaba fuera de servicio (circuito abierto) o sin capacidad.`;
    case 'unhandled':
      return 'Este servicio falló al procesar la consulta (un error interno, no de la fuente).';
    case 'settlement_not_written':
      return 'La base de datos no estaba disponible al registrar el resultado: la consulta no se cobró y este registro se escribió después, cuando volvió.';
    case 'outcome_unknown':
      return 'Resultado desconocido: la instancia que atendía la consulta se detuvo antes de responder. Pudo haber llegado a la fuente; el integrador no recibió respuesta de este servicio y no se cobró. El barrido de reservas escribió este registro.';
  }
}

/**
 * One or two sentences on what happened, or undefined for a success without error. `failure` is
 * the record's (null on records written before it was kept: their detail is read instead).
 */
export function explainRecordError(record: {
  lookup: LookupKind;
  httpStatus: number;
  errorMessage: string | null;
  failure?: RecordFailure | StoredRecordFailure | null;
}): string | undefined {
  // The column holds what storedFailure (lib/core/records/failure.ts) wrote: a RecordFailure.
  const stored = record.failure as RecordFailure | null | undefined;
  const failure = stored ?? (record.errorMessage === null ? undefined : failureFromLegacyDetail(record.errorMessage));
  if (record.httpStatus === 200 && !failure) return undefined;
  const received = ` La integración recibió ${record.httpStatus}.`;
  if (failure) return `${describeFailure(failure, record.lookup, record.httpStatus)}${received}`;
  const source = SOURCE_SUBJECTS[LOOKUP_SOURCE[record.lookup]];
  // A registry's own status, passed through (the contract), or an older record without a known detail.
  if (record.httpStatus >= 500) return `${source} falló o no respondió a tiempo.${received}`;
  const meaning = STATUS_MEANINGS[record.httpStatus];
  if (meaning) return `${source} ${meaning}.${received}`;
  return `La consulta terminó con el estado ${record.httpStatus}.`;
}
