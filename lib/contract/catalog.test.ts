import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  afiliacionImpuestoSchema,
  codigoDescripcionSchema,
  cuiNitResultadoSchema,
  omisosResultadoSchema,
  personaRtuSchema,
  rtuResultadoSchema,
  type AfiliacionImpuesto,
  type CuiNitResultado,
  type OmisosResultado,
  type PersonaRtu,
  type RtuResultado,
} from './catalog';

const nothing = { codigo: null, descripcion: null };

function without(record: object, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
}

const allNullCuiNit: CuiNitResultado = { cui: null, nit: null, nombre: null, tipoPersona: null, fechaConsulta: null };

const allNullOmisos: OmisosResultado = {
  nit: null,
  nombre: null,
  nombreComercial: null,
  cui: null,
  versionDpi: null,
  estadoContribuyente: null,
  tipoAfiliacion: null,
  regimen: null,
  fechaAfiliacion: null,
  domicilioFiscal: { departamento: null, municipio: null, direccion: null, telefono: null },
  establecimientos: [],
  tieneIncumplimientos: null,
  tieneProcesoCoactivo: null,
  incumplimientos: [],
  fechaConsulta: null,
};

const allNullRtu: RtuResultado = {
  nit: null,
  tipoContribuyente: nothing,
  persona: null,
  empresa: null,
  representantes: [],
  afiliaciones: { isr: null, iva: null },
  caracteristicasEspeciales: [],
  fechaUltimaActualizacion: null,
  fechaConsulta: null,
};

const persona: PersonaRtu = {
  primerNombre: 'HEIDY',
  segundoNombre: null,
  primerApellido: 'BARRIOS',
  segundoApellido: null,
  dpi: '1730 38271 1903',
  serieDpi: null,
  versionDpi: '2',
  fechaNacimiento: '1944-06-19',
  fechaVencimientoDpi: 'INDEFINIDO',
  genero: { codigo: 'F', descripcion: 'FEMENINO' },
  estadoCivil: nothing,
  nacionalidad: nothing,
  tipoDocumento: { codigo: '01', descripcion: 'DPI' },
  estado: { codigo: 1, descripcion: 'ACTIVO' },
  sectorEconomico: { codigo: null, descripcion: null, estado: nothing, fechaInicio: null },
  actividadesEconomicas: [],
  marcas: [],
  participacionGremial: null,
  participacionEmpresarial: false,
};

describe('catalog contract schemas', () => {
  it('accept the all-null record of each catalog (a success with nothing recognizable)', () => {
    expect(cuiNitResultadoSchema.parse(allNullCuiNit)).toEqual(allNullCuiNit);
    expect(omisosResultadoSchema.parse(allNullOmisos)).toEqual(allNullOmisos);
    expect(rtuResultadoSchema.parse(allNullRtu)).toEqual(allNullRtu);
  });

  it('reject an omitted field: null is never omitted', () => {
    expect(cuiNitResultadoSchema.safeParse(without(allNullCuiNit, 'fechaConsulta')).success).toBe(false);
    expect(rtuResultadoSchema.safeParse(without(allNullRtu, 'persona')).success).toBe(false);
  });

  it('reject extra keys (strict objects)', () => {
    expect(cuiNitResultadoSchema.safeParse({ ...allNullCuiNit, success: true }).success).toBe(false);
    expect(codigoDescripcionSchema.safeParse({ ...nothing, extra: 1 }).success).toBe(false);
  });

  it('reject null lists and a null CodigoDescripcion', () => {
    expect(omisosResultadoSchema.safeParse({ ...allNullOmisos, incumplimientos: null }).success).toBe(false);
    expect(rtuResultadoSchema.safeParse({ ...allNullRtu, representantes: null }).success).toBe(false);
    expect(rtuResultadoSchema.safeParse({ ...allNullRtu, tipoContribuyente: null }).success).toBe(false);
  });

  it('accept codes as numbers or strings, and keep their type', () => {
    expect(codigoDescripcionSchema.parse({ codigo: '01', descripcion: 'x' }).codigo).toBe('01');
    expect(codigoDescripcionSchema.parse({ codigo: 1, descripcion: null }).codigo).toBe(1);
    expect(codigoDescripcionSchema.safeParse({ codigo: true, descripcion: null }).success).toBe(false);
  });

  it('only accept individual, juridica or null as tipoPersona', () => {
    expect(cuiNitResultadoSchema.safeParse({ ...allNullCuiNit, tipoPersona: 'juridica' }).success).toBe(true);
    expect(cuiNitResultadoSchema.safeParse({ ...allNullCuiNit, tipoPersona: 'I' }).success).toBe(false);
  });

  it('hold fechaNacimiento to YYYY-MM-DD and a real day, but pass other dates through', () => {
    expect(personaRtuSchema.safeParse(persona).success).toBe(true);
    expect(personaRtuSchema.safeParse({ ...persona, fechaNacimiento: '19/06/1944' }).success).toBe(false);
    expect(personaRtuSchema.safeParse({ ...persona, fechaNacimiento: '1944-02-30' }).success).toBe(false);
    expect(personaRtuSchema.safeParse({ ...persona, fechaVencimientoDpi: 'cualquier texto' }).success).toBe(true);
  });

  it('keep empresa, representantes and establecimientos as opaque JSON', () => {
    const opaque = { razon_social: 'X, S.A.', socios: [{ porcentaje: 50.5, datos: { nested: [null, true] } }] };
    expect(rtuResultadoSchema.safeParse({ ...allNullRtu, empresa: opaque, representantes: [opaque, 'texto', 3] }).success).toBe(true);
    expect(omisosResultadoSchema.safeParse({ ...allNullOmisos, establecimientos: [opaque] }).success).toBe(true);
    expect(rtuResultadoSchema.safeParse({ ...allNullRtu, empresa: ['not', 'an', 'object'] }).success).toBe(false);
  });

  it('describe AfiliacionImpuesto with every field required', () => {
    const afiliacion: AfiliacionImpuesto = {
      impuesto: nothing,
      regimen: nothing,
      tipoContribuyente: nothing,
      periodoImpositivo: nothing,
      formaCalculo: nothing,
      estatusAfiliacion: nothing,
      tipoRenta: nothing,
      tipoEstablecimiento: nothing,
      exento: null,
      fechaDesde: null,
      obligaciones: [],
    };
    expect(afiliacionImpuestoSchema.safeParse(afiliacion).success).toBe(true);
    expect(rtuResultadoSchema.safeParse({ ...allNullRtu, afiliaciones: { isr: afiliacion, iva: null } }).success).toBe(true);
  });

  it('turn into JSON Schema with named components, for the OpenAPI document', () => {
    const document = z.toJSONSchema(rtuResultadoSchema, { target: 'draft-2020-12' }) as { $defs?: Record<string, unknown> };
    expect(Object.keys(document.$defs ?? {})).toEqual(
      expect.arrayContaining([
        'RtuResultado',
        'CodigoDescripcion',
        'PersonaRtu',
        'SectorEconomico',
        'ActividadEconomica',
        'MarcaContribuyente',
        'AfiliacionImpuesto',
        'ObligacionTributaria',
        'CaracteristicaEspecial',
        'OpaqueJson',
      ]),
    );
    for (const schema of [cuiNitResultadoSchema, omisosResultadoSchema]) expect(() => z.toJSONSchema(schema)).not.toThrow();
  });
});
