// Golden tests: fixed answers of the catalog source, in its own shape, and the exact contract
// record each must become. Each case names the envelope rule it pins down.

import { describe, expect, it } from 'vitest';
import { cuiNitResultadoSchema, omisosResultadoSchema, rtuResultadoSchema, type RtuResultado } from '../contract/catalog';
import { interpretCatalogAnswer } from './catalog-client';
import { normalizeCuiNit, normalizeOmisos, normalizeRtu, tipoPersona } from './catalog-normalize';
import { opaqueJson, opaqueList } from './source-values';

const FECHA = '2025-11-03T14:22:05Z';
const nothing = { codigo: null, descripcion: null };

/** Scalars null, lists empty, nested records with null fields: nothing reported anywhere. */
function reportsNothing(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(reportsNothing);
  return false;
}

function answer(resultado: unknown, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ id_consulta: 'SC-1', estado_consulta: 'EXITOSA', origen: 'COPIA', fecha_consulta: FECHA, resultado, ...extra });
}

describe('CUI/NIT normalization', () => {
  it('maps an individual, keeping the name and its punctuation whole', () => {
    const data = normalizeCuiNit(
      { nit: '576937K', cui: '1587564440904', nombre_completo: 'GARCIA,ROSALES,,RUPTILIO,', tipo_persona: 'I' },
      { fechaConsulta: FECHA },
    );
    expect(data).toEqual({ cui: '1587564440904', nit: '576937K', nombre: 'GARCIA,ROSALES,,RUPTILIO,', tipoPersona: 'individual', fechaConsulta: FECHA });
  });

  it('reports an unrecognized person type as null, a numeric NIT as text and a missing CUI as null', () => {
    const data = normalizeCuiNit({ nit: 71080, nombre_completo: 'DISTRIBUIDORA EL SOL, SOCIEDAD ANONIMA', tipo_persona: 'ND' }, { fechaConsulta: FECHA });
    expect(data).toEqual({ cui: null, nit: '71080', nombre: 'DISTRIBUIDORA EL SOL, SOCIEDAD ANONIMA', tipoPersona: null, fechaConsulta: FECHA });
  });

  it.each([
    ['J', 'juridica'],
    ['JURIDICA', 'juridica'],
    [' persona jurídica ', 'juridica'],
    ['INDIVIDUAL', 'individual'],
    ['E', null],
    [1, null],
    [undefined, null],
  ] as const)('reads tipo_persona %j as %j', (published, expected) => {
    expect(tipoPersona(published)).toBe(expected);
  });
});

