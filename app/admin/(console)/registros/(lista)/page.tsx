import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { IdentifierList, recordIdentifierList } from '@/components/console/identifier-list';
import { IntegrationFilterField } from '../../_components/integration-suggestions';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { RecordsFilterForm } from '@/components/records/records-filter-form';
import { RequestTraced } from '@/components/records/request-traced';
import { ShortRequestId } from '@/components/records/short-request-id';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationChoiceLabel } from '@/lib/surfaces/console/integration-choice';
import { integrationName, resolveIntegrationFilter } from '@/lib/surfaces/console/integrations';
import { env } from '@/lib/platform/settings/env';
import { LOOKUP_LABELS, REFUSAL_REASON_LABELS } from '@/lib/vocabulary/labels';
import { formatDateTime, formatHourSpan } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { maskedRecordsPage, recordFiltersOf, recordListQuery, requestIdOutcome, requestTraceTerms, searchedRecordParams } from '@/lib/surfaces/console/records';
import { EXPIRED_SEARCH_MESSAGE, SEARCH_REFERENCE_PARAM } from '@/lib/surfaces/console/search-form';
import { FullExportForm } from './full-export-form';
import { suggestIntegrations } from '../../integration-suggestions';
import type { RefusalReasonCount } from '@/lib/core/request-ids/search';
import type { RequestTrace } from '@/lib/core/request-traces/read';
import { integrationPath, sectionOfRefusal } from '@/lib/surfaces/console/integration-sections';

export const metadata: Metadata = { title: 'Registros de consultas' };

// Problems the form shows under their own field, with what was typed, instead of in the notice.
const SHOWN_ON_THEIR_FIELD = new Set<string>(['hasta', 'integracion']);

