// From the catalog source's shapes (docs/sources.md, "Catalog source") to the contract's
// CuiNitResultado, RtuResultado and OmisosResultado. Every function is total over JSON values:
// whatever the source sends inside a successful answer, the result satisfies the contract's
// envelope rules (every field present, null never omitted, lists never null, CodigoDescripcion
// always an object, null never turned into false, only fechaNacimiento converted). A result the
// source sends that has nothing recognizable becomes a record whose fields are all null.

import type {
  ActividadEconomica,
  AfiliacionImpuesto,
  Afiliaciones,
  CaracteristicaEspecial,
  CuiNitResultado,
  DomicilioFiscal,
  MarcaContribuyente,
  ObligacionTributaria,
  OmisosResultado,
  PersonaRtu,
  RtuResultado,
  SectorEconomico,
  TipoPersona,
} from '../contract/catalog';
import {
  asObject,
  birthDate,
  codigoDescripcion,
  flag,
  identifierText,
  list,
  member,
  numericCode,
  opaqueList,
  opaqueObject,
  publishedDate,
  text,
  type SourceObject,
} from './source-values';

/** What every catalog answer of the source carries besides its result. */
export interface CatalogAnswerMetadata {
  /** The source's `fecha_consulta`, as published. */
  fechaConsulta: unknown;
}

// ---------------------------------------------------------------------------------------------
// CUI/NIT

const INDIVIDUAL_SPELLINGS = new Set(['I', 'INDIVIDUAL', 'PERSONA INDIVIDUAL']);
const LEGAL_ENTITY_SPELLINGS = new Set(['J', 'JURIDICA', 'JURÍDICA', 'PERSONA JURIDICA', 'PERSONA JURÍDICA']);

/** The source's person type in any of its spellings; an unrecognized value is null, not a guess. */
export function tipoPersona(value: unknown): TipoPersona {
  if (typeof value !== 'string') return null;
  const normalized = value.trim().toUpperCase();
  if (INDIVIDUAL_SPELLINGS.has(normalized)) return 'individual';
  if (LEGAL_ENTITY_SPELLINGS.has(normalized)) return 'juridica';
  return null;
}

export function normalizeCuiNit(result: unknown, metadata: CatalogAnswerMetadata): CuiNitResultado {
  const source = asObject(result);
  return {
    cui: identifierText(member(source, 'cui')),
    nit: identifierText(member(source, 'nit')),
    nombre: text(member(source, 'nombre_completo')),
    tipoPersona: tipoPersona(member(source, 'tipo_persona')),
    fechaConsulta: publishedDate(metadata.fechaConsulta),
  };
}

// ---------------------------------------------------------------------------------------------
// Omisos

function domicilioFiscal(value: unknown): DomicilioFiscal {
  const source = asObject(value);
  return {
    departamento: text(member(source, 'depto')),
    municipio: text(member(source, 'muni')),
    direccion: text(member(source, 'direccion')),
    telefono: identifierText(member(source, 'telefono')),
  };
}

export function normalizeOmisos(result: unknown, metadata: CatalogAnswerMetadata): OmisosResultado {
  const source = asObject(result);
  return {
    nit: identifierText(member(source, 'nit')),
    nombre: text(member(source, 'nombre')),
    nombreComercial: text(member(source, 'nombre_comercial')),
    // As published, spaces between digit groups included: the contract says so.
    cui: identifierText(member(source, 'cui')),
    versionDpi: identifierText(member(source, 'version_dpi')),
    estadoContribuyente: text(member(source, 'estado_contribuyente')),
    tipoAfiliacion: text(member(source, 'tipo_afiliacion')),
    regimen: text(member(source, 'regimen')),
    fechaAfiliacion: publishedDate(member(source, 'fec_afiliacion')),
    domicilioFiscal: domicilioFiscal(member(source, 'domicilio_fiscal')),
    establecimientos: opaqueList(member(source, 'establecimientos')),
    tieneIncumplimientos: flag(member(source, 'omiso')),
    tieneProcesoCoactivo: flag(member(source, 'cobro_coactivo')),
    // Authority text only; an element that is not text has no place in a list of strings.
    incumplimientos: list(member(source, 'omisiones')).filter((entry): entry is string => typeof entry === 'string'),
    fechaConsulta: publishedDate(metadata.fechaConsulta),
  };
}

// ---------------------------------------------------------------------------------------------
// RTU

function objectsOf(value: unknown): SourceObject[] {
  return list(value)
    .map(asObject)
    .filter((entry): entry is SourceObject => entry !== null);
}

function sectorEconomico(value: unknown): SectorEconomico {
  const source = asObject(value);
  return {
    codigo: numericCode(member(source, 'cod')),
    descripcion: text(member(source, 'des')),
    estado: codigoDescripcion(member(source, 'estado')),
    fechaInicio: publishedDate(member(source, 'fec_inicio')),
  };
}

function actividadEconomica(source: SourceObject): ActividadEconomica {
  return {
    ciiu: identifierText(member(source, 'cod_ciiu')),
    nombre: text(member(source, 'des_actividad')),
    clasificacion: text(member(source, 'clasif')),
  };
}

function marcaContribuyente(source: SourceObject): MarcaContribuyente {
  return {
    codigo: numericCode(member(source, 'cod_marca')),
    nombre: text(member(source, 'nombre_marca')),
    estado: numericCode(member(source, 'cod_estado')),
    fechaEstado: publishedDate(member(source, 'fec_estado')),
    vigenciaDesde: publishedDate(member(source, 'vigente_desde')),
    vigenciaHasta: publishedDate(member(source, 'vigente_hasta')),
  };
}