describe('omisos normalization', () => {
  const published = {
    nit: '48040983',
    nombre: 'LOPEZ,CHOC,DE LEON,MARIA,JUANA',
    nombre_comercial: 'TIENDA LA BENDICION',
    cui: '2415 75181 0101',
    version_dpi: 2,
    estado_contribuyente: 'SUSPENDIDO',
    tipo_afiliacion: 'IVA PEQUEÑO CONTRIBUYENTE',
    regimen: 'PEQUEÑO CONTRIBUYENTE',
    fec_afiliacion: '09/02/2021',
    domicilio_fiscal: { depto: 'GUATEMALA', muni: 'MIXCO', direccion: '5A. AVENIDA 12-45 ZONA 1', telefono: 22334455 },
    establecimientos: [{ secuencia: 1, nombre: 'TIENDA LA BENDICION', ubicacion: { zona: 1 } }],
    omiso: true,
    cobro_coactivo: 'S',
    omisiones: ['SAT-2046 IVA PEQUEÑO CONTRIBUYENTE PERIODO 03/2025 NO PRESENTADO', { periodo: '04/2025' }],
  };

  it('passes the CUI with its spaces and every date as published', () => {
    expect(normalizeOmisos(published, { fechaConsulta: FECHA })).toEqual({
      nit: '48040983',
      nombre: 'LOPEZ,CHOC,DE LEON,MARIA,JUANA',
      nombreComercial: 'TIENDA LA BENDICION',
      cui: '2415 75181 0101',
      versionDpi: '2',
      estadoContribuyente: 'SUSPENDIDO',
      tipoAfiliacion: 'IVA PEQUEÑO CONTRIBUYENTE',
      regimen: 'PEQUEÑO CONTRIBUYENTE',
      fechaAfiliacion: '09/02/2021',
      domicilioFiscal: { departamento: 'GUATEMALA', municipio: 'MIXCO', direccion: '5A. AVENIDA 12-45 ZONA 1', telefono: '22334455' },
      establecimientos: [{ secuencia: 1, nombre: 'TIENDA LA BENDICION', ubicacion: { zona: 1 } }],
      tieneIncumplimientos: true,
      tieneProcesoCoactivo: true,
      incumplimientos: ['SAT-2046 IVA PEQUEÑO CONTRIBUYENTE PERIODO 03/2025 NO PRESENTADO'],
      fechaConsulta: FECHA,
    });
  });

  it('keeps unreported flags null (null is not false) and missing lists empty', () => {
    const unreported = new Set(['cobro_coactivo', 'omisiones', 'establecimientos', 'domicilio_fiscal']);
    const rest = Object.fromEntries(Object.entries(published).filter(([key]) => !unreported.has(key)));
    const data = normalizeOmisos({ ...rest, omiso: 'TAL VEZ' }, { fechaConsulta: undefined });
    expect(data.tieneIncumplimientos).toBeNull();
    expect(data.tieneProcesoCoactivo).toBeNull();
    expect(data.incumplimientos).toEqual([]);
    expect(data.establecimientos).toEqual([]);
    expect(data.domicilioFiscal).toEqual({ departamento: null, municipio: null, direccion: null, telefono: null });
    expect(data.fechaConsulta).toBeNull();
    expect(omisosResultadoSchema.safeParse(data).success).toBe(true);
  });

  it('reads a "no" as false, not as missing', () => {
    const data = normalizeOmisos({ ...published, omiso: 'N', cobro_coactivo: false }, { fechaConsulta: FECHA });
    expect(data.tieneIncumplimientos).toBe(false);
    expect(data.tieneProcesoCoactivo).toBe(false);
  });
});

