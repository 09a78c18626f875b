// The RTU registry (batch by NIT) as docs/sources.md defines it: POST /v1/contribuyentes/consulta-nits
// with `Authorization: Bearer <key>`, up to 50 NITs, answering the records it finds.

import type { IncomingHttpHeaders } from 'node:http';
import { normalizeNit } from '../lib/platform/guatemala/identifiers';
import { slashDate } from './dates';
import { satText, type Population, type Taxpayer } from './population';
import { authorizationCredential, field, json, raw, type ProtocolFault, type SimAnswer, type SimulatedUpstream } from './protocol';

export const RTU_OPERATION = '/v1/contribuyentes/consulta-nits';
export const RTU_REGISTRY_MAX_NITS = 50;

function registryError(code: number, message: string) {
  return { codigo: code, mensaje: message };
}

/**
 * A taxpayer as the RTU registry publishes it. `nit` is the identifier as requested (normalized):
 * a person asked for by CUI is filed under it, since the CUI is their NIT.
 */
export function rtuRegistryRecord(member: Taxpayer, requestedNit: string): Record<string, unknown> & { nit: string } {
  const principal = member.activities.find((entry) => entry.principal);
  return {
    nit: requestedNit,
    nombre: member.satName,
    nombre_comercial: member.tradeName,
    tipo_persona: member.kind === 'individual' ? 'INDIVIDUAL' : 'JURIDICA',
    cui: member.cui,
    nit_anterior: member.cui !== null && requestedNit === member.cui ? member.classicNit : null,
    estado: member.status,
    fecha_inscripcion: slashDate(member.registrationDate),
    regimen_isr: member.isr?.regime.name ?? null,
    regimen_iva: member.iva?.regime.name ?? null,
    actividad_economica: principal === undefined ? null : { ciiu: principal.activity.ciiu, descripcion: principal.activity.name },
    domicilio_fiscal: {
      departamento: satText(member.domicile.departmentName),
      municipio: satText(member.domicile.municipalityName),
      direccion: member.domicile.address,
    },
  };
}

export function createRtuUpstream(options: { population: Population; apiKey: string }): SimulatedUpstream {
  const { population, apiKey } = options;
  const requestedNits = (body: unknown): string[] | null => {
    const nits = field(body, 'nits');
    if (!Array.isArray(nits) || nits.length === 0 || nits.length > RTU_REGISTRY_MAX_NITS) return null;
    return nits.every((nit): nit is string => typeof nit === 'string') ? nits : null;
  };
  const noRecords = (requested: number) => json(200, { total_solicitados: requested, total_encontrados: 0, contribuyentes: [] });
  return {
    protocol: 'rtu',
    prefix: '/rtu',
    operations: [RTU_OPERATION],
    isAuthorized: (headers: IncomingHttpHeaders) => authorizationCredential(headers, 'Bearer') === apiKey,
    unauthorized: () => json(401, registryError(401, 'Token de acceso inválido')),
    malformedBody: () => json(400, registryError(400, 'Solicitud mal formada')),
    identifiers: (body) => requestedNits(body) ?? [],
    faultAnswer: (fault: ProtocolFault, body: unknown): SimAnswer => {
      switch (fault) {
        case 'data_rejected':
          return json(400, registryError(400, 'Lista de NITs inválida'));
        case 'auth_rejected':
          return json(401, registryError(401, 'Token de acceso inválido'));
        case 'rate_limited':
          return json(429, registryError(429, 'Demasiadas solicitudes'));
        case 'server_error':
          return json(503, registryError(503, 'Registro tributario no disponible'));
        case 'unparseable':
          return raw(200, 'application/json', '{"total_solicitados": 1, "contribuyentes": [{"nit": "');
        default:
          return noRecords(requestedNits(body)?.length ?? 0);
      }
    },
    handle: (_operation, body) => {
      const nits = requestedNits(body);
      if (nits === null) {
        return { answer: json(400, registryError(400, `Se requiere "nits": lista de 1 a ${RTU_REGISTRY_MAX_NITS} NITs`)), online: false };
      }
      // One record per distinct NIT found, in the order requested.
      const seen = new Set<string>();
      const records: Array<Record<string, unknown>> = [];
      for (const nit of nits) {
        const normalized = normalizeNit(nit);
        if (seen.has(normalized)) continue;
        seen.add(normalized);
        const member = population.findByNit(normalized);
        if (member !== null) records.push(rtuRegistryRecord(member, normalized));
      }
      return { answer: json(200, { total_solicitados: nits.length, total_encontrados: records.length, contribuyentes: records }), online: false };
    },
  };
}
