// A job's results as the integrator downloads them (GET /api/lotes/{id}/resultados): one row per
// submitted identifier, in the order sent, read a page at a time (constant memory for 10,000 rows)
// and opened from their sealed form only on the way out.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { CATALOG_LOOKUPS, type BulkItemStatus, type BulkJobState } from '@/db/schema';
import { csvField } from '@/lib/platform/csv/csv';
import { formatGuatemalanTimestamp } from '@/lib/platform/time/guatemala-time';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { open, openNullable } from '@/lib/core/sealing/envelope';
import { isSourceName } from '@/lib/sources/guard';
import type { CatalogName } from '@/lib/flows/lookups/catalog-request';
import { constanciaAddress } from '@/lib/core/constancias/payload';
import { isPublicJobId } from './jobs';
import { itemReasonLabel, itemStatusLabel } from './labels';

const PAGE_ROWS = 500;

/** An item's status as the results show it: a pending item of a cancelled job never ran. */
export type ResultStatus = BulkItemStatus | 'cancelado';

export interface ResultRow {
  posicion: number;
  identificador: string;
  estado: ResultStatus;
  motivo: string | null;
  datos: unknown;
  respondido_en: string | null;
  /** The source's name as the notices and /estado give it ("Fuente de catálogos (CUI/NIT, RTU, omisos)"). */
  fuente: string | null;
  /** Its id, as /api/estado's `fuente` and the notices' `fuente_id` give it (`catalog`). */
  fuente_id: string | null;
  request_id: string | null;
  /** The receipt of the row's answer (a job sent with constancias: true, found rows only), and where it is read. */
  constancia_id: string | null;
  constancia_url: string | null;
}

/**
 * An item's source as the integrator reads every other source elsewhere: the webhook's pair
 * (`fuente`, `fuente_id`), so a row's evidence names the same source /estado reports on.
 */
export function sourceForIntegrator(source: string | null): { fuente: string | null; fuente_id: string | null } {
  if (source === null) return { fuente: null, fuente_id: null };
  return { fuente: isSourceName(source) ? SOURCE_LABELS[source] : source, fuente_id: source };
}

/** A job's rows, read as they are iterated, and its catalog (the CSV's columns depend on it). */
export interface JobResults extends AsyncIterable<ResultRow> {
  catalog: CatalogName;
}

/** The job's rows, or null for an unknown id and for another integration's job. */
export async function jobResults(integrationId: number, publicId: string): Promise<JobResults | null> {
  if (!isPublicJobId(publicId)) return null;
  const handle = await database();
  const [job] = await handle.rows<{ id: number; state: BulkJobState; catalog: CatalogName }>(sql`
    select id, state, catalog from bulk_jobs where integration_id = ${integrationId}::integer and public_id = ${publicId}::text`);
  if (!job) return null;
  const jobId = Number(job.id);
  const cancelled = job.state === 'cancelado';
  return {
    catalog: job.catalog,
    async *[Symbol.asyncIterator]() {
      for (let after = -1; ; ) {
        const rows = await handle.rows<{
          position: number;
          identifier_sealed: string;
          status: BulkItemStatus;
          reason: string | null;
          result_sealed: string | null;
          answered_at: string | Date | null;
          source: string | null;
          request_id: string | null;
          constancia_id: string | null;
        }>(sql`
          select position, identifier_sealed, status, reason, result_sealed, answered_at, source, request_id, constancia_id
            from bulk_job_items where job_id = ${jobId}::integer and position > ${after}::integer
           order by position limit ${PAGE_ROWS}::integer`);
        for (const row of rows) {
          const result = openNullable(row.result_sealed, 'bulk_result');
          yield {
            posicion: Number(row.position) + 1,
            identificador: open(row.identifier_sealed, 'bulk_identifier'),
            estado: cancelled && row.status === 'pendiente' ? 'cancelado' : row.status,
            motivo: row.reason,
            datos: result === null ? null : JSON.parse(result),
            respondido_en: row.answered_at === null ? null : new Date(row.answered_at).toISOString(),
            ...sourceForIntegrator(row.source),
            request_id: row.request_id,
            constancia_id: row.constancia_id,
            constancia_url: row.constancia_id === null ? null : constanciaAddress(row.constancia_id),
          };
        }
        if (rows.length < PAGE_ROWS) return;
        after = Number(rows[rows.length - 1]!.position);
      }
    },
  };
}

// The CSV is read by people in a spreadsheet as much as by integrators' programs. Its first nine
// columns keep their names, order and codes (programs that read them by position keep working);
// after them come the same row in words, the time in Guatemala, and the catalog's answer in flat
// columns, so an accountant filters "omiso: Sí" without reading the JSON in `datos`. Last, the
// row's constancia de consulta (empty unless its job asked for them): after every other column, so
// none of those moved when it came.
const CSV_COLUMNS = ['posicion', 'identificador', 'estado', 'motivo', 'respondido_en', 'fuente', 'fuente_id', 'request_id', 'datos'] as const;
const WORDS_COLUMNS = ['estado_descripcion', 'motivo_descripcion', 'respondido_en_guatemala'] as const;
const CONSTANCIA_COLUMNS = ['constancia_id', 'constancia_url'] as const;

type Cell = string | null;

/** A catalog's answer read into flat cells, one per column; every cell empty for a row without data. */
interface CatalogColumns {
  headers: readonly string[];
  cells: (data: unknown) => Cell[];
}

function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current ?? null;
}