describe('RTU normalization', () => {
  const individual = {
    nit: '41696513K',
    tipo_contribuyente: { cod: 1, des: 'PERSONA INDIVIDUAL' },
    persona: {
      nombre_1: 'HEIDY',
      nombre_2: 'ZOILA',
      apellido_1: 'BARRIOS',
      apellido_2: 'CIFUENTES',
      apellido_casada: null,
      dpi: '1730 38271 1903',
      serie_dpi: 'B8541350',
      version_dpi: '2',
      fec_nacimiento: '9/6/1944',
      fec_vencimiento_dpi: 'INDEFINIDO',
      genero: { cod: 'F', des: 'FEMENINO' },
      estado_civil: { cod: '3', des: 'UNIDO(A)' },
      nacionalidad: { cod: 'GTM', des: 'GUATEMALTECA' },
      tipo_documento: { cod: '01', des: 'DOCUMENTO PERSONAL DE IDENTIFICACION' },
      estado: { cod: 1, des: 'ACTIVO' },
      sector_economico: { cod: '3', des: 'COMERCIO AL POR MAYOR Y AL POR MENOR', estado: { cod: 1, des: 'ACTIVO' }, fec_inicio: '27/12/2011' },
      actividades: [{ cod_ciiu: '4711', des_actividad: 'VENTA AL POR MENOR', clasif: 'PRINCIPAL' }, 'no es un objeto'],
      marcas: [{ cod_marca: 120301, nombre_marca: 'SABOR CHAPIN', cod_estado: '1', fec_estado: '01/02/2015', vigente_desde: '01/02/2015', vigente_hasta: '01/02/2025' }],
      part_gremial: 'PENDIENTE',
      part_empresarial: 'N',
    },
    empresa: null,
    afiliaciones: [
      {
        impuesto: { cod: 'IVA', des: 'IMPUESTO AL VALOR AGREGADO' },
        regimen: { cod: 2, des: 'PEQUEÑO CONTRIBUYENTE' },
        tipo_contribuyente: { cod: 1, des: 'PERSONA INDIVIDUAL' },
        periodo_impositivo: { cod: 'M', des: 'MENSUAL' },
        forma_calculo: { cod: 3, des: 'CUOTA SOBRE INGRESOS BRUTOS' },
        estatus: { cod: 'A', des: 'ACTIVA' },
        tipo_renta: { cod: 9, des: 'NO APLICA AL IVA' },
        tipo_establecimiento: { cod: 1, des: 'COMERCIAL' },
        exento: 'N',
        fec_desde: '10/06/2011',
        obligaciones: [{ obligacion: 'IVA PEQUEÑO CONTRIBUYENTE', periodicidad: 'MENSUAL', formulario: 'SAT-2046', marca_omiso: 'S', obligatoria: 'S', estado: { cod: 1, des: 'VIGENTE' } }],
      },
      { impuesto: { cod: 7, des: 'IMPUESTO DE CIRCULACION DE VEHICULOS' }, regimen: { cod: 1, des: 'X' } },
      { impuesto: { cod: 'ISR', des: 'IMPUESTO SOBRE LA RENTA' }, regimen: { cod: 13, des: 'RENTAS DEL TRABAJO' }, exento: 'S' },
    ],
    caracteristicas_especiales: [
      { cod: '21', nombre: 'EMISOR FEL', estado: { cod: 'A', des: 'ACTIVA' }, fec_estado: '16/09/2020', fec_desde: '16/09/2020', fec_hasta: null },
    ],
    fec_ult_actualizacion: '22/04/2022',
  };

  const expectedIndividual: RtuResultado = {
    nit: '41696513K',
    tipoContribuyente: { codigo: 1, descripcion: 'PERSONA INDIVIDUAL' },
    persona: {
      primerNombre: 'HEIDY',
      segundoNombre: 'ZOILA',
      primerApellido: 'BARRIOS',
      segundoApellido: 'CIFUENTES',
      dpi: '1730 38271 1903',
      serieDpi: 'B8541350',
      versionDpi: '2',
      fechaNacimiento: '1944-06-09',
      fechaVencimientoDpi: 'INDEFINIDO',
      genero: { codigo: 'F', descripcion: 'FEMENINO' },
      estadoCivil: { codigo: '3', descripcion: 'UNIDO(A)' },
      nacionalidad: { codigo: 'GTM', descripcion: 'GUATEMALTECA' },
      tipoDocumento: { codigo: '01', descripcion: 'DOCUMENTO PERSONAL DE IDENTIFICACION' },
      estado: { codigo: 1, descripcion: 'ACTIVO' },
      sectorEconomico: { codigo: 3, descripcion: 'COMERCIO AL POR MAYOR Y AL POR MENOR', estado: { codigo: 1, descripcion: 'ACTIVO' }, fechaInicio: '27/12/2011' },
      actividadesEconomicas: [{ ciiu: '4711', nombre: 'VENTA AL POR MENOR', clasificacion: 'PRINCIPAL' }],
      marcas: [{ codigo: 120301, nombre: 'SABOR CHAPIN', estado: 1, fechaEstado: '01/02/2015', vigenciaDesde: '01/02/2015', vigenciaHasta: '01/02/2025' }],
      participacionGremial: null,
      participacionEmpresarial: false,
    },
    empresa: null,
    representantes: [],
    afiliaciones: {
      isr: {
        impuesto: { codigo: 'ISR', descripcion: 'IMPUESTO SOBRE LA RENTA' },
        regimen: { codigo: 13, descripcion: 'RENTAS DEL TRABAJO' },
        tipoContribuyente: nothing,
        periodoImpositivo: nothing,
        formaCalculo: nothing,
        estatusAfiliacion: nothing,
        tipoRenta: nothing,
        tipoEstablecimiento: nothing,
        exento: true,
        fechaDesde: null,
        obligaciones: [],
      },
      iva: {
        impuesto: { codigo: 'IVA', descripcion: 'IMPUESTO AL VALOR AGREGADO' },
        regimen: { codigo: 2, descripcion: 'PEQUEÑO CONTRIBUYENTE' },
        tipoContribuyente: { codigo: 1, descripcion: 'PERSONA INDIVIDUAL' },
        periodoImpositivo: { codigo: 'M', descripcion: 'MENSUAL' },
        formaCalculo: { codigo: 3, descripcion: 'CUOTA SOBRE INGRESOS BRUTOS' },
        estatusAfiliacion: { codigo: 'A', descripcion: 'ACTIVA' },
        // The contract: tipoRenta is ISR only, so the source's value for IVA is not passed on.
        tipoRenta: nothing,
        tipoEstablecimiento: { codigo: 1, descripcion: 'COMERCIAL' },
        exento: false,
        fechaDesde: '10/06/2011',
        obligaciones: [
          { nombre: 'IVA PEQUEÑO CONTRIBUYENTE', periodo: 'MENSUAL', formulario: 'SAT-2046', generaEtiquetaOmiso: true, requerida: true, estado: { codigo: 1, descripcion: 'VIGENTE' } },
        ],
      },
    },
    caracteristicasEspeciales: [{ codigo: 21, nombre: 'EMISOR FEL', estado: { codigo: 'A', descripcion: 'ACTIVA' }, fechaEstado: '16/09/2020', fechaDesde: '16/09/2020', fechaHasta: null }],
    fechaUltimaActualizacion: '22/04/2022',
    fechaConsulta: FECHA,
  };

  it('maps an individual: only fechaNacimiento converted, codes keep their type, affiliations keyed by tax', () => {
    const data = normalizeRtu(individual, { fechaConsulta: FECHA });
    expect(data).toEqual(expectedIndividual);
    expect(rtuResultadoSchema.parse(data)).toEqual(expectedIndividual);
  });

  it('maps a legal entity: persona null, empresa and representantes passed through untouched', () => {
    const empresa = { razon_social: 'INVERSIONES TIKAL, SOCIEDAD ANONIMA', fec_constitucion: '12/06/2016', socios: [{ nit: '1', porcentaje: 60 }] };
    const representantes = [{ nit_representante: '3045406251212', nombre: 'DE LEON,MENDOZA,,WILSON,FRANCISCO', cargo: 'REPRESENTANTE LEGAL' }];
    const data = normalizeRtu(
      { nit: '25085034', tipo_contribuyente: { cod: 2, des: 'PERSONA JURIDICA' }, empresa, representantes, afiliaciones: [], caracteristicas_especiales: [] },
      { fechaConsulta: FECHA },
    );
    expect(data.persona).toBeNull();
    expect(data.empresa).toEqual(empresa);
    expect(data.representantes).toEqual(representantes);
    expect(data.afiliaciones).toEqual({ isr: null, iva: null });
    expect(rtuResultadoSchema.safeParse(data).success).toBe(true);
  });

  it.each([
    ['31/02/1990', null],
    ['1990-02-28', '1990-02-28'],
    ['1990-02-28T00:00:00-06:00', '1990-02-28'],
    ['29/02/2024', '2024-02-29'],
    ['29/02/2023', null],
    ['14 de marzo de 1985', null],
    [19850314, null],
  ] as const)('converts fechaNacimiento %j to %j', (published, expected) => {
    const data = normalizeRtu({ persona: { fec_nacimiento: published } }, { fechaConsulta: FECHA });
    expect(data.persona?.fechaNacimiento).toBe(expected);
  });

  it('passes a plain answer on as it was published, and still makes plain JSON of what is not', () => {
    const published = '[{"nombre":"Sucursal 1","direccion":{"zona":10,"lineas":["6a avenida",null]},"__proto__":{"x":1},"activo":true}]';
    expect(JSON.stringify(opaqueList(JSON.parse(published)))).toBe(published);
    // Not JSON.parse's own output (a caller's values): copied as JSON.stringify would write them.
    expect(JSON.stringify(opaqueJson({ fecha: new Date(0), lista: [1, , 2], total: -Infinity }))).toBe('{"fecha":{},"lista":[1,null,2],"total":null}');
    expect(JSON.stringify(opaqueJson(JSON.parse('{"a":{"b":[1e400]},"c":"d"}')))).toBe('{"a":{"b":[null]},"c":"d"}');
  });

  it('turns opaque values JSON cannot carry into null and keeps odd keys as plain keys', () => {
    const data = normalizeRtu(JSON.parse('{"empresa": {"capital": 1e400, "__proto__": {"x": 1}}, "representantes": [1e999]}'), { fechaConsulta: FECHA });
    expect(data.empresa).toEqual(JSON.parse('{"capital": null, "__proto__": {"x": 1}}'));
    expect(Object.getPrototypeOf(data.empresa)).toBe(Object.prototype);
    expect(data.representantes).toEqual([null]);
    expect(rtuResultadoSchema.safeParse(data).success).toBe(true);
  });
});

