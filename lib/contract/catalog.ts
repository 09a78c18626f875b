import { z } from 'zod';

// The `data` of the three catalog lookups, defined once. The normalizers produce these shapes,
// the route handlers validate against them before answering, and the OpenAPI document is
// generated from them (z.toJSONSchema); the ids in .meta() become the component names.
// Envelope rules encoded here: every field is required (null, never omitted), lists are never
// null, CodigoDescripcion is always an object, and objects are strict so an extra key fails.

const text = z.string().nullable();
const publishedDate = (description: string) => z.string().nullable().describe(`${description}; texto tal como lo publica la fuente, formato sin normalizar`);

/** Unnormalized JSON passed through as the source publishes it (empresa, representantes, establecimientos). */
export const opaqueJsonSchema = z.json().meta({
  id: 'OpaqueJson',
  description: 'Cualquier valor JSON, tal como lo publica la fuente. Su forma no es fija y puede cambiar sin aviso.',
});

export const codigoDescripcionSchema = z
  .object({
    codigo: z
      .union([z.number(), z.string()])
      .nullable()
      .describe('Código en el catálogo de la autoridad; compárelo como texto (String(codigo)): los ceros a la izquierda importan'),
    descripcion: text.describe('Texto para personas'),
  })
  .strict()
  .meta({
    id: 'CodigoDescripcion',
    description: 'Un valor de catálogo. Siempre presente: cuando la fuente no lo reporta, los dos campos son null.',
  });

export const sectorEconomicoSchema = z
  .object({
    codigo: z.number().nullable(),
    descripcion: text,
    estado: codigoDescripcionSchema,
    fechaInicio: publishedDate('Fecha de inicio'),
  })
  .strict()
  .meta({ id: 'SectorEconomico', description: 'Sector económico de la actividad del contribuyente.' });

export const actividadEconomicaSchema = z
  .object({
    ciiu: text.describe('Código CIIU'),
    nombre: text,
    clasificacion: text.describe('Por ejemplo principal o secundaria, como la nombra la fuente'),
  })
  .strict()
  .meta({ id: 'ActividadEconomica', description: 'Una actividad económica registrada para el contribuyente.' });

export const marcaContribuyenteSchema = z
  .object({
    codigo: z.number().nullable(),
    nombre: text,
    estado: z.number().nullable().describe('Un código numérico simple, no un objeto'),
    fechaEstado: publishedDate('Fecha del estado actual'),
    vigenciaDesde: publishedDate('Vigente desde'),
    vigenciaHasta: publishedDate('Vigente hasta'),
  })
  .strict()
  .meta({ id: 'MarcaContribuyente', description: 'Una marca registrada a nombre del contribuyente.' });

export const personaRtuSchema = z
  .object({
    primerNombre: text,
    segundoNombre: text,
    primerApellido: text,
    segundoApellido: text,
    dpi: text.describe('El CUI, tal como se publica'),
    serieDpi: text,
    versionDpi: text,
    fechaNacimiento: z.iso.date().nullable().describe('YYYY-MM-DD, convertida por el servicio: la única fecha con formato garantizado'),
    fechaVencimientoDpi: publishedDate('Vencimiento del DPI'),
    genero: codigoDescripcionSchema,
    estadoCivil: codigoDescripcionSchema,
    nacionalidad: codigoDescripcionSchema,
    tipoDocumento: codigoDescripcionSchema,
    estado: codigoDescripcionSchema,
    sectorEconomico: sectorEconomicoSchema,
    actividadesEconomicas: z.array(actividadEconomicaSchema).describe('[] si no hay'),
    marcas: z.array(marcaContribuyenteSchema).describe('[] si no hay'),
    participacionGremial: z.boolean().nullable().describe('null significa no reportado, no false'),
    participacionEmpresarial: z.boolean().nullable().describe('null significa no reportado, no false'),
  })
  .strict()
  .meta({ id: 'PersonaRtu', description: 'El registro RTU de una persona individual. Todos los campos están siempre presentes.' });

export const obligacionTributariaSchema = z
  .object({
    nombre: text,
    periodo: text.describe('Periodicidad'),
    formulario: text.describe('Formulario de la SAT con el que se cumple la obligación'),
    generaEtiquetaOmiso: z.boolean().nullable().describe('Si incumplirla marca al contribuyente como omiso; null significa no reportado'),
    requerida: z.boolean().nullable(),
    estado: codigoDescripcionSchema,
  })
  .strict()
  .meta({ id: 'ObligacionTributaria', description: 'Una obligación de declarar que trae la afiliación a un impuesto.' });

