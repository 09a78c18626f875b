import type { LookupKind } from '@/db/schema';

// What a failed query record means, in Spanish, for support staff. The record keeps the source's
// own detail (often English or HTML, for engineers); the console shows it folded under this.

const SOURCE_NAMES: Record<LookupKind, string> = {
  renap: 'El registro de personas (RENAP)',
  rtu_nits: 'El registro tributario (RTU)',
  cui_nit: 'La fuente de los catálogos',
  rtu: 'La fuente de los catálogos',
  omisos: 'La fuente de los catálogos',
};

const BY_STATUS: Record<number, string> = {
  400: 'rechazó los datos de la consulta por no ser válidos',
  401: 'no aceptó las credenciales con las que este servicio la consulta (revisa la configuración de la fuente)',
  402: 'indicó que la cuenta de este servicio en la fuente no tiene saldo',
  403: 'no permite este tipo de consulta con la cuenta de este servicio',
  404: 'no encontró registros para el identificador consultado',
  429: 'limitó la cantidad de consultas por minuto de este servicio',
};

/** One sentence on what happened, or undefined for a success without error detail. */
export function explainRecordError(record: { lookup: LookupKind; httpStatus: number; errorMessage: string | null }): string | undefined {
  if (record.httpStatus === 200 && !record.errorMessage) return undefined;
  const source = SOURCE_NAMES[record.lookup];
  if (record.httpStatus >= 500) {
    return `${source} falló o no respondió a tiempo (un error de la fuente o una respuesta que no se pudo leer). La integración recibió ${record.httpStatus}.`;
  }
  const what = BY_STATUS[record.httpStatus];
  if (what) return `${source} ${what}. La integración recibió ${record.httpStatus}.`;
  return `La consulta terminó con el estado ${record.httpStatus}.`;
}
