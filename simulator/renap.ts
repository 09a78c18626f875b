// The person registry (RENAP) as docs/sources.md defines it: POST /v1/personas/consulta-cui with
// an x-api-key header; the body always carries the registry's own responseCode, and a 200 can
// carry an error code (a CUI without a record answers HTTP 200 with responseCode 404).

import type { IncomingHttpHeaders } from 'node:http';
import { isValidCui, normalizeCui } from '../lib/platform/guatemala/identifiers';
import { slashDate } from './dates';
import type { Population, Taxpayer } from './population';
import { json, raw, stringField, type ProtocolFault, type SimAnswer, type SimulatedUpstream } from './protocol';

export const RENAP_OPERATION = '/v1/personas/consulta-cui';

function registryBody(responseCode: number, message: string, data: Record<string, unknown> | null) {
  return { responseCode, message, data };
}

/** The person record as the registry publishes it. */
export function renapPersonRecord(member: Taxpayer): Record<string, unknown> {
  const person = member.person;
  if (person === null || member.cui === null) throw new RangeError(`Member ${member.index} is not a person`);
  return {
    cui: member.cui,
    primer_nombre: person.givenNames[0] ?? null,
    segundo_nombre: person.givenNames[1] ?? null,
    tercer_nombre: person.givenNames[2] ?? null,
    primer_apellido: person.firstSurname,
    segundo_apellido: person.secondSurname,
    apellido_casada: person.marriedSurname,
    fecha_nacimiento: slashDate(person.birthDate),
    genero: person.gender,
    estado_civil: person.maritalStatus,
    nacionalidad: 'GUATEMALTECA',
    pais_nacimiento: 'GUATEMALA',
    departamento_nacimiento: person.birthPlace.departmentName,
    municipio_nacimiento: person.birthPlace.municipalityName,
    vecindad: `${member.domicile.municipalityName}, ${member.domicile.departmentName}`,
    ocupacion: person.occupation,
    fallecido: person.deceased,
    fecha_defuncion: person.deathDate === null ? null : slashDate(person.deathDate),
    fecha_vencimiento_dpi: person.dpiExpiryDate === null ? null : slashDate(person.dpiExpiryDate),
    serie_dpi: person.dpiSerie,
    version_dpi: person.dpiVersion,
    // Cédulas de vecindad were replaced by the DPI; only people registered before carry them.
    orden_cedula: null,
    registro_cedula: null,
  };
}

export function createRenapUpstream(options: { population: Population; apiKey: string }): SimulatedUpstream {
  const { population, apiKey } = options;
  return {
    protocol: 'renap',
    prefix: '/renap',
    operations: [RENAP_OPERATION],
    isAuthorized: (headers: IncomingHttpHeaders) => headers['x-api-key'] === apiKey,
    unauthorized: () => json(401, registryBody(401, 'API key inválida o ausente', null)),
    malformedBody: () => json(400, registryBody(400, 'Cuerpo de la solicitud inválido', null)),
    identifiers: (body) => {
      const cui = stringField(body, 'cui');
      return cui === undefined ? [] : [cui];
    },
    faultAnswer: (fault: ProtocolFault): SimAnswer => {
      switch (fault) {
        case 'data_rejected':
          return json(400, registryBody(400, 'CUI inválido', null));
        case 'auth_rejected':
          return json(401, registryBody(401, 'API key inválida o ausente', null));
        case 'rate_limited':
          return json(429, registryBody(429, 'Límite de consultas excedido', null));
        case 'server_error':
          return json(500, registryBody(500, 'Error interno del servicio', null));
        case 'unparseable':
          return raw(200, 'text/html; charset=utf-8', '<html><body><h1>Mantenimiento programado</h1></body></html>');
        case 'error_code_in_success':
          return json(200, registryBody(503, 'Servicio de consulta de RENAP no disponible temporalmente', null));
        default:
          return json(200, registryBody(404, 'No se encontró registro para el CUI indicado', null));
      }
    },
    handle: (_operation, body) => {
      const cui = stringField(body, 'cui');
      if (cui === undefined || !isValidCui(cui)) return { answer: json(400, registryBody(400, 'CUI inválido', null)), online: false };
      const member = population.findByCui(normalizeCui(cui));
      if (member === null) return { answer: json(200, registryBody(404, 'No se encontró registro para el CUI indicado', null)), online: false };
      return { answer: json(200, registryBody(200, 'Consulta exitosa', renapPersonRecord(member))), online: false };
    },
  };
}
