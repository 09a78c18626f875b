import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { portalBulkJobPath, portalConstanciasEnabled } from '@/lib/surfaces/portal/bulk';
import { BULK_JOB_READERS, BULK_JOB_RUNNERS, PORTAL_ROLE_LABELS, portalRolesSentence } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { PORTAL_WATCH_LISTS_PATH, portalWatchList, portalWatchListChanges, portalWatchListPath, portalWatchListRuns } from '@/lib/surfaces/portal/watch-lists';
import { JOB_STATE_LABELS, JOB_STATE_TONES, WATCH_CHANGE_KIND_LABELS, WATCH_SCHEDULE_LABELS, WATCH_STATE_LABELS, WATCH_STATE_TONES, watchedValueLabel } from '@/lib/surfaces/portal/job-labels';
import { RevealChange } from './reveal-change';
import { WatchListControls } from './watch-list-controls';
import { WatchListNits } from './watch-list-nits';

export const metadata: Metadata = { title: 'Vigilancia' };

// One watch list of the session's integration, addressed by its public id (random, no personal
// data): its facts, its latest runs (each a job, opened in Lotes), and its changes newest first with
// the NIT masked. Who downloads a job's results may show one change's NIT and name with a reason, or
// download the changes as CSV with one (both logged as accesses to personal data); billing reads the
// changes masked. Another integration's id is the same 404.
export default async function PortalWatchListPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePortalPage(BULK_JOB_READERS);
  const { id } = await params;
  const list = await portalWatchList(user, id);
  if (!list) notFound();
  const cursor = (await searchParams).cambios;
  const [runs, changes, constanciasAvailable] = await Promise.all([
    portalWatchListRuns(user, list.publicId, undefined),
    portalWatchListChanges(user, list.publicId, typeof cursor === 'string' ? cursor : undefined),
    portalConstanciasEnabled(user),
  ]);
  if (!changes) notFound();
  const runner = BULK_JOB_RUNNERS.includes(user.role);
  const count = (value: number) => value.toLocaleString('es-GT');
  const path = portalWatchListPath(list.publicId);
  return (
    <>
      <PageHeader title={list.name} description={<span className="mono break-anywhere">{list.publicId}</span>} back={{ href: PORTAL_WATCH_LISTS_PATH, label: 'Vigilancia' }} />
      <section className="card" aria-labelledby="vigilancia-datos">
        <h2 id="vigilancia-datos">Datos</h2>
        <dl className="details" data-testid="watch-list">
          <dt>Estado</dt>
          <dd data-testid="watch-list-state">
            <span className={`badge ${WATCH_STATE_TONES[list.state]}`}>{WATCH_STATE_LABELS[list.state]}</span>
          </dd>
          <dt>Catálogo</dt>
          <dd>{LOOKUP_LABELS[list.catalog]}</dd>
          <dt>Frecuencia</dt>
          <dd>{WATCH_SCHEDULE_LABELS[list.schedule]}</dd>
          <dt>NIT vigilados</dt>
          <dd data-testid="watch-list-entries">{count(list.entries)}</dd>
          <dt>Creada</dt>
          <dd>{formatDateTime(list.createdAt)}</dd>
          <dt>Próxima ejecución</dt>
          <dd data-testid="watch-list-next-run">{list.state === 'en_pausa' ? 'Ninguna mientras esté en pausa' : formatDateTime(list.nextRunAt)}</dd>
          <dt>Cambios encontrados</dt>
          <dd data-testid="watch-list-change-count">{count(list.changes)}</dd>
          {list.constancias && (
            <>
              <dt>Constancias de consulta</dt>
              <dd data-testid="watch-list-constancias">Cada NIT encontrado en cada ejecución; cada cambio trae la de la respuesta que lo mostró</dd>
            </>
          )}
        </dl>
      </section>
      <section className="card" aria-labelledby="vigilancia-ejecuciones">
        <h2 id="vigilancia-ejecuciones">Ejecuciones</h2>
        <p className="small muted">Cada ejecución es un lote: ábralo para ver sus conteos{runner ? ' y descargar sus resultados' : ''}. Se cobra solo lo encontrado.</p>
        {runs.jobs.length === 0 ? (
          <EmptyState title="Todavía no ha corrido: la primera ejecución empieza en cuanto el servicio la toma." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Ejecuciones" tabIndex={0}>
            <table className="data stacked" data-testid="watch-list-runs">
              <thead>
                <tr>
                  <th>Creada (hora de Guatemala)</th>
                  <th>Estado</th>
                  <th className="num">Avance</th>
                  <th className="num">Encontrados</th>
                  <th className="num">Cobrado</th>
                </tr>
              </thead>
              <tbody>
                {runs.jobs.map((job) => (
                  <tr key={job.publicId} data-testid="watch-list-run">
                    <td className="nowrap" data-label="Creada">
                      <Link href={portalBulkJobPath(job.publicId)} prefetch={false}>
                        {formatDateTime(job.createdAt)}
                      </Link>
                    </td>
                    <td data-label="Estado">
                      <span className={`badge ${JOB_STATE_TONES[job.state]}`}>{JOB_STATE_LABELS[job.state]}</span>
                    </td>
                    <td className="num" data-label="Avance">
                      {count(job.counts.done)} de {count(job.counts.total)}
                    </td>
                    <td className="num" data-label="Encontrados">
                      {count(job.counts.found)}
                    </td>
                    <td className="num" data-label="Cobrado">
                      {formatQuetzales(job.chargedCentavos)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {runs.older && <p className="small muted">Se muestran las más recientes; las anteriores están en Lotes.</p>}
      </section>
      <section className="card" aria-labelledby="vigilancia-cambios">
        <h2 id="vigilancia-cambios">Cambios</h2>
        <p className="small muted" data-testid="watch-changes-note">
          De la ejecución más reciente a la más antigua. Los NIT se muestran enmascarados.{' '}
          {runner
            ? 'Con «Mostrar NIT y nombre» ve los de un cambio, y con «Descargar cambios» todos en CSV: ambos piden un motivo y quedan registrados. Sus sistemas los leen con GET /api/vigilancias/{id}/cambios.'
            : `Los NIT completos y los nombres los ven y descargan ${portalRolesSentence(BULK_JOB_RUNNERS)}; su rol (${PORTAL_ROLE_LABELS[user.role].toLowerCase()}) ve los cambios enmascarados.`}
        </p>
        {changes.changes.length === 0 ? (
          <EmptyState title={cursor ? 'No hay cambios más antiguos.' : 'Ningún cambio todavía: la primera ejecución es la base y las siguientes comparan contra ella.'} />
        ) : (
          <>
            <div className="table-wrap" role="region" aria-label="Cambios" tabIndex={0}>
              <table className="data stacked" data-testid="watch-list-changes">
                <thead>
                  <tr>
                    <th>Detectado</th>
                    <th>NIT</th>
                    <th>Cambio</th>
                    <th>Antes → después</th>
                    <th>Ejecución</th>
                    {runner && <th>NIT y nombre</th>}
                  </tr>
                </thead>
                <tbody>
                  {changes.changes.map((change) => (
                    <tr key={change.key} data-testid="watch-list-change">
                      <td className="nowrap" data-label="Detectado">
                        {formatDateTime(change.detectedAt)}
                      </td>
                      <td className="mono" data-label="NIT" data-testid="watch-change-nit">
                        {change.maskedNit}
                      </td>
                      <td data-label="Cambio">{WATCH_CHANGE_KIND_LABELS[change.kind]}</td>
                      <td data-label="Antes → después" data-testid="watch-change-values">
                        {WATCH_CHANGE_KIND_LABELS[change.kind]}: {watchedValueLabel(change.kind, change.before)} → {watchedValueLabel(change.kind, change.after)}
                      </td>
                      <td data-label="Ejecución">
                        <Link href={portalBulkJobPath(change.jobId)} prefetch={false}>
                          {change.run}
                        </Link>
                      </td>
                      {runner && (
                        // No label on a phone: the cell takes the row's width, so the NIT and name shown fit.
                        <td className="row-actions">
                          <RevealChange publicId={list.publicId} changeKey={change.key} />
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination newer={cursor ? path : undefined} older={changes.next ? `${path}?cambios=${changes.next}` : undefined} olderLabel="Cambios anteriores" />
          </>
        )}
      </section>
      {runner && list.changes > 0 && (
        <section className="card" aria-labelledby="vigilancia-descarga">
          <h2 id="vigilancia-descarga">Descargar cambios</h2>
          <p className="small muted">
            Un CSV para Excel: una fila por cambio, con la hora de Guatemala y la UTC, la ejecución y su lote, el NIT y el nombre completos, y el cambio
            en palabras («Omiso», «no» → «sí»). Indique el motivo de la descarga, que queda registrada.
          </p>
          <form method="post" action={`${path}/cambios`} className="stack" data-testid="watch-changes-form">
            <div className="field">
              <label htmlFor="ejecucion-descarga">Ejecución</label>
              <select id="ejecucion-descarga" name="ejecucion" defaultValue="todas">
                <option value="todas">Todas las ejecuciones</option>
                {Array.from({ length: Math.max(list.runs - 1, 0) }, (_, index) => list.runs - index).map((run) => (
                  <option key={run} value={run}>
                    Ejecución {run}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="motivo-descarga">Motivo</label>
              <input id="motivo-descarga" name="motivo" required minLength={3} maxLength={200} autoComplete="off" aria-describedby="motivo-descarga-ayuda" />
              <span className="hint" id="motivo-descarga-ayuda">
                Un texto breve, por ejemplo: revisar los proveedores que cambiaron este mes.
              </span>
            </div>
            <div className="actions">
              <button type="submit" className="secondary" data-testid="watch-changes-download">
                Descargar cambios (CSV)
              </button>
            </div>
          </form>
        </section>
      )}
      {runner && <WatchListNits publicId={list.publicId} />}
      {runner && <WatchListControls publicId={list.publicId} state={list.state} constancias={list.constancias} constanciasAvailable={constanciasAvailable} />}
    </>
  );
}
