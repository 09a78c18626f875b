import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { BULK_JOB_READERS, BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { PORTAL_WATCH_LISTS_PATH, portalWatchListPath, portalWatchListsPage } from '@/lib/surfaces/portal/watch-lists';
import { jobStateLabel, WATCH_SCHEDULE_LABELS, WATCH_STATE_LABELS, WATCH_STATE_TONES } from '@/lib/surfaces/portal/job-labels';

export const metadata: Metadata = { title: 'Vigilancia' };

// Vigilancia: the session's integration's watch lists, newest first (keyset pages, as Lotes), each
// with its schedule, size, state, last run and next. Who reads Lotes reads these (each run is a job);
// owners and developers create them.
export default async function PortalWatchListsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(BULK_JOB_READERS);
  const after = (await searchParams).despues;
  const page = await portalWatchListsPage(user, typeof after === 'string' ? after : undefined);
  const runner = BULK_JOB_RUNNERS.includes(user.role);
  return (
    <>
      <PageHeader
        title="Vigilancia"
        description="Listas de NIT que se consultan cada mes o cada semana; cada ejecución es un lote, cobrado solo por lo que se encuentra, y se avisa solo de lo que cambió. Hora de Guatemala."
        actions={
          runner ? (
            <Link className="button" href={`${PORTAL_WATCH_LISTS_PATH}/nueva`} data-testid="new-watch-list">
              Nueva lista
            </Link>
          ) : undefined
        }
      />
      {page.lists.length === 0 ? (
        <div className="card">
          <EmptyState title={after ? 'No hay vigilancias más antiguas.' : 'Su integración todavía no vigila ninguna lista.'}>
            <p>
              {runner
                ? 'Suba un archivo CSV con un NIT por línea en «Nueva lista»; antes de crearla verá cuántos NIT vigilará y cuánto puede costar cada ejecución.'
                : 'Las crean los propietarios y desarrolladores de su integración, desde aquí o desde la API (POST /api/vigilancias).'}
            </p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Vigilancias" tabIndex={0}>
            <table className="data stacked" data-testid="watch-lists">
              <thead>
                <tr>
                  <th>Nombre</th>
                  <th>Catálogo</th>
                  <th>Frecuencia</th>
                  <th className="num">NIT</th>
                  <th>Estado</th>
                  <th>Última ejecución</th>
                  <th className="num">Cambios en la última</th>
                  <th>Próxima ejecución</th>
                </tr>
              </thead>
              <tbody>
                {page.lists.map((list) => (
                  <tr key={list.publicId} data-testid="watch-list-row">
                    <td className="break-anywhere" data-label="Nombre">
                      <Link href={portalWatchListPath(list.publicId)} prefetch={false}>
                        {list.name}
                      </Link>
                    </td>
                    <td data-label="Catálogo">{LOOKUP_LABELS[list.catalog]}</td>
                    <td data-label="Frecuencia">{WATCH_SCHEDULE_LABELS[list.schedule]}</td>
                    <td className="num" data-label="NIT" data-testid="watch-list-entries">
                      {list.entries.toLocaleString('es-GT')}
                    </td>
                    <td data-label="Estado" data-testid="watch-list-state">
                      <span className={`badge ${WATCH_STATE_TONES[list.state]}`}>{WATCH_STATE_LABELS[list.state]}</span>
                    </td>
                    <td data-label="Última ejecución" data-testid="watch-list-last-run">
                      {list.lastRun ? `${formatDateTime(list.lastRun.createdAt)} (${jobStateLabel(list.lastRun.state)})` : 'Ninguna todavía'}
                    </td>
                    <td className="num" data-label="Cambios en la última" data-testid="watch-list-changes">
                      {list.lastRun ? list.lastRun.changes.toLocaleString('es-GT') : '—'}
                    </td>
                    <td className="nowrap" data-label="Próxima ejecución">
                      {list.state === 'en_pausa' ? 'En pausa' : formatDateTime(list.nextRunAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination newer={after ? PORTAL_WATCH_LISTS_PATH : undefined} older={page.next ? `${PORTAL_WATCH_LISTS_PATH}?despues=${page.next}` : undefined} olderLabel="Más antiguas" />
        </>
      )}
    </>
  );
}