export default async function RecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const isAdmin = user.role === 'admin';
  // The NIT or CUI searched for is behind ?busqueda= (posted to ./buscar): never in the address.
  const searched = await searchedRecordParams(user.id, await searchParams);
  const params = searched.params;
  // The integration field sends what it shows: a name, or a suggestion with its number. The URL
  // keeps the id (links, the CSV export and the back link read it), so a resolved name redirects.
  const typedIntegration = params.integracion?.trim() ?? '';
  let integrationProblem: string | undefined;
  if (typedIntegration !== '' && !/^\d+$/.test(typedIntegration)) {
    const resolved = await resolveIntegrationFilter(typedIntegration);
    if ('id' in resolved) redirect(`/admin/registros?${withoutBlanks({ ...addressParams(params, searched.reference), integracion: String(resolved.id) })}`);
    integrationProblem = resolved.problem;
    delete params.integracion;
  }
  const { filters, problems: filterProblems } = recordFiltersOf(params);
  const problems = integrationProblem ? [{ field: 'integracion' as const, message: integrationProblem }, ...filterProblems] : filterProblems;
  // A request id typed in the search box reaches ./solicitud first (proxy.ts), which opens its
  // record with a redirect; one that left no record comes back here as ?solicitud=. Its trace says
  // what happened to it (lib/core/request-traces: a refusal, an answer the service could not serve; a
  // replay opens the query it repeated); without one, the refusal counts are what support can
  // answer with.
  let refusals: RefusalReasonCount[] | undefined;
  let trace: RequestTrace | undefined;
  let untraced = 0;
  if (filters.solicitud) {
    const outcome = await requestIdOutcome(filters.solicitud, filters);
    if ('redirectTo' in outcome) redirect(outcome.redirectTo);
    ({ trace, refusals, untraced } = outcome);
  }
  const position = {
    after: typeof params.despues === 'string' ? params.despues : undefined,
    before: typeof params.antes === 'string' ? params.antes : undefined,
  };
  const [page, chosenIntegration] = await Promise.all([
    // A search whose reference no longer opens lists nothing (not everything): the notice says why.
    filters.solicitud || searched.expired ? { rows: [], matching: undefined, newer: undefined, older: undefined } : maskedRecordsPage(filters, position),
    filters.integracion === undefined ? undefined : integrationName(filters.integracion),
  ]);
  // Every role sees identifiers masked; "Mostrar" on a record's page reveals one record's, with a reason, logged.
  const rows = page.rows;
  const matching = page.matching;
  const maxExportRows = env().CSV_EXPORT_MAX_ROWS;
  // The filters as links carry them: the search's reference, never the identifier.
  const filterParams = recordListQuery(filters, searched.reference);
  const link = (extra: Record<string, string>) => {
    const query = new URLSearchParams(filterParams);
    for (const [key, value] of Object.entries(extra)) query.set(key, value);
    return `/admin/registros?${query}`;
  };
  const filtered = [...filterParams.keys()].length > 0;
  const problemOf = (field: string) => problems.find((problem) => problem.field === field)?.message;
  const typed = (field: string) => (typeof params[field] === 'string' ? (params[field] as string) : '');
  // The detail page's back link returns to this list with these filters.
  const back = filterParams.size > 0 ? `?volver=${encodeURIComponent(filterParams.toString())}` : '';

  return (
    <>
      <PageHeader
        title="Registros de consultas"
        description="Cada consulta que llegó a una fuente, de la más reciente a la más antigua. Horas de Guatemala. Busque por NIT, CUI o id de solicitud."
        actions={
          // A request id with no record lists no queries: an export of it would be empty.
          filters.solicitud ? undefined : matching !== undefined && matching > maxExportRows ? (
            <span className="small muted" data-testid="export-too-large">
              Para exportar, acote los filtros a {maxExportRows.toLocaleString('es-GT')} consultas o menos.
            </span>
          ) : (
            <>
              <a className="button secondary" href={`/admin/registros/exportar?${filterParams}`} download data-testid="export-masked">
                Exportar CSV{filtered ? ' (filtrado)' : ''}
              </a>
              {isAdmin && <FullExportForm filters={[...filterParams]} />}
            </>
          )
        }
      />
      <RecordsFilterForm
        action="/admin/registros/buscar"
        listPath="/admin/registros"
        narrowed={filtered}
        search={{
          label: 'NIT, CUI o id de solicitud',
          placeholder: '576937-K, 2415 75181 0101 o req_…',
          hint: 'Con o sin guion ni espacios; incluye los lotes de RTU por NIT. Un id de solicitud (req_…) abre su consulta.',
          value: filters.solicitud ?? filters.identificador ?? '',
        }}
        filters={filters}
        hasta={problemOf('hasta') ? typed('hasta') : filters.hasta}
        hastaProblem={problemOf('hasta')}
        applied={filterParams}
      >
        <IntegrationFilterField
          suggest={suggestIntegrations}
          defaultValue={
            integrationProblem ? typedIntegration : filters.integracion !== undefined && chosenIntegration ? integrationChoiceLabel({ id: filters.integracion, nombre: chosenIntegration }) : (filters.integracion?.toString() ?? '')
          }
          problem={integrationProblem}
        />
      </RecordsFilterForm>
      {searched.expired && (
        <p className="notice warn" role="alert" data-testid="search-expired">
          {EXPIRED_SEARCH_MESSAGE}
        </p>
      )}
      {problems.some((problem) => !SHOWN_ON_THEIR_FIELD.has(problem.field)) && (
        <p className="notice warn" role="alert">
          Se ignoraron filtros no válidos:{' '}
          {problems
            .filter((problem) => !SHOWN_ON_THEIR_FIELD.has(problem.field))
            .map((problem) => problem.message)
            .join('; ')}{' '}
          Corríjalos y vuelva a filtrar.
        </p>
      )}
      {matching !== undefined && (
        <p className="small muted" data-testid="records-count">
          {matching === 1 ? '1 consulta coincide' : `${matching.toLocaleString('es-GT')} consultas coinciden`} (según los resúmenes por hora, hasta
          hace unos segundos). Cada exportación admite hasta {maxExportRows.toLocaleString('es-GT')} filas
          {isAdmin ? '; sale con los NIT y CUI enmascarados, salvo que la pidas con los identificadores completos y un motivo (queda registrado).' : ', con los NIT y CUI enmascarados.'}
        </p>
      )}
      {filters.solicitud && trace ? (
        <RequestTraced trace={trace}>
          {trace.integration && (
            <p>
              {/* A refusal leads to what the integration can change about it; a replay to its usage. */}
              <Link href={integrationPath(trace.integration.id, trace.kind === 'refusal' ? sectionOfRefusal(trace.reason) : 'uso')}>Ver la integración {trace.integration.nombre}</Link>
            </p>
          )}
        </RequestTraced>
      ) : filters.solicitud && refusals ? (
        <RequestIdNotRecorded
          requestId={filters.solicitud}
          untraced={untraced}
          refusals={refusals}
          scope={chosenIntegration}
          lookup={filters.consulta ? LOOKUP_LABELS[filters.consulta] : undefined}
        />
      ) : searched.expired ? null : rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'Ninguna consulta coincide con estos filtros.' : 'Todavía no hay consultas registradas.'}>
            <p>
              {filtered
                ? 'Amplíe el rango de fechas o quite algún filtro.'
                : 'Aparecen aquí en cuanto una integración consulta una fuente (RENAP, RTU o los catálogos).'}
            </p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Consultas" tabIndex={0}>
            <table className="data stacked" data-testid="records">
              <thead>
                <tr>
                  <th>Fecha</th>
                  <th>Integración</th>
                  <th>Consulta</th>
                  <th>Estado</th>
                  <th className="num">Tiempo</th>
                  <th>Id de solicitud</th>
                  <th>NIT / CUI</th>
                  <th className="num">Cobrado</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((record) => (
                  <tr key={record.id}>
                    <td className="nowrap" data-label="Fecha">
                      <Link href={`/admin/registros/${record.id}${back}`} prefetch={false}>{formatDateTime(record.createdAt)}</Link>
                    </td>
                    <td data-label="Integración">{record.integrationNombre}</td>
                    <td data-label="Consulta">{LOOKUP_LABELS[record.lookup]}</td>
                    <td data-label="Estado" data-testid="record-status">
                      <HttpStatusBadge status={record.httpStatus} />
                    </td>
                    <td className="num" data-label="Tiempo">
                      {record.responseTimeMs.toLocaleString('es-GT')} ms
                    </td>
                    <td data-label="Id de solicitud" data-testid="record-request-id">
                      <ShortRequestId requestId={record.requestId} />
                    </td>
                    <td className="mono small identifiers" data-label="NIT / CUI" data-testid="record-identifier">
                      <IdentifierList identifiers={recordIdentifierList(record)} fold />
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="record-charged">
                      {formatQuetzales(record.chargedCentavos)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            newer={page.newer ? link({ antes: page.newer }) : undefined}
            older={page.older ? link({ despues: page.older }) : undefined}
            olderLabel="Más antiguas"
          />
        </>
      )}
    </>
  );
}

