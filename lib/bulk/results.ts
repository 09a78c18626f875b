// A job's results as the integrator downloads them (GET /api/lotes/{id}/resultados): one row per
// submitted identifier, in the order sent, read a page at a time (constant memory for 10,000 rows)
// and opened from their sealed form only on the way out.
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { BulkItemStatus, BulkJobState } from '@/db/schema';
import { csvField } from '@/lib/format/csv';
import { SOURCE_LABELS } from '@/lib/format/labels';
import { open, openNullable } from '@/lib/personal-data/envelope';
import { isSourceName } from '@/lib/sources/guard';
import { isPublicJobId } from './jobs';

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
}

/**
 * An item's source as the integrator reads every other source elsewhere: the webhook's pair
 * (`fuente`, `fuente_id`), so a row's evidence names the same source /estado reports on.
 */
export function sourceForIntegrator(source: string | null): { fuente: string | null; fuente_id: string | null } {
  if (source === null) return { fuente: null, fuente_id: null };
  return { fuente: isSourceName(source) ? SOURCE_LABELS[source] : source, fuente_id: source };
}

/** The job's rows, or null for an unknown id and for another integration's job. */
export async function jobResults(integrationId: number, publicId: string): Promise<AsyncIterable<ResultRow> | null> {
  if (!isPublicJobId(publicId)) return null;
  const handle = await database();
  const [job] = await handle.rows<{ id: number; state: BulkJobState }>(sql`
    select id, state from bulk_jobs where integration_id = ${integrationId}::integer and public_id = ${publicId}::text`);
  if (!job) return null;
  const jobId = Number(job.id);
  const cancelled = job.state === 'cancelado';
  return {
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
        }>(sql`
          select position, identifier_sealed, status, reason, result_sealed, answered_at, source, request_id
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
          };
        }
        if (rows.length < PAGE_ROWS) return;
        after = Number(rows[rows.length - 1]!.position);
      }
    },
  };
}

const CSV_COLUMNS = ['posicion', 'identificador', 'estado', 'motivo', 'respondido_en', 'fuente', 'fuente_id', 'request_id', 'datos'] as const;

/**
 * A CSV line (header first): the catalog's data as its JSON text in the last column; every field
 * by the exports' one rule (lib/format/csv.ts), so a formula is written as text.
 */
export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function csvLine(row: ResultRow): string {
  const values: Record<(typeof CSV_COLUMNS)[number], string> = {
    posicion: String(row.posicion),
    identificador: row.identificador,
    estado: row.estado,
    motivo: row.motivo ?? '',
    respondido_en: row.respondido_en ?? '',
    fuente: row.fuente ?? '',
    fuente_id: row.fuente_id ?? '',
    request_id: row.request_id ?? '',
    datos: row.datos === null ? '' : JSON.stringify(row.datos),
  };
  return `${CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}
