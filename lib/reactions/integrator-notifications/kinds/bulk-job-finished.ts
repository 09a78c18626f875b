import { formatQuetzales } from '@/lib/platform/money';
import { count, defineNotificationKind, type IntegrationNamed, type IntegratorNotification } from './notice';

// No event here: bulk-jobs.ts hears the jobs' events (subscribed by the server at start) and drafts
// this kind or bulk-job-paused.ts's.

/** A bulk job (lote) as its notices tell of it: its id, never an identifier of its list. */
export interface BulkJobFacts {
  publicId: string;
  /** As the API names it (cui-nit, rtu, omisos). */
  catalog: string;
  state: 'completado' | 'cancelado' | 'en_pausa_sin_saldo';
  /** invalid counts the set-aside and the source-refused (the API's invalidos); rejected, the latter. */
  counts: { total: number; pending: number; found: number; notFound: number; invalid: number; rejected: number; failed: number };
  chargedCentavos: number;
  finishedAt: Date | null;
}

export function bulkJobData(job: BulkJobFacts): IntegratorNotification['datos'] {
  return {
    lote: job.publicId,
    catalogo: job.catalog,
    estado: job.state,
    total: job.counts.total,
    encontrados: job.counts.found,
    no_encontrados: job.counts.notFound,
    invalidos: job.counts.invalid,
    rechazados: job.counts.rejected,
    fallidos: job.counts.failed,
    pendientes: job.counts.pending,
    cobrado_centavos: job.chargedCentavos,
    terminado: job.finishedAt?.toISOString() ?? null,
    resultados: `/api/lotes/${job.publicId}/resultados`,
  };
}

/** The documentation's job. */
export function sampleJob(now: Date): BulkJobFacts {
  return {
    publicId: 'lote_3f9a0c17e2b48d5a6c01',
    catalog: 'omisos',
    state: 'completado',
    counts: { total: 5_000, pending: 0, found: 4_862, notFound: 96, invalid: 30, rejected: 4, failed: 12 },
    chargedCentavos: 4_862 * 150,
    finishedAt: now,
  };
}

/**
 * A job that ended: completed (also with failed rows) or cancelled. Once per job: the job's id is the
 * key, and a job ends only once. For the technical contact: the systems that submitted it fetch its results.
 */
export const bulkJobFinished = defineNotificationKind({
  kind: 'bulk_job_finished',
  tipo: 'lote_completado',
  contact: 'technical',
  label: 'Lote terminado',
  notice: ({ integration, job }: { integration: IntegrationNamed; job: BulkJobFacts }) => {
    const cancelled = job.state === 'cancelado';
    const retry = job.counts.failed > 0 ? ` Puede reintentar los que fallaron con POST /api/lotes/${job.publicId}/reintentar.` : '';
    // Refused by the source is not set aside: it was asked, and it costs nothing (as the job's page counts it).
    const setAside = job.counts.invalid - job.counts.rejected;
    const parts = [
      count(job.counts.found, 'encontrado', 'encontrados'),
      count(job.counts.notFound, 'no encontrado', 'no encontrados'),
      count(setAside, 'inválido o repetido', 'inválidos o repetidos'),
      ...(job.counts.rejected > 0 ? [count(job.counts.rejected, 'rechazado por la fuente (sin costo)', 'rechazados por la fuente (sin costo)')] : []),
    ];
    const tally = `${parts.join(', ')} y ${count(job.counts.failed, 'con error de la fuente', 'con error de la fuente')}`;
    const of = `El lote ${job.publicId} (catálogo ${job.catalog}) de «${integration.nombre}»`;
    const results = `Se cobró ${formatQuetzales(job.chargedCentavos)}. Descargue los resultados en GET /api/lotes/${job.publicId}/resultados.${retry}`;
    return {
      integration,
      key: `lote_completado:${job.publicId}`,
      titulo: cancelled ? 'Su lote fue cancelado' : 'Su lote terminó',
      mensaje: cancelled
        ? `${of} fue cancelado: de ${count(job.counts.total, 'identificador', 'identificadores')}, ${tally}; ${count(job.counts.pending, 'quedó sin consultar', 'quedaron sin consultar')}, sin cobro. ${results}`
        : `${of} terminó: de ${count(job.counts.total, 'identificador', 'identificadores')}, ${tally}. ${results}`,
      datos: bulkJobData(job),
    };
  },
  docs: {
    when: 'Un lote terminó (`datos.estado`: `completado`, también con filas fallidas, o `cancelado`): sus conteos, lo cobrado (`datos.cobrado_centavos`) y la ruta de sus resultados (`datos.resultados`). No lleva ningún identificador de la lista. Uno por lote.',
    exampleId: 19,
    example: ({ integration, now }) => ({ integration, job: sampleJob(now) }),
  },
});
