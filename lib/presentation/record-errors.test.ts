// What support reads about a failed query: Spanish, from the kind of failure kept with the record;
// for records written before it was kept, from our own fixed phrases in the English detail; and
// never an identifier (the explanation holds statuses, durations and codes only).
import { describe, expect, it } from 'vitest';
import { failureFromLegacyDetail } from '@/lib/core/records/failure';
import { explainRecordError } from './record-errors';

describe('explainRecordError', () => {
  it('explains each kind of source failure in Spanish, with what the integrator received', () => {
    const catalog = (failure: Parameters<typeof explainRecordError>[0]['failure'], httpStatus = 502) =>
      explainRecordError({ lookup: 'omisos', httpStatus, errorMessage: 'detail in English', failure });
    expect(catalog({ kind: 'status', status: 503 })).toBe('La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.');
    expect(catalog({ kind: 'status', status: 404 }, 404)).toBe(
      'La fuente de catálogos respondió HTTP 404 (no encontrado): no encontró registros para el identificador consultado. La integración recibió 404.',
    );
    expect(catalog({ kind: 'status', status: 404 })).toContain('sin su código de «sin resultados»: la dirección configurada de la fuente probablemente no es la correcta');
    expect(catalog({ kind: 'status', status: 401 }, 401)).toContain('no aceptó las credenciales con las que este servicio la consulta');
    expect(catalog({ kind: 'status', status: 302 })).toContain('respondió HTTP 302 (una redirección)');
    expect(explainRecordError({ lookup: 'rtu', httpStatus: 400, errorMessage: 'x', failure: { kind: 'status', status: 400, code: 'FECHA_NACIMIENTO_REQUERIDA' } })).toBe(
      'La fuente de catálogos rechazó la consulta: este contribuyente requiere fecha de nacimiento: envíe date_of_birth (AAAA-MM-DD; la fecha de constitución si es una empresa). La integración recibió 400.',
    );
    expect(explainRecordError({ lookup: 'rtu', httpStatus: 400, errorMessage: 'x', failure: { kind: 'status', status: 400, code: 'FECHA_NACIMIENTO_NO_COINCIDE' } })).toContain(
      'rechazó la consulta: la fecha enviada en date_of_birth no coincide con la del registro de este contribuyente.',
    );
    // A code this release does not know, read from the database, falls back to the status.
    expect(catalog({ kind: 'status', status: 400, code: 'OTRO' as never }, 400)).toContain('respondió HTTP 400 (solicitud no válida): rechazó los datos');
    expect(catalog({ kind: 'timeout', afterMs: 30_000 })).toBe('La fuente de catálogos no respondió dentro de 30 s. La integración recibió 502.');
    expect(catalog({ kind: 'no_answer', code: 'ECONNREFUSED' })).toBe('La fuente de catálogos no respondió: la conexión fue rechazada (código ECONNREFUSED). La integración recibió 502.');
    expect(catalog({ kind: 'no_answer' })).toContain('la conexión falló o se cortó antes de la respuesta');
    expect(catalog({ kind: 'unreadable', status: 200 })).toContain('respondió HTTP 200, pero con una respuesta que no se pudo leer');
    expect(catalog({ kind: 'marked_failed' }, 404)).toContain('marcó la consulta como fallida');
    expect(catalog({ kind: 'unhandled' }, 500)).toBe('Este servicio falló al procesar la consulta (un error interno, no de la fuente). La integración recibió 500.');
    expect(catalog({ kind: 'settlement_not_written' }, 500)).toContain('la consulta no se cobró y este registro se escribió después');
    expect(explainRecordError({ lookup: 'rtu_nits', httpStatus: 500, errorMessage: 'x', failure: { kind: 'timeout', afterMs: 1_500 } })).toBe(
      'El registro tributario (RTU) no respondió dentro de 1.5 s. La integración recibió 500.',
    );
  });

  it('says nothing for a success, and explains a status the registry passed through', () => {
    expect(explainRecordError({ lookup: 'cui_nit', httpStatus: 200, errorMessage: null, failure: null })).toBeUndefined();
    expect(explainRecordError({ lookup: 'renap', httpStatus: 404, errorMessage: null, failure: null })).toBe(
      'El registro de personas (RENAP) no encontró registros para el identificador consultado. La integración recibió 404.',
    );
  });

  it('explains records written before failures were kept from the phrases our code wrote then', () => {
    const legacy = (errorMessage: string, httpStatus = 502) => explainRecordError({ lookup: 'cui_nit', httpStatus, errorMessage, failure: null });
    expect(legacy('catalog source answered HTTP 503: <html>503 Service Temporarily Unavailable</html>')).toBe(
      'La fuente de catálogos respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 502.',
    );
    expect(legacy('catalog source (cui-nit): no answer within 30000 ms')).toBe('La fuente de catálogos no respondió dentro de 30 s. La integración recibió 502.');
    expect(legacy('catalog source (rtu): no answer: ECONNRESET (read ECONNRESET)')).toContain('la fuente cortó la conexión (código ECONNRESET)');
    expect(legacy('database unavailable at settlement: not charged, recorded later; catalog source answered HTTP 500: x', 500)).toContain('La base de datos no estaba disponible');
    expect(explainRecordError({ lookup: 'renap', httpStatus: 500, errorMessage: 'registry answered 503', failure: null })).toBe(
      'El registro de personas (RENAP) respondió HTTP 503 (servicio no disponible): la fuente falló. La integración recibió 500.',
    );
    // A text none of our phrases: the status the integrator got, and nothing of the text.
    expect(legacy('something else entirely 2415 75181 0101')).toBe('La fuente de catálogos falló o no respondió a tiempo. La integración recibió 502.');
  });

  it('reads the legacy phrases of every source client', () => {
    expect(failureFromLegacyDetail('person registry answered HTTP 200 with a body that is not JSON: <html>')).toEqual({ kind: 'unreadable', status: 200 });
    expect(failureFromLegacyDetail('RTU registry answered HTTP 503 (not a success): x')).toEqual({ kind: 'status', status: 503 });
    expect(failureFromLegacyDetail('catalog source answered HTTP 404 without SIN_RESULTADOS (wrong base URL?): x')).toEqual({ kind: 'status', status: 404 });
    expect(failureFromLegacyDetail('catalog source marked the query failed: SIN RESPUESTA')).toEqual({ kind: 'marked_failed' });
    expect(failureFromLegacyDetail('unhandled: TypeError: x')).toEqual({ kind: 'unhandled' });
    expect(failureFromLegacyDetail('RTU registry: answer larger than 5242880 bytes')).toEqual({ kind: 'too_large' });
    expect(failureFromLegacyDetail('person registry: no answer: the upstream closed the connection mid-answer')).toEqual({ kind: 'no_answer' });
    expect(failureFromLegacyDetail('whatever')).toBeUndefined();
  });
});
