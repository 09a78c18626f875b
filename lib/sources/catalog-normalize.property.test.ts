// Property: whatever the catalog source sends, the client ends in a contract-valid record or a
// classified failure, and never throws. A 2xx ends in a valid record, in 502 (not a JSON object)
// or in 404 (marked FALLIDA); nothing else.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cuiNitResultadoSchema, omisosResultadoSchema, rtuResultadoSchema } from '../contract/catalog';
import { interpretCatalogAnswer } from './catalog-client';
import { SOURCE_FAILURES } from './outcomes';

const SCHEMAS = { 'cui-nit': cuiNitResultadoSchema, rtu: rtuResultadoSchema, omisos: omisosResultadoSchema } as const;
/** The catalogs whose normalizers these properties cover. */
type CatalogKind = keyof typeof SCHEMAS;
const KINDS: CatalogKind[] = ['cui-nit', 'rtu', 'omisos'];

// Every key the source's protocol uses, plus keys that reach inherited members of plain objects.
const SOURCE_KEYS = [
  'estado_consulta', 'fecha_consulta', 'resultado', 'motivo', 'nit', 'cui', 'nombre_completo', 'tipo_persona', 'nombre',
  'nombre_comercial', 'version_dpi', 'estado_contribuyente', 'tipo_afiliacion', 'regimen', 'fec_afiliacion', 'domicilio_fiscal',
  'depto', 'muni', 'direccion', 'telefono', 'establecimientos', 'omiso', 'cobro_coactivo', 'omisiones', 'tipo_contribuyente',
  'persona', 'empresa', 'representantes', 'afiliaciones', 'caracteristicas_especiales', 'fec_ult_actualizacion', 'nombre_1',
  'nombre_2', 'apellido_1', 'apellido_2', 'dpi', 'serie_dpi', 'fec_nacimiento', 'fec_vencimiento_dpi', 'genero', 'estado_civil',
  'nacionalidad', 'tipo_documento', 'estado', 'sector_economico', 'cod', 'des', 'fec_inicio', 'actividades', 'cod_ciiu',
  'des_actividad', 'clasif', 'marcas', 'cod_marca', 'nombre_marca', 'cod_estado', 'fec_estado', 'vigente_desde', 'vigente_hasta',
  'part_gremial', 'part_empresarial', 'impuesto', 'periodo_impositivo', 'forma_calculo', 'estatus', 'tipo_renta',
  'tipo_establecimiento', 'exento', 'fec_desde', 'fec_hasta', 'obligaciones', 'obligacion', 'periodicidad', 'formulario',
  'marca_omiso', 'obligatoria',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf',
];

// A JSON number that overflows to Infinity when parsed; written into the text after stringify.
const OVERFLOW = '__overflowing_number__';

// Values that look like the source's, and values that do not.
const hostileScalar = fc.oneof(
  fc.constantFrom(
    null, true, false, 0, -0, 1, -1, 1.5, Number.MAX_SAFE_INTEGER, 2 ** 60, '', ' ', 'S', 'N', 'SI', 'NO', 'X', 'PENDIENTE',
    'I', 'J', 'ND', 'ISR', 'IVA', 'FALLIDA', 'fallida', 'EXITOSA', '01', '3', '12a', '31/02/1990', '29/02/2024', '1990-13-01',
    '2025-11-03T14:22:05Z', '9/6/1944', '0000-00-00', 'INDEFINIDO', '2415 75181 0101', '576937-K', '<script>', '\u0000', 'ñÑ',
    'IMPUESTO SOBRE LA RENTA', 'VALOR AGREGADO', OVERFLOW,
  ),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Anything at all: scalars, lists, and objects keyed by the protocol's names or inherited members. */
const { sourceValue } = fc.letrec<{ sourceValue: unknown }>((tie) => ({
  sourceValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('sourceValue'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...SOURCE_KEYS), tie('sourceValue'), { maxKeys: 8 }),
  ),
}));

type Shape = Record<string, fc.Arbitrary<unknown>>;
/** Mostly the expected shape with any subset of its keys; sometimes anything else instead. */
const maybe = (arbitrary: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: sourceValue });
const shaped = (shape: Shape) => maybe(fc.record(shape, { requiredKeys: [] }));
const listOf = (arbitrary: fc.Arbitrary<unknown>) => maybe(fc.array(arbitrary, { maxLength: 4 }));
const scalars = (...keys: string[]): Shape => Object.fromEntries(keys.map((key) => [key, hostileScalar]));