describe('classification of the catalog source answers', () => {
  it.each([
    [400, 'data_rejected'],
    [401, 'auth_rejected'],
    [402, 'balance_exhausted'],
    [403, 'query_type_denied'],
    [429, 'rate_limited'],
    [500, 'unavailable'],
    [502, 'unavailable'],
    [503, 'unavailable'],
    [504, 'unavailable'],
    [302, 'unavailable'],
    [409, 'unavailable'],
    [418, 'unavailable'],
  ] as const)('HTTP %i is %s, whatever the body', (status, failure) => {
    for (const body of ['{"error":{"codigo":"X"}}', '<html>nginx</html>', '']) {
      expect(interpretCatalogAnswer('cui-nit', status, body)).toMatchObject({ ok: false, failure, fault: { kind: 'status', status } });
    }
  });

  it('a 404 is "no result" only with the provider\'s SIN_RESULTADOS code; any other 404 is the source failing', () => {
    expect(interpretCatalogAnswer('cui-nit', 404, '{"error":{"codigo":"SIN_RESULTADOS","detalle":"x"}}')).toMatchObject({ ok: false, failure: 'not_found' });
    for (const body of ['{"error":{"codigo":"X"}}', '<html>404 Not Found</html>', '']) {
      expect(interpretCatalogAnswer('cui-nit', 404, body)).toMatchObject({ ok: false, failure: 'unavailable', fault: { kind: 'status', status: 404 } });
    }
  });

  it.each(['', 'not json', '{"resultado":', '[]', '"EXITOSA"', 'null', '42'])('a 200 with body %j is the source failing (502)', (body) => {
    expect(interpretCatalogAnswer('rtu', 200, body)).toMatchObject({ ok: false, failure: 'unavailable', fault: { kind: 'unreadable', status: 200 } });
  });

  it('a 200 marked FALLIDA is a failed query (404), in any case', () => {
    expect(interpretCatalogAnswer('omisos', 200, answer(null, { estado_consulta: 'FALLIDA', motivo: 'SIN RESPUESTA' }))).toMatchObject({ ok: false, failure: 'not_found' });
    expect(interpretCatalogAnswer('omisos', 200, answer(null, { estado_consulta: ' fallida ' }))).toMatchObject({ ok: false, failure: 'not_found', fault: { kind: 'marked_failed' } });
  });

  it.each(['cui-nit', 'rtu', 'omisos'] as const)('a %s success carrying nothing recognizable has every field null', (kind) => {
    for (const body of ['{}', JSON.stringify({ estado_consulta: 'EXITOSA', resultado: { observacion: 'CONSULTA PROCESADA' } }), JSON.stringify({ resultado: 'texto' })]) {
      const result = interpretCatalogAnswer(kind, 200, body);
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const schema = { 'cui-nit': cuiNitResultadoSchema, rtu: rtuResultadoSchema, omisos: omisosResultadoSchema }[kind];
      expect(schema.safeParse(result.value).success).toBe(true);
      expect(reportsNothing(result.value)).toBe(true);
    }
  });

  it('an unknown estado_consulta on a 200 is still the source saying the query succeeded', () => {
    const result = interpretCatalogAnswer('cui-nit', 200, answer({ nit: '576937K' }, { estado_consulta: 'PROCESADA' }));
    expect(result).toEqual({ ok: true, value: { cui: null, nit: '576937K', nombre: null, tipoPersona: null, fechaConsulta: FECHA } });
  });
});
