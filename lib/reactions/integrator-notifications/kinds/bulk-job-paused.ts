import { formatQuetzales } from '@/lib/platform/money';
import { count, defineNotificationKind, type IntegrationNamed } from './notice';
import { bulkJobData, sampleJob, type BulkJobFacts } from './bulk-job-finished';

/**
 * A job paused because the balance no longer pays a lookup; once per pause (`pausedAt` names it).
 * For billing: the balance is what the pause waits for. Drafted by bulk-jobs.ts.
 */
export const bulkJobPaused = defineNotificationKind({
  kind: 'bulk_job_paused',
  tipo: 'lote_en_pausa',
  contact: 'billing',
  label: 'Lote en pausa: sin saldo',
  notice: ({ integration, job, pausedAt, balanceCentavos }: { integration: IntegrationNamed; job: BulkJobFacts; pausedAt: Date; balanceCentavos: number }) => ({
    integration,
    key: `lote_en_pausa:${job.publicId}:${pausedAt.getTime()}`,
    titulo: 'Su lote está en pausa: sin saldo',
    mensaje:
      `El lote ${job.publicId} (catálogo ${job.catalog}) de «${integration.nombre}» se detuvo porque el saldo (${formatQuetzales(balanceCentavos)}) no cubre la tarifa de una consulta: ` +
      `${count(job.counts.pending, 'identificador espera', 'identificadores esperan')}. Sigue solo, sin volver a enviarlo, cuando se acredite una recarga.`,
    datos: { ...bulkJobData(job), saldo_centavos: balanceCentavos, en_pausa_desde: pausedAt.toISOString() },
  }),
  docs: {
    when: 'Un lote se detuvo porque el saldo no cubre una consulta (`en_pausa_sin_saldo`); sigue solo cuando se acredite una recarga. Uno por pausa.',
    exampleId: 20,
    example: ({ integration, now }) => {
      const job = sampleJob(now);
      return {
        integration,
        job: { ...job, state: 'en_pausa_sin_saldo' as const, counts: { ...job.counts, pending: 3_100, found: 1_850, notFound: 15, failed: 5 }, chargedCentavos: 1_850 * 150, finishedAt: null },
        pausedAt: now,
        balanceCentavos: 100,
      };
    },
  },
});
