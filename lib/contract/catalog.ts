import { z } from 'zod';

// The `data` of the three catalog lookups, defined once. The normalizers produce these shapes,
// the route handlers validate against them before answering, and the OpenAPI document is
// generated from them (z.toJSONSchema); the ids in .meta() become the component names.
// Envelope rules encoded here: every field is required (null, never omitted), lists are never
// null, CodigoDescripcion is always an object, and objects are strict so an extra key fails.

const text = z.string().nullable();
const publishedDate = (description: string) => z.string().nullable().describe(`${description}; text exactly as the source publishes it, format not normalized`);

/** Unnormalized JSON passed through as the source publishes it (empresa, representantes, establecimientos). */
export const opaqueJsonSchema = z.json().meta({
  id: 'OpaqueJson',
  description: 'Any JSON value, passed through as the source publishes it. Shape not fixed; may change without notice.',
});

export const codigoDescripcionSchema = z
  .object({
    codigo: z
      .union([z.number(), z.string()])
      .nullable()
      .describe("Code in the authority's catalog; compare by value after converting to string; leading zeros matter"),
    descripcion: text.describe('Text for people'),
  })
  .strict()
  .meta({
    id: 'CodigoDescripcion',
    description: 'A catalog value. Always present; when the source does not report it, both fields are null.',
  });

export const sectorEconomicoSchema = z
  .object({
    codigo: z.number().nullable(),
    descripcion: text,
    estado: codigoDescripcionSchema,
    fechaInicio: publishedDate('Start date'),
  })
  .strict()
  .meta({ id: 'SectorEconomico', description: "Economic sector of the taxpayer's activity." });

export const actividadEconomicaSchema = z
  .object({
    ciiu: text.describe('CIIU (ISIC) code'),
    nombre: text,
    clasificacion: text.describe('For example principal or secondary, as the source names it'),
  })
  .strict()
  .meta({ id: 'ActividadEconomica', description: 'An economic activity registered for the taxpayer.' });

export const marcaContribuyenteSchema = z
  .object({
    codigo: z.number().nullable(),
    nombre: text,
    estado: z.number().nullable().describe('A bare numeric code, not an object'),
    fechaEstado: publishedDate('Date of the current state'),
    vigenciaDesde: publishedDate('Valid from'),
    vigenciaHasta: publishedDate('Valid until'),
  })
  .strict()
  .meta({ id: 'MarcaContribuyente', description: 'A trademark registered to the taxpayer.' });

export const personaRtuSchema = z
  .object({
    primerNombre: text,
    segundoNombre: text,
    primerApellido: text,
    segundoApellido: text,
    dpi: text.describe('The CUI, as published'),
    serieDpi: text,
    versionDpi: text,
    fechaNacimiento: z.iso.date().nullable().describe('YYYY-MM-DD, converted by the service; the only date with a guaranteed format'),
    fechaVencimientoDpi: publishedDate('DPI expiry'),
    genero: codigoDescripcionSchema,
    estadoCivil: codigoDescripcionSchema,
    nacionalidad: codigoDescripcionSchema,
    tipoDocumento: codigoDescripcionSchema,
    estado: codigoDescripcionSchema,
    sectorEconomico: sectorEconomicoSchema,
    actividadesEconomicas: z.array(actividadEconomicaSchema).describe('[] if none'),
    marcas: z.array(marcaContribuyenteSchema).describe('[] if none'),
    participacionGremial: z.boolean().nullable().describe('null means not reported, not false'),
    participacionEmpresarial: z.boolean().nullable().describe('null means not reported, not false'),
  })
  .strict()
  .meta({ id: 'PersonaRtu', description: 'The RTU record of an individual. Every field is always present.' });

export const obligacionTributariaSchema = z
  .object({
    nombre: text,
    periodo: text.describe('Periodicity'),
    formulario: text.describe('SAT form that fulfils the obligation'),
    generaEtiquetaOmiso: z.boolean().nullable().describe('Whether failing it marks the taxpayer as omiso; null means not reported'),
    requerida: z.boolean().nullable(),
    estado: codigoDescripcionSchema,
  })
  .strict()
  .meta({ id: 'ObligacionTributaria', description: 'A filing obligation that comes with a tax affiliation.' });

export const afiliacionImpuestoSchema = z
  .object({
    impuesto: codigoDescripcionSchema,
    regimen: codigoDescripcionSchema,
    tipoContribuyente: codigoDescripcionSchema,
    periodoImpositivo: codigoDescripcionSchema,
    formaCalculo: codigoDescripcionSchema,
    estatusAfiliacion: codigoDescripcionSchema,
    tipoRenta: codigoDescripcionSchema.describe('ISR only; code and description null for IVA'),
    tipoEstablecimiento: codigoDescripcionSchema.describe('IVA only; code and description null for ISR'),
    exento: z.boolean().nullable(),
    fechaDesde: publishedDate('Affiliated since'),
    obligaciones: z.array(obligacionTributariaSchema).describe('[] if none'),
  })
  .strict()
  .meta({ id: 'AfiliacionImpuesto', description: 'Affiliation to one tax (ISR or IVA); the same shape for both.' });