/** The page's parameters as its address holds them: the search's reference in place of the identifier. */
function addressParams(params: Record<string, string>, reference: string | undefined): Record<string, string> {
  const rest = { ...params };
  delete rest.identificador;
  return reference ? { ...rest, [SEARCH_REFERENCE_PARAM]: reference } : rest;
}

/** Search parameters without the empty ones a submitted form leaves, nor a page position. */
function withoutBlanks(params: Record<string, string>): URLSearchParams {
  return new URLSearchParams(Object.entries(params).filter(([key, value]) => value.trim() !== '' && key !== 'despues' && key !== 'antes'));
}

/** A request id with neither a record nor a trace: what it may be, and the refusals support can answer with. */
function RequestIdNotRecorded({
  requestId,
  untraced,
  refusals,
  scope,
  lookup,
}: {
  requestId: string;
  untraced: number;
  refusals: RefusalReasonCount[];
  scope?: string;
  lookup?: string;
}) {
  const whose = `${scope ? `de ${scope}` : 'de todas las integraciones'}${lookup ? ` en ${lookup}` : ''}`;
  const terms = requestTraceTerms();
  return (
    <section className="card" data-testid="request-id-not-recorded" aria-labelledby="request-id-not-recorded-title">
      <h2 id="request-id-not-recorded-title">
        Ninguna consulta ni rechazo tiene el id de solicitud <span className="mono">{requestId}</span>.
      </h2>
      <p>
        Puede que el id tenga un error de copia o no sea de este servicio, que la solicitud sea de hace más de{' '}
        {terms.retentionDays} días, o de hace apenas unos segundos (los rechazos y las respuestas sin atender se anotan cada pocos
        segundos: vuelva a buscarla).
      </p>
      <p data-testid="untraced-answers">{terms.untracedAnswers}</p>
      <h3>
        Rechazos {whose} en las últimas {terms.refusalWindowHours} horas
      </h3>
      {refusals.length === 0 ? (
        <p className="muted" data-testid="refusal-reasons-empty">
          No hubo rechazos {whose} en las últimas {terms.refusalWindowHours} horas. Revise el id con el integrador, o elija otra integración.
        </p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Rechazos antes de la fuente" tabIndex={0}>
          <table className="data stacked" data-testid="refusal-reasons">
            <thead>
              <tr>
                <th>Motivo</th>
                <th className="num">Rechazos</th>
                <th>Último, entre</th>
              </tr>
            </thead>
            <tbody>
              {refusals.map((refusal) => (
                <tr key={refusal.reason}>
                  <td data-label="Motivo">{REFUSAL_REASON_LABELS[refusal.reason]}</td>
                  <td className="num" data-label="Rechazos">
                    {refusal.refusals.toLocaleString('es-GT')}
                  </td>
                  <td className="nowrap" data-label="Último, entre">
                    {formatHourSpan(refusal.lastHour)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="small muted">
        Cada rechazo y cada respuesta que el servicio no pudo atender (502 o 500 sin registro) queda con su id de solicitud durante{' '}
        {terms.retentionDays} días; este no está entre ellos.
        {untraced > 0 &&
          ` En las últimas ${terms.refusalWindowHours} horas ${untraced.toLocaleString('es-GT')} rechazos o respuestas sin atender quedaron sin detalle, por llegar más de ${terms.maxPerMinute.toLocaleString('es-GT')} por minuto a una instancia: pudo ser uno de ellos.`}
      </p>
    </section>
  );
}
