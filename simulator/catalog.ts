// The catalog data source as docs/sources.md defines it: three query types under /v2/consultas,
// HTTP Basic with the client id and secret, and the provider's own shapes: snake_case keys,
// dd/mm/yyyy dates, {cod, des} catalog values whose codes are numbers or strings, CUIs grouped
// with spaces, S/N flags, fields that are sometimes missing and values nobody recognizes.

import type { IncomingHttpHeaders } from 'node:http';
import { formatCuiGrouped, isValidCui, isValidNit } from '../lib/platform/guatemala/identifiers';
import { isoTimestamp, slashDate } from './dates';
import { satText, type CatalogEntry, type Population, type PublicationQuirk, type TaxAffiliation, type Taxpayer } from './population';
import { authorizationCredential, field, json, raw, requestId, stringField, type ProtocolFault, type SimAnswer, type SimulatedUpstream } from './protocol';

export const CATALOG_OPERATIONS = {
  identity: '/v2/consultas/identidad',
  taxRecord: '/v2/consultas/ficha',
  compliance: '/v2/consultas/cumplimiento',
} as const;

/** The provider's error codes, one per HTTP status it uses. */
const ERROR_CODES = {
  400: 'DATOS_INVALIDOS',
  401: 'CREDENCIALES_INVALIDAS',
  402: 'SALDO_INSUFICIENTE',
  403: 'CONSULTA_NO_CONTRATADA',
  404: 'SIN_RESULTADOS',
  429: 'LIMITE_EXCEDIDO',
  500: 'ERROR_INTERNO',
} as const;

function providerError(status: keyof typeof ERROR_CODES, detail: string, code: string = ERROR_CODES[status]): SimAnswer {
  return json(status, { error: { codigo: code, detalle: detail } });
}

function envelope(now: Date, fields: Record<string, unknown>): SimAnswer {
  return json(200, { id_consulta: requestId('SC', now), ...fields });
}

// ---------------------------------------------------------------------------------------------
// Publication helpers

interface Publisher {
  quirks: ReadonlySet<PublicationQuirk>;
  /** A catalog value as {cod, des}; numeric codes become strings for members with that quirk. */
  entry(value: CatalogEntry): { cod: number | string; des: string };
  flag(value: boolean): string;
}

function publisherFor(member: Taxpayer): Publisher {
  const quirks = new Set(member.quirks);
  return {
    quirks,
    entry: (value) => ({ cod: quirks.has('codes_as_strings') && typeof value.code === 'number' ? String(value.code) : value.code, des: value.name }),
    flag: (value) => (value ? 'S' : 'N'),
  };
}

/** Adds `key` unless the member's publication leaves it out. */
function unless(missing: boolean, key: string, value: unknown): Record<string, unknown> {
  return missing ? {} : { [key]: value };
}

const TAXPAYER_TYPES = { individual: { code: 1, name: 'PERSONA INDIVIDUAL' }, legal_entity: { code: 2, name: 'PERSONA JURIDICA' } } as const;
const TAXPAYER_STATES = { ACTIVO: { code: 1, name: 'ACTIVO' }, SUSPENDIDO: { code: 2, name: 'SUSPENDIDO' }, CANCELADO: { code: 3, name: 'CANCELADO' } } as const;
const MARITAL_STATES = {
  SOLTERO: { code: 1, name: 'SOLTERO(A)' },
  CASADO: { code: 2, name: 'CASADO(A)' },
  UNIDO: { code: 3, name: 'UNIDO(A)' },
  VIUDO: { code: 4, name: 'VIUDO(A)' },
  DIVORCIADO: { code: 5, name: 'DIVORCIADO(A)' },
} as const;

// ---------------------------------------------------------------------------------------------
// The three results

/** Result of /identidad (CUI/NIT). Entities have no CUI, so the key is absent. */
export function identityResult(member: Taxpayer): Record<string, unknown> {
  const { quirks } = publisherFor(member);
  // The provider spells the person type two ways, depending on which of its systems answered.
  const personType =
    member.index % 3 === 0 ? (member.kind === 'individual' ? 'I' : 'J') : member.kind === 'individual' ? 'INDIVIDUAL' : 'JURIDICA';
  return {
    nit: member.nit,
    ...(member.cui === null ? {} : { cui: member.cui }),
    nombre_completo: member.satName,
    ...unless(quirks.has('no_person_type'), 'tipo_persona', quirks.has('unrecognized_person_type') ? 'ND' : personType),
  };
}