/** The person block of an individual; null when the source sent none (entities, or not reported). */
function personaRtu(value: unknown): PersonaRtu | null {
  const source = asObject(value);
  if (source === null) return null;
  return {
    primerNombre: text(member(source, 'nombre_1')),
    segundoNombre: text(member(source, 'nombre_2')),
    primerApellido: text(member(source, 'apellido_1')),
    segundoApellido: text(member(source, 'apellido_2')),
    dpi: identifierText(member(source, 'dpi')),
    serieDpi: identifierText(member(source, 'serie_dpi')),
    versionDpi: identifierText(member(source, 'version_dpi')),
    fechaNacimiento: birthDate(member(source, 'fec_nacimiento')),
    fechaVencimientoDpi: publishedDate(member(source, 'fec_vencimiento_dpi')),
    genero: codigoDescripcion(member(source, 'genero')),
    estadoCivil: codigoDescripcion(member(source, 'estado_civil')),
    nacionalidad: codigoDescripcion(member(source, 'nacionalidad')),
    tipoDocumento: codigoDescripcion(member(source, 'tipo_documento')),
    estado: codigoDescripcion(member(source, 'estado')),
    sectorEconomico: sectorEconomico(member(source, 'sector_economico')),
    actividadesEconomicas: objectsOf(member(source, 'actividades')).map(actividadEconomica),
    marcas: objectsOf(member(source, 'marcas')).map(marcaContribuyente),
    participacionGremial: flag(member(source, 'part_gremial')),
    participacionEmpresarial: flag(member(source, 'part_empresarial')),
  };
}

function obligacionTributaria(source: SourceObject): ObligacionTributaria {
  return {
    nombre: text(member(source, 'obligacion')),
    periodo: text(member(source, 'periodicidad')),
    formulario: identifierText(member(source, 'formulario')),
    generaEtiquetaOmiso: flag(member(source, 'marca_omiso')),
    requerida: flag(member(source, 'obligatoria')),
    estado: codigoDescripcion(member(source, 'estado')),
  };
}

type Tax = 'isr' | 'iva';

/** Which tax an affiliation is for: by the code of `impuesto`, else by its description. */
function taxOf(affiliation: SourceObject): Tax | null {
  const tax = codigoDescripcion(member(affiliation, 'impuesto'));
  const code = typeof tax.codigo === 'string' ? tax.codigo.trim().toUpperCase() : null;
  if (code === 'ISR') return 'isr';
  if (code === 'IVA') return 'iva';
  const description = tax.descripcion?.toUpperCase() ?? '';
  if (description.includes('SOBRE LA RENTA')) return 'isr';
  if (description.includes('VALOR AGREGADO')) return 'iva';
  return null;
}

function afiliacionImpuesto(source: SourceObject, tax: Tax): AfiliacionImpuesto {
  const empty = codigoDescripcion(undefined);
  return {
    impuesto: codigoDescripcion(member(source, 'impuesto')),
    regimen: codigoDescripcion(member(source, 'regimen')),
    tipoContribuyente: codigoDescripcion(member(source, 'tipo_contribuyente')),
    periodoImpositivo: codigoDescripcion(member(source, 'periodo_impositivo')),
    formaCalculo: codigoDescripcion(member(source, 'forma_calculo')),
    estatusAfiliacion: codigoDescripcion(member(source, 'estatus')),
    // The contract fixes these per tax: income type exists only for ISR, establishment type only for IVA.
    tipoRenta: tax === 'isr' ? codigoDescripcion(member(source, 'tipo_renta')) : empty,
    tipoEstablecimiento: tax === 'iva' ? codigoDescripcion(member(source, 'tipo_establecimiento')) : empty,
    exento: flag(member(source, 'exento')),
    fechaDesde: publishedDate(member(source, 'fec_desde')),
    obligaciones: objectsOf(member(source, 'obligaciones')).map(obligacionTributaria),
  };
}

/** The source lists affiliations; the contract keys them by tax. The first of each tax wins. */
function afiliaciones(value: unknown): Afiliaciones {
  const result: Afiliaciones = { isr: null, iva: null };
  for (const affiliation of objectsOf(value)) {
    const tax = taxOf(affiliation);
    if (tax !== null && result[tax] === null) result[tax] = afiliacionImpuesto(affiliation, tax);
  }
  return result;
}

function caracteristicaEspecial(source: SourceObject): CaracteristicaEspecial {
  return {
    codigo: numericCode(member(source, 'cod')),
    nombre: text(member(source, 'nombre')),
    estado: codigoDescripcion(member(source, 'estado')),
    fechaEstado: publishedDate(member(source, 'fec_estado')),
    fechaDesde: publishedDate(member(source, 'fec_desde')),
    fechaHasta: publishedDate(member(source, 'fec_hasta')),
  };
}

export function normalizeRtu(result: unknown, metadata: CatalogAnswerMetadata): RtuResultado {
  const source = asObject(result);
  return {
    nit: identifierText(member(source, 'nit')),
    tipoContribuyente: codigoDescripcion(member(source, 'tipo_contribuyente')),
    persona: personaRtu(member(source, 'persona')),
    empresa: opaqueObject(member(source, 'empresa')),
    representantes: opaqueList(member(source, 'representantes')),
    afiliaciones: afiliaciones(member(source, 'afiliaciones')),
    caracteristicasEspeciales: objectsOf(member(source, 'caracteristicas_especiales')).map(caracteristicaEspecial),
    fechaUltimaActualizacion: publishedDate(member(source, 'fec_ult_actualizacion')),
    fechaConsulta: publishedDate(metadata.fechaConsulta),
  };
}
