import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { RefreshWhileOpen } from '@/components/console/refresh-while-open';
import { JobCreatorText } from '@/components/bulk/job-creator';
import { JOB_STATE_LABELS, JOB_STATE_TONES, jobHasEnded, jobStateReason } from '@/lib/surfaces/portal/job-labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { PORTAL_BULK_PATH, portalBulkJob, portalBulkJobOrigin, portalBulkJobPath } from '@/lib/surfaces/portal/bulk';
import { BULK_JOB_READERS, BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';
import { bulkResultsNotForRole } from '@/lib/surfaces/portal/refusals';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { CancelBulkJob } from './cancel-bulk-job';

export const metadata: Metadata = { title: 'Lote' };

// One job of the session's integration, addressed by its public id (random, no personal data):
// its state, counts and charge as GET /api/lotes/{id} gives them, and for owners and developers
// "Cancelar lote" and the results' CSV. Another integration's id is the same 404 as an unknown one.
// Until the job ends the page refreshes itself in place, so its figures move without a reload.
export default async function PortalBulkJobPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePortalPage(BULK_JOB_READERS);
  const publicId = (await params).id;
  const [job, origin] = await Promise.all([portalBulkJob(user, publicId), portalBulkJobOrigin(user, publicId)]);
  if (!job || !origin) notFound();
  const runner = BULK_JOB_RUNNERS.includes(user.role);
  // Whatever has not ended can be cancelled, an administrator's pause too (as the API's cancel can).
  const cancellable = job.state === 'en_curso' || job.state === 'en_pausa_sin_saldo' || job.state === 'en_pausa';
  const count = (value: number) => value.toLocaleString('es-GT');
  return (
    <>
      {/* Named by its file, as people recognise it; one sent through the API has none, and its id names it. */}
      <PageHeader
        title={origin.fileName ? `Lote «${origin.fileName}»` : 'Lote'}
        description={<span className="mono break-anywhere">{job.publicId}</span>}
        back={{ href: PORTAL_BULK_PATH, label: 'Lotes' }}
      />
      <div className="grid grid-2">
        <section className="card" aria-labelledby="lote-datos">
          <h2 id="lote-datos">Datos</h2>
          <dl className="details" data-testid="bulk-job">
            <dt>Estado</dt>
            <dd data-testid="bulk-job-state">
              <span className={`badge ${JOB_STATE_TONES[job.state]}`}>{JOB_STATE_LABELS[job.state]}</span>
            </dd>
            <dt>Catálogo</dt>
            <dd>{LOOKUP_LABELS[job.catalog]}</dd>
            {origin.fileName && (
              <>
                <dt>Archivo</dt>
                <dd className="break-anywhere" data-testid="bulk-job-file">
                  {origin.fileName}
                </dd>
              </>
            )}
            <dt>Creado</dt>
            <dd>{formatDateTime(job.createdAt)}</dd>
            <dt>Creado por</dt>
            <dd data-testid="bulk-job-creator">
              <JobCreatorText creator={origin.createdBy} />
            </dd>
            <dt>{job.finishedAt ? 'Terminó' : 'Fin estimado'}</dt>
            <dd data-testid="bulk-job-end">
              {job.finishedAt
                ? formatDateTime(job.finishedAt)
                : job.estimatedEnd
                  ? formatDateTime(job.estimatedEnd)
                  : job.state === 'en_pausa_sin_saldo'
                    ? 'Sigue cuando haya saldo'
                    : job.state === 'en_pausa'
                      ? 'Sigue cuando la administración lo reanude'
                      : '—'}
            </dd>
            <dt>Cobrado</dt>
            <dd data-testid="bulk-job-charged">{formatQuetzales(job.chargedCentavos)}</dd>
            {job.constancias && (
              <>
                <dt>Constancias de consulta</dt>
                <dd data-testid="bulk-job-constancias">Una por cada identificador encontrado, enlazada en su fila de los resultados</dd>
              </>
            )}
          </dl>
          {job.state === 'en_pausa_sin_saldo' && (
            <p className="notice warn" role="status">
              El saldo no alcanza para una consulta más: el lote sigue solo en cuanto la administración acredite una recarga.
            </p>
          )}
          {job.state === 'en_pausa' && (
            <p className="notice warn" role="status" data-testid="bulk-job-pause-reason">
              {jobStateReason(job)}
            </p>
          )}
        </section>
        <section className="card" aria-labelledby="lote-conteos">
          <h2 id="lote-conteos">Conteos</h2>
          <dl className="details" data-testid="bulk-job-counts">
            <dt>Avance</dt>
            <dd data-testid="bulk-job-progress">
              {count(job.counts.done)} de {count(job.counts.total)}
            </dd>
            <dt>Encontrados</dt>
            <dd data-testid="bulk-job-found">{count(job.counts.found)}</dd>
            <dt>No encontrados</dt>
            <dd data-testid="bulk-job-not-found">{count(job.counts.notFound)}</dd>
            <dt>Apartados</dt>
            <dd data-testid="bulk-job-set-aside">
              {count(job.counts.invalid - job.counts.rejected)}
              {job.counts.duplicates > 0 && ` (${count(job.counts.duplicates)} ${job.counts.duplicates === 1 ? 'repetido' : 'repetidos'})`}
            </dd>
            <dt>Rechazados por la fuente, sin costo</dt>
            <dd data-testid="bulk-job-rejected">{count(job.counts.rejected)}</dd>
            <dt>Fallidos</dt>
            <dd data-testid="bulk-job-failed">{count(job.counts.failed)}</dd>
            <dt>Pendientes</dt>
            <dd data-testid="bulk-job-pending">{count(job.counts.pending)}</dd>
          </dl>
          <p className="small muted">
            Solo se cobran los encontrados. Los apartados (inválidos o repetidos) no se consultan; los rechazados por la fuente (no aceptó el identificador,
            por ejemplo un RTU que pide la fecha de nacimiento) y los fallidos (la fuente respondió con un error) no se cobran.
          </p>
        </section>
      </div>
      {runner && (
        <section className="card" aria-labelledby="lote-resultados">
          <h2 id="lote-resultados">Resultados</h2>
          <p className="small muted">
            Una fila por identificador, en el orden enviado, con su estado, los datos del catálogo y el id de solicitud de su consulta. Traen los NIT, CUI y
            nombres completos: indique el motivo de la descarga, que queda registrada.
          </p>
          <form method="post" action={`${portalBulkJobPath(job.publicId)}/resultados`} className="stack" data-testid="bulk-results-form">
            <div className="field">
              <label htmlFor="motivo-descarga">Motivo</label>
              <input id="motivo-descarga" name="motivo" required minLength={3} maxLength={200} autoComplete="off" aria-describedby="motivo-descarga-ayuda" />
              <span className="hint" id="motivo-descarga-ayuda">
                Un texto breve, por ejemplo: revisar proveedores omisos del mes.
              </span>
            </div>
            <div className="actions">
              <button type="submit" className="secondary" data-testid="bulk-results-download">
                Descargar resultados (CSV)
              </button>
            </div>
          </form>
        </section>
      )}
      {!runner && (
        // Billing reads a job for what it charged; its results carry identifiers and names in full.
        <section className="card" aria-labelledby="lote-resultados">
          <h2 id="lote-resultados">Resultados</h2>
          <p data-testid="bulk-results-not-for-role">{bulkResultsNotForRole(user.role)}</p>
        </section>
      )}
      {runner && cancellable && <CancelBulkJob publicId={job.publicId} />}
      {!jobHasEnded(job.state) && <RefreshWhileOpen />}
    </>
  );
}