const catalogValue = shaped(scalars('cod', 'des'));
const taxValue = shaped({
  cod: fc.constantFrom('ISR', 'IVA', ' isr ', 'iva', 7, null, ''),
  des: fc.constantFrom('IMPUESTO SOBRE LA RENTA', 'IMPUESTO AL VALOR AGREGADO', 'OTRO', null),
});
const obligation = shaped({ ...scalars('obligacion', 'periodicidad', 'formulario', 'marca_omiso', 'obligatoria'), estado: catalogValue });
const affiliation = shaped({
  impuesto: taxValue,
  ...Object.fromEntries(['regimen', 'tipo_contribuyente', 'periodo_impositivo', 'forma_calculo', 'estatus', 'tipo_renta', 'tipo_establecimiento'].map((key) => [key, catalogValue])),
  ...scalars('exento', 'fec_desde'),
  obligaciones: listOf(obligation),
});
const persona = shaped({
  ...scalars('nombre_1', 'nombre_2', 'apellido_1', 'apellido_2', 'apellido_casada', 'dpi', 'serie_dpi', 'version_dpi', 'fec_nacimiento', 'fec_vencimiento_dpi', 'part_gremial', 'part_empresarial'),
  ...Object.fromEntries(['genero', 'estado_civil', 'nacionalidad', 'tipo_documento', 'estado'].map((key) => [key, catalogValue])),
  sector_economico: shaped({ ...scalars('cod', 'des', 'fec_inicio'), estado: catalogValue }),
  actividades: listOf(shaped(scalars('cod_ciiu', 'des_actividad', 'clasif'))),
  marcas: listOf(shaped(scalars('cod_marca', 'nombre_marca', 'cod_estado', 'fec_estado', 'vigente_desde', 'vigente_hasta'))),
});

const RESULTS: Record<CatalogKind, fc.Arbitrary<unknown>> = {
  'cui-nit': shaped(scalars('nit', 'cui', 'nombre_completo', 'tipo_persona')),
  omisos: shaped({
    ...scalars('nit', 'nombre', 'nombre_comercial', 'cui', 'version_dpi', 'estado_contribuyente', 'tipo_afiliacion', 'regimen', 'fec_afiliacion', 'omiso', 'cobro_coactivo'),
    domicilio_fiscal: shaped(scalars('depto', 'muni', 'direccion', 'telefono')),
    establecimientos: sourceValue,
    omisiones: listOf(hostileScalar),
  }),
  rtu: shaped({
    ...scalars('nit', 'fec_ult_actualizacion'),
    tipo_contribuyente: catalogValue,
    persona,
    empresa: sourceValue,
    representantes: sourceValue,
    afiliaciones: listOf(affiliation),
    caracteristicas_especiales: listOf(shaped({ ...scalars('cod', 'nombre', 'fec_estado', 'fec_desde', 'fec_hasta'), estado: catalogValue })),
  }),
};

/** An answer shaped like the protocol's envelope, with anything inside. */
const envelopeOf = (kind: CatalogKind) =>
  shaped({
    estado_consulta: fc.oneof(fc.constantFrom('EXITOSA', 'FALLIDA', 'fallida ', 'OTRO'), hostileScalar),
    fecha_consulta: hostileScalar,
    resultado: RESULTS[kind],
    motivo: hostileScalar,
  });

const toJsonText = (value: unknown) => (JSON.stringify(value) ?? 'undefined').replaceAll(`"${OVERFLOW}"`, '-1e400');

/** Text as it could arrive: JSON of anything, truncated JSON, or no JSON at all. */
const bodyTextOf = (kind: CatalogKind) =>
  fc.oneof(
    { weight: 6, arbitrary: envelopeOf(kind).map(toJsonText) },
    { weight: 1, arbitrary: sourceValue.map(toJsonText) },
    {
      weight: 1,
      arbitrary: fc.tuple(envelopeOf(kind), fc.nat()).map(([value, cut]) => {
        const text = toJsonText(value);
        return text.slice(0, cut % (text.length + 1));
      }),
    },
    { weight: 1, arbitrary: fc.string() },
  );

const answerOfAnyKind = fc.constantFrom(...KINDS).chain((kind) => fc.tuple(fc.constant(kind), bodyTextOf(kind)));

describe('catalog answers of any shape', () => {
  it('a 2xx ends in a schema-valid record, a 502, or a 404 when marked failed; never a throw', () => {
    fc.assert(
      fc.property(answerOfAnyKind, fc.integer({ min: 200, max: 299 }), ([kind, body], status) => {
        const result = interpretCatalogAnswer(kind, status, body);
        if (result.ok) {
          const validation = SCHEMAS[kind].safeParse(result.value);
          expect(validation.error?.issues ?? []).toEqual([]);
          // What leaves the service is JSON; the record must survive the trip unchanged.
          expect(JSON.parse(JSON.stringify(result.value))).toEqual(result.value);
        } else {
          expect(['unavailable', 'not_found']).toContain(result.failure);
          if (result.failure === 'not_found') expect(body.toUpperCase()).toContain('FALLIDA');
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('any other status ends in one classified failure', () => {
    fc.assert(
      fc.property(
        answerOfAnyKind,
        fc.integer({ min: 100, max: 599 }).filter((status) => status < 200 || status > 299),
        ([kind, body], status) => {
          const result = interpretCatalogAnswer(kind, status, body);
          expect(result.ok).toBe(false);
          if (!result.ok) expect(SOURCE_FAILURES).toContain(result.failure);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a deeply nested opaque value is cut instead of exhausting the stack', () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const result = interpretCatalogAnswer('rtu', 200, `{"resultado":{"empresa":{"x":${deep}},"representantes":${deep}}}`);
    expect(result.ok).toBe(true);
    if (result.ok) expect(rtuResultadoSchema.safeParse(result.value).success).toBe(true);
  });
});