const text = (value: unknown): Cell => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** A yes/no of the source in words; null is "not reported", never "No" (the contract's rule). */
export const YES_NO_WORDS = { yes: 'Sí', no: 'No', unreported: 'No reportado' } as const;
const yesNo = (value: unknown): Cell => (value === true ? YES_NO_WORDS.yes : value === false ? YES_NO_WORDS.no : YES_NO_WORDS.unreported);

const PERSON_KIND_WORDS: Record<string, string> = { individual: 'Individual', juridica: 'Jurídica' };

/**
 * The RTU's name in one cell: a person's names, or a legal entity's razón social. The entity's
 * record (empresa) has no fixed shape (the contract's rule 4): its name is read where the source
 * puts it today (razon_social, or razonSocial), and the cell stays empty if it ever moves.
 */
function rtuPersonName(data: unknown): Cell {
  const parts = ['primerNombre', 'segundoNombre', 'primerApellido', 'segundoApellido'].map((key) => text(field(data, 'persona', key))).filter((part) => part);
  if (parts.length > 0) return parts.join(' ');
  return text(field(data, 'empresa', 'razon_social')) ?? text(field(data, 'empresa', 'razonSocial'));
}

/** A catalog's own columns, where a person reads them better flat than in `datos` (the answer as JSON, always there). */
const OWN_COLUMNS: Partial<Record<CatalogName, CatalogColumns>> = {
  cui_nit: {
    headers: ['nombre', 'tipo_persona', 'nit', 'cui'],
    cells: (data) => {
      const kind = text(field(data, 'tipoPersona'));
      return [text(field(data, 'nombre')), kind === null ? YES_NO_WORDS.unreported : (PERSON_KIND_WORDS[kind] ?? kind), text(field(data, 'nit')), text(field(data, 'cui'))];
    },
  },
  omisos: {
    headers: ['nombre', 'nombre_comercial', 'estado_contribuyente', 'regimen', 'omiso', 'cobro_coactivo', 'incumplimientos', 'departamento', 'municipio', 'direccion'],
    cells: (data) => {
      const defaults = field(data, 'incumplimientos');
      return [
        text(field(data, 'nombre')),
        text(field(data, 'nombreComercial')),
        text(field(data, 'estadoContribuyente')),
        text(field(data, 'regimen')),
        yesNo(field(data, 'tieneIncumplimientos')),
        yesNo(field(data, 'tieneProcesoCoactivo')),
        Array.isArray(defaults) ? defaults.filter((entry) => typeof entry === 'string').join('; ') : null,
        text(field(data, 'domicilioFiscal', 'departamento')),
        text(field(data, 'domicilioFiscal', 'municipio')),
        text(field(data, 'domicilioFiscal', 'direccion')),
      ];
    },
  },
  rtu: {
    headers: ['nombre', 'tipo_contribuyente', 'estado_contribuyente', 'regimen_isr', 'regimen_iva', 'fecha_ultima_actualizacion'],
    cells: (data) => [
      rtuPersonName(data),
      text(field(data, 'tipoContribuyente', 'descripcion')),
      text(field(data, 'persona', 'estado', 'descripcion')),
      text(field(data, 'afiliaciones', 'isr', 'regimen', 'descripcion')),
      text(field(data, 'afiliaciones', 'iva', 'regimen', 'descripcion')),
      text(field(data, 'fechaUltimaActualizacion')),
    ],
  },
};

const NO_OWN_COLUMNS: CatalogColumns = { headers: [], cells: () => [] };

/** Every catalog's own columns; a catalog that declares none has only the common ones and `datos`. */
export const CATALOG_CSV_COLUMNS = {
  ...OWN_COLUMNS,
  ...Object.fromEntries(CATALOG_LOOKUPS.filter((catalog) => !OWN_COLUMNS[catalog]).map((catalog) => [catalog, NO_OWN_COLUMNS])),
} as Record<CatalogName, CatalogColumns>;

/**
 * Who reads the file: an integrator's program (GET /api/lotes/{id}/resultados), which keeps every
 * column, `datos` (the answer as JSON, in one cell) included; or a person (the portal's download,
 * opened in a spreadsheet), for whom that cell is noise beside the flat columns, and who does not
 * get it.
 */
export type ResultsReader = 'program' | 'person';

const DATOS_INDEX = CSV_COLUMNS.indexOf('datos');

/** The header line, with a byte-order mark as every export has (lib/platform/csv/csv.ts), so Excel reads accents. */
export function csvHeader(catalog: CatalogName, reader: ResultsReader = 'program'): string {
  const headers = [...CSV_COLUMNS, ...WORDS_COLUMNS, ...CATALOG_CSV_COLUMNS[catalog].headers, ...CONSTANCIA_COLUMNS];
  if (reader === 'person') headers.splice(DATOS_INDEX, 1);
  return `\uFEFF${headers.join(',')}\r\n`;
}

/** A row's CSV line: every field by the exports' one rule (lib/platform/csv/csv.ts), so a formula is written as text. */
export function csvLine(row: ResultRow, catalog: CatalogName, reader: ResultsReader = 'program'): string {
  const catalogColumns = CATALOG_CSV_COLUMNS[catalog];
  const cells: Cell[] = [
    String(row.posicion),
    row.identificador,
    row.estado,
    row.motivo,
    row.respondido_en,
    row.fuente,
    row.fuente_id,
    row.request_id,
    row.datos === null ? null : JSON.stringify(row.datos),
    itemStatusLabel(row.estado, row.motivo),
    row.motivo === null ? null : itemReasonLabel(row.motivo),
    row.respondido_en === null ? null : formatGuatemalanTimestamp(new Date(row.respondido_en)),
    ...(row.datos === null ? catalogColumns.headers.map(() => null) : catalogColumns.cells(row.datos)),
    row.constancia_id,
    row.constancia_url,
  ];
  if (reader === 'person') cells.splice(DATOS_INDEX, 1);
  return `${cells.map(csvField).join(',')}\r\n`;
}