export const afiliacionImpuestoSchema = z
  .object({
    impuesto: codigoDescripcionSchema,
    regimen: codigoDescripcionSchema,
    tipoContribuyente: codigoDescripcionSchema,
    periodoImpositivo: codigoDescripcionSchema,
    formaCalculo: codigoDescripcionSchema,
    estatusAfiliacion: codigoDescripcionSchema,
    tipoRenta: codigoDescripcionSchema.describe('Solo ISR; codigo y descripcion en null para el IVA'),
    tipoEstablecimiento: codigoDescripcionSchema.describe('Solo IVA; codigo y descripcion en null para el ISR'),
    exento: z.boolean().nullable(),
    fechaDesde: publishedDate('Afiliado desde'),
    obligaciones: z.array(obligacionTributariaSchema).describe('[] si no hay'),
  })
  .strict()
  .meta({ id: 'AfiliacionImpuesto', description: 'Afiliación a un impuesto (ISR o IVA); la misma forma para los dos.' });

export const caracteristicaEspecialSchema = z
  .object({
    codigo: z.number().nullable(),
    nombre: text,
    estado: codigoDescripcionSchema,
    fechaEstado: publishedDate('Fecha del estado actual'),
    fechaDesde: publishedDate('Vigente desde'),
    fechaHasta: publishedDate('Vigente hasta'),
  })
  .strict()
  .meta({ id: 'CaracteristicaEspecial', description: 'Una característica especial que registra la autoridad (agente retenedor, exportador…).' });

export const tipoPersonaSchema = z
  .enum(['individual', 'juridica'])
  .nullable()
  .describe('null cuando la fuente no lo reporta o reporta un valor no reconocido');

const fechaConsulta = z
  .string()
  .nullable()
  .describe('Momento de los datos según la fuente, tal como lo publica (hoy ISO 8601 en UTC, sin normalizar); con actualizado false puede ser anterior a la solicitud');

export const cuiNitResultadoSchema = z
  .object({
    cui: text,
    nit: text,
    nombre: text.describe('Nombre completo en un solo campo, con la puntuación de la fuente: no lo divida'),
    tipoPersona: tipoPersonaSchema,
    fechaConsulta,
  })
  .strict()
  .meta({ id: 'CuiNitResultado', description: 'data de POST /catalogos/cui-nit: el NIT de un CUI, o el CUI de un NIT.' });

export const domicilioFiscalSchema = z
  .object({
    departamento: text,
    municipio: text,
    direccion: text,
    telefono: text,
  })
  .strict()
  .meta({ id: 'DomicilioFiscal', description: 'Domicilio fiscal. Siempre presente; cada campo es null cuando no se reporta.' });

export const omisosResultadoSchema = z
  .object({
    nit: text,
    nombre: text.describe('Un solo campo'),
    nombreComercial: text,
    cui: text.describe('Tal como se publica; puede traer espacios entre grupos de dígitos (quítelos de ambos lados antes de comparar)'),
    versionDpi: text,
    estadoContribuyente: text,
    tipoAfiliacion: text,
    regimen: text,
    fechaAfiliacion: publishedDate('Fecha de afiliación'),
    domicilioFiscal: domicilioFiscalSchema,
    establecimientos: z.array(opaqueJsonSchema).describe('Sin normalizar, tal como lo publica la fuente; [] si no hay'),
    tieneIncumplimientos: z.boolean().nullable().describe('Registra obligaciones omisas; null significa no reportado y no equivale a false'),
    tieneProcesoCoactivo: z.boolean().nullable().describe('Registra un proceso de cobro coactivo; null significa no reportado'),
    incumplimientos: z.array(z.string()).describe('Detalle en el texto de la autoridad; [] si no hay, nunca null'),
    fechaConsulta,
  })
  .strict()
  .meta({ id: 'OmisosResultado', description: 'data de POST /catalogos/omisos: el estado de cumplimiento del contribuyente.' });

export const afiliacionesSchema = z
  .object({
    isr: afiliacionImpuestoSchema.nullable().describe('null si no está afiliado al ISR'),
    iva: afiliacionImpuestoSchema.nullable().describe('null si no está afiliado al IVA'),
  })
  .strict()
  .meta({ id: 'Afiliaciones', description: 'Afiliaciones al ISR y al IVA.' });

export const rtuResultadoSchema = z
  .object({
    nit: text,
    tipoContribuyente: codigoDescripcionSchema,
    persona: personaRtuSchema.nullable().describe('Llena para personas individuales'),
    empresa: z
      .record(z.string(), opaqueJsonSchema)
      .nullable()
      .describe('Llena para personas jurídicas; sin normalizar, forma no fija. Es empresa cuando persona es null y empresa no lo es; ambos en null significa indeterminado'),
    representantes: z.array(opaqueJsonSchema).describe('Sin normalizar, forma no fija'),
    afiliaciones: afiliacionesSchema,
    caracteristicasEspeciales: z.array(caracteristicaEspecialSchema),
    fechaUltimaActualizacion: publishedDate('Última actualización o ratificación ante la autoridad'),
    fechaConsulta,
  })
  .strict()
  .meta({ id: 'RtuResultado', description: 'data de POST /catalogos/rtu: régimen, afiliaciones, obligaciones y características especiales de un contribuyente.' });

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