function affiliationResult(publisher: Publisher, affiliation: TaxAffiliation): Record<string, unknown> {
  return {
    impuesto: affiliation.tax === 'ISR' ? { cod: 'ISR', des: 'IMPUESTO SOBRE LA RENTA' } : { cod: 'IVA', des: 'IMPUESTO AL VALOR AGREGADO' },
    regimen: publisher.entry(affiliation.regime),
    tipo_contribuyente: publisher.entry(affiliation.taxpayerType),
    periodo_impositivo: publisher.entry(affiliation.period),
    forma_calculo: publisher.entry(affiliation.calculation),
    estatus: publisher.entry(affiliation.status),
    ...(affiliation.incomeType === null ? {} : { tipo_renta: publisher.entry(affiliation.incomeType) }),
    ...(affiliation.establishmentType === null ? {} : { tipo_establecimiento: publisher.entry(affiliation.establishmentType) }),
    exento: publisher.flag(affiliation.exempt),
    ...unless(publisher.quirks.has('no_affiliation_date'), 'fec_desde', slashDate(affiliation.since)),
    obligaciones: affiliation.obligations.map((obligation) => ({
      obligacion: obligation.name,
      periodicidad: obligation.period,
      formulario: obligation.form,
      marca_omiso: publisher.flag(obligation.marksOmiso),
      obligatoria: 'S',
      estado: publisher.entry(obligation.active ? { code: 1, name: 'VIGENTE' } : { code: 2, name: 'INACTIVA' }),
    })),
  };
}

function personResult(publisher: Publisher, member: Taxpayer): Record<string, unknown> | null {
  const person = member.person;
  if (person === null || member.cui === null) return null;
  const { quirks } = publisher;
  const participation = (value: boolean) => (quirks.has('unrecognized_boolean') ? 'PENDIENTE' : publisher.flag(value));
  return {
    nombre_1: satText(person.givenNames[0] ?? ''),
    nombre_2: person.givenNames.length > 1 ? satText(person.givenNames.slice(1).join(' ')) : null,
    apellido_1: satText(person.firstSurname),
    apellido_2: person.secondSurname === null ? null : satText(person.secondSurname),
    apellido_casada: person.marriedSurname === null ? null : satText(person.marriedSurname),
    dpi: member.index % 2 === 0 ? member.cui : formatCuiGrouped(member.cui),
    serie_dpi: person.dpiSerie,
    version_dpi: person.dpiVersion,
    ...unless(quirks.has('no_birth_date'), 'fec_nacimiento', slashDate(person.birthDate)),
    fec_vencimiento_dpi: person.dpiExpiryDate === null ? 'INDEFINIDO' : slashDate(person.dpiExpiryDate),
    ...unless(quirks.has('no_gender'), 'genero', person.gender === 'M' ? { cod: 'M', des: 'MASCULINO' } : { cod: 'F', des: 'FEMENINO' }),
    estado_civil: publisher.entry(MARITAL_STATES[person.maritalStatus]),
    nacionalidad: { cod: 'GTM', des: 'GUATEMALTECA' },
    tipo_documento: { cod: '01', des: 'DOCUMENTO PERSONAL DE IDENTIFICACION' },
    estado: publisher.entry(TAXPAYER_STATES[member.status]),
    ...unless(
      quirks.has('no_economic_sector') || member.sector === null,
      'sector_economico',
      member.sector === null
        ? null
        : { cod: quirks.has('codes_as_strings') ? String(member.sector.code) : member.sector.code, des: member.sector.name, estado: publisher.entry({ code: 1, name: 'ACTIVO' }), fec_inicio: slashDate(member.sector.since) },
    ),
    actividades: member.activities.map((entry) => ({
      cod_ciiu: entry.activity.ciiu,
      des_actividad: entry.activity.name,
      clasif: entry.principal ? 'PRINCIPAL' : 'SECUNDARIA',
    })),
    marcas: member.brands.map((brand) => ({
      cod_marca: brand.code,
      nombre_marca: brand.name,
      cod_estado: brand.status,
      fec_estado: slashDate(brand.statusDate),
      vigente_desde: slashDate(brand.validFrom),
      vigente_hasta: slashDate(brand.validUntil),
    })),
    ...unless(quirks.has('no_participation_flags'), 'part_gremial', participation(person.tradeAssociationMember)),
    ...unless(quirks.has('no_participation_flags'), 'part_empresarial', participation(person.businessChamberMember)),
  };
}

function companyResult(member: Taxpayer): Record<string, unknown> | null {
  const company = member.company;
  if (company === null) return null;
  return {
    razon_social: member.satName,
    nombre_comercial: member.tradeName,
    tipo_sociedad: company.companyKind,
    fec_constitucion: slashDate(company.incorporationDate),
    fec_inscripcion: slashDate(member.registrationDate),
    nit_notario: company.notaryNit,
    capital_autorizado: `Q ${company.shareCapital.toLocaleString('en-US')}.00`,
  };
}