export const caracteristicaEspecialSchema = z
  .object({
    codigo: z.number().nullable(),
    nombre: text,
    estado: codigoDescripcionSchema,
    fechaEstado: publishedDate('Date of the current state'),
    fechaDesde: publishedDate('Valid from'),
    fechaHasta: publishedDate('Valid until'),
  })
  .strict()
  .meta({ id: 'CaracteristicaEspecial', description: 'A special trait the authority records (withholding agent, exporter, ...).' });

export const tipoPersonaSchema = z
  .enum(['individual', 'juridica'])
  .nullable()
  .describe('null when the source does not report it or reports an unrecognized value');

const fechaConsulta = z
  .string()
  .nullable()
  .describe('Moment the source reports for the data, as published (currently ISO 8601 UTC, not normalized); with actualizado false it may be older than the request');

export const cuiNitResultadoSchema = z
  .object({
    cui: text,
    nit: text,
    nombre: text.describe('Full name in one field as the source records it; its punctuation must not be split'),
    tipoPersona: tipoPersonaSchema,
    fechaConsulta,
  })
  .strict()
  .meta({ id: 'CuiNitResultado', description: 'data of POST /catalogos/cui-nit: the NIT for a CUI, or the CUI for a NIT.' });

export const domicilioFiscalSchema = z
  .object({
    departamento: text,
    municipio: text,
    direccion: text,
    telefono: text,
  })
  .strict()
  .meta({ id: 'DomicilioFiscal', description: 'Fiscal domicile. Always present; fields null when not reported.' });

export const omisosResultadoSchema = z
  .object({
    nit: text,
    nombre: text.describe('Single field'),
    nombreComercial: text,
    cui: text.describe('As published; may contain spaces between digit groups (strip spaces on both sides before comparing)'),
    versionDpi: text,
    estadoContribuyente: text,
    tipoAfiliacion: text,
    regimen: text,
    fechaAfiliacion: publishedDate('Affiliation date'),
    domicilioFiscal: domicilioFiscalSchema,
    establecimientos: z.array(opaqueJsonSchema).describe('Unnormalized, as the source publishes it; [] if none'),
    tieneIncumplimientos: z.boolean().nullable().describe('Unfiled obligations recorded; null means not reported and is not false'),
    tieneProcesoCoactivo: z.boolean().nullable().describe('Coercive collection process recorded; null means not reported'),
    incumplimientos: z.array(z.string()).describe('Detail as authority text; [] when none, never null'),
    fechaConsulta,
  })
  .strict()
  .meta({ id: 'OmisosResultado', description: "data of POST /catalogos/omisos: the taxpayer's compliance status." });

export const afiliacionesSchema = z
  .object({
    isr: afiliacionImpuestoSchema.nullable().describe('null when not affiliated to ISR'),
    iva: afiliacionImpuestoSchema.nullable().describe('null when not affiliated to IVA'),
  })
  .strict()
  .meta({ id: 'Afiliaciones', description: 'Affiliations to ISR and IVA.' });

export const rtuResultadoSchema = z
  .object({
    nit: text,
    tipoContribuyente: codigoDescripcionSchema,
    persona: personaRtuSchema.nullable().describe('Filled for individuals'),
    empresa: z
      .record(z.string(), opaqueJsonSchema)
      .nullable()
      .describe('Filled for legal entities; unnormalized, shape not fixed. A legal entity is persona null and empresa non-null; both null means undetermined'),
    representantes: z.array(opaqueJsonSchema).describe('Unnormalized, shape not fixed'),
    afiliaciones: afiliacionesSchema,
    caracteristicasEspeciales: z.array(caracteristicaEspecialSchema),
    fechaUltimaActualizacion: publishedDate('Last update or ratification before the authority'),
    fechaConsulta,
  })
  .strict()
  .meta({ id: 'RtuResultado', description: 'data of POST /catalogos/rtu: regime, affiliations, obligations and special traits of one taxpayer.' });

export type CodigoDescripcion = z.infer<typeof codigoDescripcionSchema>;
export type SectorEconomico = z.infer<typeof sectorEconomicoSchema>;
export type ActividadEconomica = z.infer<typeof actividadEconomicaSchema>;
export type MarcaContribuyente = z.infer<typeof marcaContribuyenteSchema>;
export type PersonaRtu = z.infer<typeof personaRtuSchema>;
export type ObligacionTributaria = z.infer<typeof obligacionTributariaSchema>;
export type AfiliacionImpuesto = z.infer<typeof afiliacionImpuestoSchema>;
export type CaracteristicaEspecial = z.infer<typeof caracteristicaEspecialSchema>;
export type TipoPersona = z.infer<typeof tipoPersonaSchema>;
export type CuiNitResultado = z.infer<typeof cuiNitResultadoSchema>;
export type DomicilioFiscal = z.infer<typeof domicilioFiscalSchema>;
export type OmisosResultado = z.infer<typeof omisosResultadoSchema>;
export type Afiliaciones = z.infer<typeof afiliacionesSchema>;
export type RtuResultado = z.infer<typeof rtuResultadoSchema>;
export type OpaqueJson = z.infer<typeof opaqueJsonSchema>;
