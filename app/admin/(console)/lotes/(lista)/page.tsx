import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { FilterForm, FilterSelect } from '@/components/console/filter-form';
import { IntegrationFilterField } from '../../_components/integration-suggestions';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { bulkJobState, type BulkJobState } from '@/db/schema';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { consoleJobsPage } from '@/lib/surfaces/console/bulk-jobs';
import { JOB_STATE_LABELS } from '@/lib/surfaces/console/bulk-job-words';
import { integrationChoiceLabel } from '@/lib/surfaces/console/integration-choice';
import { integrationName, resolveIntegrationFilter } from '@/lib/surfaces/console/integrations';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { suggestIntegrations } from '../../integration-suggestions';

export const metadata: Metadata = { title: 'Lotes' };

const text = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : '');

// Every integration's bulk jobs, newest first: support reads them; an
// administrator pauses, resumes or cancels one from its page.
export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('support');
  const params = await searchParams;
  const typedIntegration = text(params.integracion);
  const typedState = text(params.estado);
  const state = (bulkJobState.enumValues as readonly string[]).includes(typedState) ? (typedState as BulkJobState) : undefined;
  // The field sends what it shows (a name, or a suggestion with its number); the address keeps the id.
  let integrationProblem: string | undefined;
  let integrationId: number | undefined;
  if (/^\d{1,9}$/.test(typedIntegration)) integrationId = Number(typedIntegration);
  else if (typedIntegration !== '') {
    const resolved = await resolveIntegrationFilter(typedIntegration);
    if ('id' in resolved) redirect(`/admin/lotes?${new URLSearchParams({ integracion: String(resolved.id), ...(state ? { estado: state } : {}) })}`);
    integrationProblem = resolved.problem;
  }
  const after = text(params.despues) || undefined;
  const [page, chosenName] = await Promise.all([
    integrationProblem ? { rows: [], older: undefined } : consoleJobsPage({ integrationId, state }, after),
    integrationId === undefined ? undefined : integrationName(integrationId),
  ]);
  const filterParams = new URLSearchParams({ ...(integrationId !== undefined ? { integracion: String(integrationId) } : {}), ...(state ? { estado: state } : {}) });
  const filtered = filterParams.size > 0;
  return (
    <>
      <PageHeader
        title="Lotes"
        description="Los lotes de todas las integraciones, del más reciente al más antiguo. Cada fila de un lote es una consulta de catálogo, cobrada solo si se encontró. Horas de Guatemala."
      />
      <FilterForm action="/admin/lotes" reset={filtered || integrationProblem ? { href: '/admin/lotes', label: 'Ver todos' } : undefined}>
        <IntegrationFilterField
          suggest={suggestIntegrations}
          defaultValue={integrationProblem ? typedIntegration : integrationId !== undefined && chosenName ? integrationChoiceLabel({ id: integrationId, nombre: chosenName }) : ''}
          problem={integrationProblem}
        />
        <FilterSelect name="estado" label="Estado" value={state} all="Todos" options={bulkJobState.enumValues.map((value) => ({ value, label: JOB_STATE_LABELS[value] }))} />
      </FilterForm>
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered || integrationProblem ? 'Ningún lote coincide con estos filtros.' : 'Todavía no hay lotes.'}>
            <p>{filtered ? 'Quite algún filtro para ver más.' : 'Aparecen aquí en cuanto una integración envía uno (POST /api/lotes).'}</p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Lotes" tabIndex={0}>
            <table className="data stacked" data-testid="jobs">
              <thead>
                <tr>
                  <th>Lote</th>
                  <th>Integración</th>
                  <th>Catálogo</th>
                  <th>Creado</th>
                  <th className="num">Tamaño</th>
                  <th>Estado</th>
                  <th className="num">Avance</th>
                  <th className="num">Encontrados / no encontrados / apartados / rechazados por la fuente / fallidos</th>
                  <th className="num">Cobrado</th>
                  <th>Fin estimado</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((job) => (
                  <tr key={job.publicId} data-testid="job-row">
                    <td className="mono small" data-label="Lote">
                      <Link href={`/admin/lotes/${job.publicId}`} prefetch={false}>
                        {job.publicId}
                      </Link>
                    </td>
                    <td data-label="Integración">{job.integrationName}</td>
                    <td data-label="Catálogo">{LOOKUP_LABELS[job.catalog]}</td>
                    <td className="nowrap" data-label="Creado">
                      {formatDateTime(job.createdAt)}
                    </td>
                    <td className="num" data-label="Tamaño">
                      {job.counts.total.toLocaleString('es-GT')}
                    </td>
                    <td data-label="Estado" data-testid="job-state">
                      {JOB_STATE_LABELS[job.state]}
                    </td>
                    <td className="num" data-label="Avance" data-testid="job-progress">
                      {job.counts.done.toLocaleString('es-GT')}/{job.counts.total.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Encontrados / no encontrados / apartados / rechazados por la fuente / fallidos" data-testid="job-outcomes">
                      {[job.counts.found, job.counts.notFound, job.counts.invalid - job.counts.rejected, job.counts.rejected, job.counts.failed]
                        .map((count) => count.toLocaleString('es-GT'))
                        .join(' / ')}
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="job-charged">
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
          <Pagination
            newer={after ? `/admin/lotes${filtered ? `?${filterParams}` : ''}` : undefined}
            older={page.older ? `/admin/lotes?${new URLSearchParams({ ...Object.fromEntries(filterParams), despues: page.older })}` : undefined}
            olderLabel="Más antiguos"
          />
        </>
      )}
    </>
  );
}