/** Result of /ficha (full RTU record). */
export function taxRecordResult(member: Taxpayer): Record<string, unknown> {
  const publisher = publisherFor(member);
  const company = member.company;
  return {
    nit: member.nit,
    tipo_contribuyente: publisher.entry(TAXPAYER_TYPES[member.kind]),
    ...(member.kind === 'individual' ? { persona: personResult(publisher, member) } : {}),
    empresa: companyResult(member),
    ...(company === null
      ? {}
      : {
          representantes: company.representatives.map((representative) => ({
            nit_representante: representative.nit,
            nombre: representative.name,
            cargo: representative.position,
            fec_nombramiento: slashDate(representative.appointedOn),
          })),
        }),
    afiliaciones: [member.isr, member.iva].filter((affiliation) => affiliation !== null).map((affiliation) => affiliationResult(publisher, affiliation)),
    caracteristicas_especiales: member.specialTraits.map((trait) => ({
      cod: trait.code,
      nombre: trait.name,
      estado: trait.active ? { cod: 'A', des: 'ACTIVA' } : { cod: 'I', des: 'INACTIVA' },
      fec_estado: slashDate(trait.statusDate),
      fec_desde: slashDate(trait.from),
      fec_hasta: trait.until === null ? null : slashDate(trait.until),
    })),
    fec_ult_actualizacion: slashDate(member.lastUpdateDate),
  };
}

/** Result of /cumplimiento (omisos). */
export function complianceResult(member: Taxpayer): Record<string, unknown> {
  const publisher = publisherFor(member);
  const { quirks } = publisher;
  const ivaAffiliation = member.iva === null ? 'NO AFILIADO AL IVA' : `IVA ${member.iva.regime.name}`;
  const regime = member.isr?.regime.name ?? member.iva?.regime.name ?? null;
  return {
    nit: member.nit,
    nombre: member.satName,
    nombre_comercial: member.tradeName,
    ...(member.cui === null ? {} : { cui: formatCuiGrouped(member.cui), version_dpi: member.person?.dpiVersion ?? null }),
    estado_contribuyente: member.status,
    tipo_afiliacion: ivaAffiliation,
    regimen: regime,
    ...unless(quirks.has('no_affiliation_date'), 'fec_afiliacion', slashDate(member.registrationDate)),
    domicilio_fiscal: {
      depto: satText(member.domicile.departmentName),
      muni: satText(member.domicile.municipalityName),
      direccion: member.domicile.address,
      ...unless(quirks.has('no_phone'), 'telefono', member.domicile.phone),
    },
    establecimientos: member.establishments.map((establishment) => ({
      secuencia: establishment.sequence,
      nombre: establishment.name,
      tipo: establishment.type,
      clasificacion: establishment.classification,
      actividad: { ciiu: establishment.activity.ciiu, descripcion: establishment.activity.name },
      fecha_inicio: slashDate(establishment.startDate),
      estado: establishment.status,
      fecha_cancelacion: establishment.closedOn === null ? null : slashDate(establishment.closedOn),
      ubicacion: {
        departamento: satText(establishment.domicile.departmentName),
        municipio: satText(establishment.domicile.municipalityName),
        zona: establishment.domicile.zone,
        direccion: establishment.domicile.address,
        correo: establishment.email,
        telefono: establishment.domicile.phone,
      },
    })),
    ...unless(quirks.has('no_compliance_flags'), 'omiso', member.omissions.length > 0),
    ...unless(quirks.has('no_compliance_flags'), 'cobro_coactivo', member.coerciveCollection),
    omisiones: member.omissions,
  };
}

// ---------------------------------------------------------------------------------------------
// Each operation's result

type CatalogOperation = keyof typeof CATALOG_OPERATIONS;

/** What each operation answers about a member: one line per operation, which the compiler holds to CATALOG_OPERATIONS. */
const CATALOG_RESULTS: Record<CatalogOperation, (member: Taxpayer) => Record<string, unknown>> = {
  identity: identityResult,
  taxRecord: taxRecordResult,
  compliance: complianceResult,
};

function operationNamed(path: string): CatalogOperation {
  const named = (Object.keys(CATALOG_OPERATIONS) as CatalogOperation[]).find((operation) => CATALOG_OPERATIONS[operation] === path);
  // The upstream is asked only for the operations it lists (SimulatedUpstream.operations).
  if (named === undefined) throw new Error(`not a catalog operation: ${path}`);
  return named;
}

// ---------------------------------------------------------------------------------------------
// The upstream

type QueryMode = 'COPIA' | 'EN_LINEA';

