import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { JOB_STATE_LABELS, JOB_STATE_TONES } from '@/lib/surfaces/portal/job-labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { PORTAL_BULK_PATH, portalBulkJobPath, portalBulkJobsPage } from '@/lib/surfaces/portal/bulk';
import { BULK_JOB_READERS, BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Lotes' };

// Lotes: the session's integration's bulk jobs, newest first (keyset pages), with their progress
// and what they charged. Owners and developers start new ones; billing reads the list and amounts.
export default async function PortalBulkJobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(BULK_JOB_READERS);
  const after = (await searchParams).despues;
  const page = await portalBulkJobsPage(user, typeof after === 'string' ? after : undefined);
  const runner = BULK_JOB_RUNNERS.includes(user.role);
  return (
    <>
      <PageHeader
        title="Lotes"
        description="Listas de NIT o CUI que se consultan en segundo plano, cada uno una consulta de catálogo cobrada solo si se encuentra. Del más reciente al más antiguo, en hora de Guatemala."
        actions={
          runner ? (
            <Link className="button" href={`${PORTAL_BULK_PATH}/nuevo`} data-testid="new-bulk-job">
              Nuevo lote
            </Link>
          ) : undefined
        }
      />
      {page.jobs.length === 0 ? (
        <div className="card">
          <EmptyState title={after ? 'No hay lotes más antiguos.' : 'Su integración todavía no tiene lotes.'}>
            <p>
              {runner
                ? 'Suba un archivo CSV con un NIT o CUI por línea en «Nuevo lote»; antes de crearlo verá cuántos se consultarán y cuánto puede costar.'
                : 'Los crean los propietarios y desarrolladores de su integración, desde aquí o desde la API (POST /api/lotes).'}
            </p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Lotes" tabIndex={0}>
            <table className="data stacked" data-testid="bulk-jobs">
              <thead>
                <tr>
                  <th>Creado (hora de Guatemala)</th>
                  <th>Catálogo</th>
                  <th>Estado</th>
                  <th className="num">Avance</th>
                  <th className="num">Encontrados</th>
                  <th className="num">No encontrados</th>
                  <th className="num">Apartados</th>
                  <th className="num">Rechazados por la fuente, sin costo</th>
                  <th className="num">Fallidos</th>
                  <th className="num">Cobrado</th>
                  <th>Fin estimado</th>
                </tr>
              </thead>
              <tbody>
                {page.jobs.map((job) => (
                  <tr key={job.publicId} data-testid="bulk-job-row">
                    <td className="nowrap" data-label="Creado">
                      <Link href={portalBulkJobPath(job.publicId)} prefetch={false}>
                        {formatDateTime(job.createdAt)}
                      </Link>
                    </td>
                    <td data-label="Catálogo">{LOOKUP_LABELS[job.catalog]}</td>
                    <td data-label="Estado" data-testid="bulk-job-state">
                      <span className={`badge ${JOB_STATE_TONES[job.state]}`}>{JOB_STATE_LABELS[job.state]}</span>
                    </td>
                    <td className="num" data-label="Avance" data-testid="bulk-job-progress">
                      {job.counts.done.toLocaleString('es-GT')} de {job.counts.total.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Encontrados">
                      {job.counts.found.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="No encontrados">
                      {job.counts.notFound.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Apartados" data-testid="bulk-job-set-aside">
                      {(job.counts.invalid - job.counts.rejected).toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Rechazados por la fuente, sin costo" data-testid="bulk-job-rejected">
                      {job.counts.rejected.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Fallidos">
                      {job.counts.failed.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="bulk-job-charged">
                      {formatQuetzales(job.chargedCentavos)}
                    </td>
                    <td className="nowrap" data-label="Fin estimado">
                      {job.estimatedEnd ? formatDateTime(job.estimatedEnd) : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination newer={after ? PORTAL_BULK_PATH : undefined} older={page.older ? `${PORTAL_BULK_PATH}?despues=${page.older}` : undefined} olderLabel="Más antiguos" />
        </>
      )}
    </>
  );
}
