import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { JobCreatorText } from '@/components/bulk/job-creator';
import { PageHeader } from '@/components/console/page-header';
import { RefreshWhileOpen } from '@/components/console/refresh-while-open';
import { Pagination } from '@/components/console/pagination';
import { Stat } from '@/components/console/stat';
import { CopyableId } from '@/components/console/copyable-id';
import { shortenedRequestId } from '@/components/records/short-request-id';
import { RevealIdentifiers } from '@/components/records/reveal-identifiers';
import { hasRole } from '@/lib/surfaces/console/session';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { consoleJobView, jobPageTitle } from '@/lib/surfaces/console/bulk-jobs';
import { itemReasonLabel, itemStatusLabel, JOB_STATE_LABELS, jobHasEnded } from '@/lib/surfaces/console/bulk-job-words';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { revealJobItemAction } from '../actions';
import { JobControls } from './job-controls';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: jobPageTitle(id) };
}

// One job by its public id: the list's figures, the administrator's controls, and its rows in the
// order sent, each identifier masked for every role ("Mostrar" reveals one with a reason, logged).
// Until the job ends the page refreshes itself in place (a revealed row and a typed reason stay).
export default async function JobPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const { id } = await params;
  const desde = (await searchParams).desde;
  const after = typeof desde === 'string' && /^\d{1,5}$/.test(desde) ? Number(desde) : 0;
  const found = await consoleJobView(id, after);
  if (!found) notFound();
  const { job, items, origin } = found;
  const { counts } = job;
  return (
    <>
      <PageHeader
        title={`Lote ${job.publicId}`}
        back={{ href: '/admin/lotes', label: 'Lotes' }}
        description={
          <>
            De <Link href={integrationPath(job.integrationId)}>{job.integrationName}</Link>, {LOOKUP_LABELS[job.catalog]}, creado el {formatDateTime(job.createdAt)}.
            <span className="job-origin" data-testid="job-origin">
              {' '}
              Creado por <JobCreatorText creator={origin.createdBy} />
              {origin.fileName && (
                <>
                  , con el archivo <span className="break-anywhere">«{origin.fileName}»</span>
                </>
              )}
              .
            </span>
          </>
        }
      />
      <section className="card" aria-labelledby="job-figures">
        <h2 id="job-figures">Estado y cifras</h2>
        <div className="grid grid-4">
          <Stat label="Estado" testId="job-state">
            {JOB_STATE_LABELS[job.state]}
          </Stat>
          <Stat label="Avance" testId="job-progress">
            {counts.done.toLocaleString('es-GT')}/{counts.total.toLocaleString('es-GT')}
          </Stat>
          <Stat label="Cobrado" testId="job-charged">
            {formatQuetzales(job.chargedCentavos)}
          </Stat>
          <Stat label="Fin estimado" testId="job-estimated-end">
            {job.estimatedEnd ? formatDateTime(job.estimatedEnd) : job.finishedAt ? `Terminó el ${formatDateTime(job.finishedAt)}` : '—'}
          </Stat>
        </div>
        <dl className="details" data-testid="job-outcomes" style={{ marginTop: '0.75rem' }}>
          <dt>Encontrados</dt>
          <dd>{counts.found.toLocaleString('es-GT')}</dd>
          <dt>No encontrados</dt>
          <dd>{counts.notFound.toLocaleString('es-GT')}</dd>
          <dt>Apartados sin costo</dt>
          <dd data-testid="job-set-aside">
            {(counts.invalid - counts.rejected).toLocaleString('es-GT')} ({counts.duplicates.toLocaleString('es-GT')} repetidos)
          </dd>
          <dt>Rechazados por la fuente, sin costo</dt>
          <dd data-testid="job-rejected">{counts.rejected.toLocaleString('es-GT')}</dd>
          <dt>Fallidos (error de la fuente)</dt>
          <dd>{counts.failed.toLocaleString('es-GT')}</dd>
        </dl>
        {job.pauseReason && (
          <p className="notice warn" role="status" data-testid="job-pause-reason">
            Motivo de la pausa, que el integrador ve: {job.pauseReason}
          </p>
        )}
        {hasRole(user, 'admin') && <JobControls publicId={job.publicId} state={job.state} integrationName={job.integrationName} />}
      </section>
      <section className="card" aria-labelledby="job-rows">
        <h2 id="job-rows">Filas</h2>
        <p className="small muted">Identificadores enmascarados. Para ver uno completo indique el motivo: el acceso queda registrado en «Accesos a datos personales».</p>
        <div className="table-wrap" role="region" aria-label="Filas del lote" tabIndex={0}>
          <table className="data stacked" data-testid="job-items">
            <thead>
              <tr>
                <th className="num">Posición</th>
                <th>NIT / CUI</th>
                <th>Estado</th>
                <th>Motivo</th>
                <th>Respondida</th>
                <th>Fuente</th>
                <th>Id de solicitud</th>
                <th className="num">Cobrado</th>
              </tr>
            </thead>
            <tbody>
              {items.rows.map((item) => (
                <tr key={item.position} data-testid="job-item">
                  <td className="num" data-label="Posición">
                    {item.position.toLocaleString('es-GT')}
                  </td>
                  <td className="identifiers" data-label="NIT / CUI">
                    <span className="mono small" data-testid="job-item-identifier">
                      {item.maskedIdentifier}
                    </span>
                    <RevealIdentifiers
                      reveal={revealJobItemAction}
                      hidden={{ lote: job.publicId, posicion: item.position }}
                      reasonHint="Un texto breve o el número de ticket de soporte."
                      loggedNote="El acceso quedó registrado con su motivo en «Accesos a datos personales»."
                    />
                  </td>
                  <td data-label="Estado" data-testid="job-item-status">
                    {itemStatusLabel(item.status, item.reason)}
                  </td>
                  <td data-label="Motivo" data-testid="job-item-reason">
                    {itemReasonLabel(item.reason)}
                  </td>
                  <td className="nowrap" data-label="Respondida">
                    {item.answeredAt ? formatDateTime(item.answeredAt) : '—'}
                  </td>
                  <td data-label="Fuente">{item.sourceLabel ?? '—'}</td>
                  <td data-label="Id de solicitud">
                    {item.requestId ? (
                      // Its query record, through the records' request-id search (a redirect to the record).
                      <CopyableId value={item.requestId} what="el id de solicitud">
                        <Link className="mono small" href={`/admin/registros/solicitud?${new URLSearchParams({ solicitud: item.requestId })}`} prefetch={false} title={item.requestId}>
                          {shortenedRequestId(item.requestId)}
                        </Link>
                      </CopyableId>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="num" data-label="Cobrado">
                    {formatQuetzales(item.chargedCentavos)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pagination
          newer={after > 0 ? `/admin/lotes/${job.publicId}` : undefined}
          older={items.next ? `/admin/lotes/${job.publicId}?${new URLSearchParams({ desde: String(items.next + 1) })}` : undefined}
          olderLabel="Siguientes filas"
        />
      </section>
      {!jobHasEnded(job.state) && <RefreshWhileOpen />}
    </>
  );
}