export function createCatalogUpstream(options: { population: Population; clientId: string; clientSecret: string }): SimulatedUpstream {
  const { population } = options;
  const expectedCredential = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');

  const identifiers = (body: unknown) =>
    [stringField(body, 'nit_consulta'), stringField(body, 'cui_consulta')].filter((value): value is string => value !== undefined && value !== '');

  const handle = (operation: string, body: unknown, now: Date) => {
    const rejected = (detail: string, code?: string) => ({ answer: providerError(400, detail, code), online: false });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return rejected('El cuerpo debe ser un objeto JSON');
    const modeValue = field(body, 'modo') ?? 'COPIA';
    if (modeValue !== 'COPIA' && modeValue !== 'EN_LINEA') return rejected('modo debe ser COPIA o EN_LINEA');
    const mode: QueryMode = modeValue;
    for (const key of ['nit_consulta', 'cui_consulta', 'fecha_nacimiento']) {
      const value = field(body, key);
      if (value !== undefined && value !== null && typeof value !== 'string') return rejected(`${key} debe ser texto`);
    }
    const nit = stringField(body, 'nit_consulta') || undefined;
    const cui = stringField(body, 'cui_consulta') || undefined;
    if (nit === undefined && cui === undefined) return rejected('Se requiere nit_consulta o cui_consulta');
    if (nit !== undefined && !isValidNit(nit)) return rejected('nit_consulta no es un NIT valido');
    if (cui !== undefined && !isValidCui(cui)) return rejected('cui_consulta no es un CUI valido');

    const byNit = nit === undefined ? undefined : population.findByNit(nit);
    const byCui = cui === undefined ? undefined : population.findByCui(cui);
    // With both identifiers the provider answers only when they are the same taxpayer.
    const member = byNit !== undefined && byCui !== undefined ? (byNit !== null && byNit.index === byCui?.index ? byNit : null) : (byNit ?? byCui ?? null);
    if (member === null) return { answer: providerError(404, 'No hay registros para los datos enviados'), online: false };

    let online = mode === 'EN_LINEA';
    if (operation === CATALOG_OPERATIONS.taxRecord && !member.sourceHoldsCopy) {
      // Without a held copy the provider asks the authority, which wants the date of birth
      // (or incorporation) as proof of the query's legitimacy.
      const dateOfBirth = stringField(body, 'fecha_nacimiento');
      if (dateOfBirth === undefined || dateOfBirth === '') return rejected('Se requiere fecha_nacimiento para este contribuyente', 'FECHA_NACIMIENTO_REQUERIDA');
      if (dateOfBirth !== member.dateOfBirth) return rejected('fecha_nacimiento no coincide con el registro', 'FECHA_NACIMIENTO_NO_COINCIDE');
      online = true;
    }

    const result = CATALOG_RESULTS[operationNamed(operation)](member);
    return {
      answer: envelope(now, {
        estado_consulta: 'EXITOSA',
        origen: online ? 'EN_LINEA' : 'COPIA',
        fecha_consulta: online ? isoTimestamp(now) : member.copyTakenAt,
        resultado: result,
      }),
      online,
    };
  };

  return {
    protocol: 'catalog',
    prefix: '/catalog',
    operations: Object.values(CATALOG_OPERATIONS),
    isAuthorized: (headers: IncomingHttpHeaders) => authorizationCredential(headers, 'Basic') === expectedCredential,
    unauthorized: () => providerError(401, 'Credenciales de cliente invalidas'),
    malformedBody: () => providerError(400, 'El cuerpo no es JSON valido'),
    identifiers,
    faultAnswer: (fault: ProtocolFault, _body: unknown, now: Date): SimAnswer => {
      switch (fault) {
        case 'data_rejected':
          return providerError(400, 'Los datos enviados no superaron la validacion');
        case 'auth_rejected':
          return providerError(401, 'Credenciales de cliente invalidas');
        case 'balance_exhausted':
          return providerError(402, 'La cuenta no tiene saldo para consultas');
        case 'query_type_denied':
          return providerError(403, 'El tipo de consulta no esta contratado');
        case 'rate_limited':
          return providerError(429, 'Limite de consultas por minuto excedido');
        case 'server_error':
          return raw(503, 'text/html; charset=utf-8', '<html><head><title>503 Service Temporarily Unavailable</title></head><body>nginx</body></html>');
        case 'unparseable':
          return raw(200, 'application/json', '{"id_consulta":"SC-TRUNCADO","estado_consulta":"EXITOSA","resultado":{"nit":"');
        case 'query_failed':
          return envelope(now, { estado_consulta: 'FALLIDA', motivo: 'LA FUENTE NO RESPONDIO A TIEMPO', resultado: null });
        case 'empty_success':
          // A success with nothing the protocol defines: no fecha_consulta and an unknown result.
          return envelope(now, { estado_consulta: 'EXITOSA', resultado: { observacion: 'CONSULTA PROCESADA' } });
        default:
          return providerError(404, 'No hay registros para los datos enviados');
      }
    },
    handle,
  };
}
