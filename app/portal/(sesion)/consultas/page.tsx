import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { IdentifierList, recordIdentifierList } from '@/components/console/identifier-list';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { RecordsFilterForm } from '@/components/records/records-filter-form';
import { RequestTraced } from '@/components/records/request-traced';
import { ShortRequestId } from '@/components/records/short-request-id';
import { env } from '@/lib/platform/settings/env';
import { formatDateTime, guatemalanDayBefore, guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { carriedToRecordsExport, PORTAL_RECORDS_NOTES, PORTAL_RECORDS_PATH, portalRecordPath, portalRecordsAddress, portalRecordsPage, portalRequestIdSearch, requestIdUnknownNotes } from '@/lib/surfaces/portal/records';
import { RECORD_READERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Consultas' };

// Problems the form shows under their own field, with what was typed, instead of in the notice.
const SHOWN_ON_THEIR_FIELD = new Set<string>(['hasta']);

// Consultas: the session's integration's query records, newest first, filtered and paged like the
// console's list; its search box takes a request id (opens that query, or says what happened to
// it) or a NIT or CUI (posted, kept behind a reference: never in this page's address).
export default async function PortalRecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(RECORD_READERS);
  const query = await searchParams;
  // A request id the search could not open comes back as ?solicitud=: this integration's trace of
  // it, or the same "no query" answer for an unknown id and another integration's.
  const typedRequest = typeof query.solicitud === 'string' ? query.solicitud : undefined;
  const requestAnswer = typedRequest ? await portalRequestIdSearch(user, typedRequest) : undefined;
  if (requestAnswer?.kind === 'record') redirect(requestAnswer.path);
  const page = await portalRecordsPage(user, query);
  const { filters, problems } = page;
  const filterParams = portalRecordsAddress(filters, page.reference);
  const link = (extra: Record<string, string>) => {
    const params = new URLSearchParams(filterParams);
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    return `${PORTAL_RECORDS_PATH}?${params}`;
  };
  const filtered = filterParams.size > 0;
  const hastaProblem = problems.find((problem) => problem.field === 'hasta')?.message;
  const ignored = problems.filter((problem) => !SHOWN_ON_THEIR_FIELD.has(problem.field));
  const today = guatemalanToday();
  const maxExportRows = env().CSV_EXPORT_MAX_ROWS;

  return (
    <>
      <PageHeader
        title="Consultas"
        description="Cada consulta de su integración que llegó a una fuente, de la más reciente a la más antigua, en hora de Guatemala. Busque por id de solicitud, NIT o CUI."
      />
      <RecordsFilterForm
        action={`${PORTAL_RECORDS_PATH}/buscar`}
        listPath={PORTAL_RECORDS_PATH}
        narrowed={filtered || requestAnswer !== undefined}
        search={{
          label: 'Id de solicitud, NIT o CUI',
          placeholder: 'req_…, 576937-K o 2415 75181 0101',
          hint: 'El id de solicitud es el encabezado x-request-id de cada respuesta de la API: abre esa consulta. Un NIT o CUI, con o sin guion ni espacios, lista sus consultas (también los lotes de RTU por NIT).',
          value: requestAnswer ? (requestAnswer.kind === 'trace' ? requestAnswer.trace.requestId : requestAnswer.requestId) : '',
        }}
        filters={filters}
        hasta={hastaProblem && typeof query.hasta === 'string' ? query.hasta : filters.hasta}
        hastaProblem={hastaProblem}
        applied={filterParams}
      />
      {page.expired && (
        <p className="notice warn" role="alert" data-testid="search-expired">
          {PORTAL_RECORDS_NOTES.expiredSearch}
        </p>
      )}
      {ignored.length > 0 && (
        <p className="notice warn" role="alert">
          Se ignoraron filtros no válidos: {ignored.map((problem) => problem.message).join('; ')} Corríjalos y vuelva a filtrar.
        </p>
      )}
      {requestAnswer?.kind === 'trace' ? (
        <RequestTraced trace={requestAnswer.trace} />
      ) : requestAnswer?.kind === 'unknown' ? (
        <RequestIdUnknown requestId={requestAnswer.requestId} />
      ) : page.rows.length === 0 ? (
        page.expired ? null : (
          <div className="card">
            <EmptyState title={filtered ? 'Ninguna consulta coincide con estos filtros.' : 'Su integración todavía no tiene consultas registradas.'}>
              <p>{filtered ? 'Amplíe el rango de fechas o quite algún filtro.' : 'Aparecen aquí en cuanto su sistema consulta una fuente con las credenciales de su integración.'}</p>
            </EmptyState>
          </div>
        )
      ) : (
        <>
          {page.matching !== undefined && (
            <p className="small muted" data-testid="records-count">
              {page.matching === 1 ? '1 consulta coincide' : `${page.matching.toLocaleString('es-GT')} consultas coinciden`} (según los resúmenes por hora,
              hasta hace unos segundos).
            </p>
          )}
          <div className="table-wrap" role="region" aria-label="Consultas" tabIndex={0}>
            <table className="data stacked" data-testid="portal-records">
              <thead>
                <tr>
                  <th>Fecha (hora de Guatemala)</th>
                  <th>Consulta</th>
                  <th>Estado</th>
                  <th className="num">Cobrado</th>
                  <th className="num">Tiempo</th>
                  <th>Id de solicitud</th>
                  <th>NIT / CUI</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((record) => (
                  <tr key={record.requestId}>
                    <td className="nowrap" data-label="Fecha">
                      <Link href={portalRecordPath(record.requestId)} prefetch={false}>
                        {formatDateTime(record.createdAt)}
                      </Link>
                    </td>
                    <td data-label="Consulta">{LOOKUP_LABELS[record.lookup]}</td>
                    <td data-label="Estado" data-testid="record-status">
                      <HttpStatusBadge status={record.httpStatus} />
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="record-charged">
                      {formatQuetzales(record.chargedCentavos)}
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
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination newer={page.newer ? link({ antes: page.newer }) : undefined} older={page.older ? link({ despues: page.older }) : undefined} olderLabel="Más antiguas" />
        </>
      )}
      {!requestAnswer && !page.expired && (
        <section className="card" aria-labelledby="exportar-titulo">
          <h2 id="exportar-titulo">Exportar a CSV</h2>
          <p className="small muted">
            Las consultas del rango elegido{filtered ? ', con los filtros de arriba,' : ''} en un archivo CSV, con los NIT y CUI enmascarados. Hasta{' '}
            {maxExportRows.toLocaleString('es-GT')} consultas por archivo.
          </p>
          <form method="get" action={`${PORTAL_RECORDS_PATH}/exportar`} className="filters" data-testid="export-form">
            {[...filterParams].filter(([name]) => carriedToRecordsExport(name)).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <div className="field">
              <label htmlFor="exportar-desde">Desde</label>
              <input id="exportar-desde" name="desde" type="date" required defaultValue={filters.desde ?? guatemalanDayBefore(today, 29)} />
            </div>
            <div className="field">
              <label htmlFor="exportar-hasta">Hasta (incluido)</label>
              <input id="exportar-hasta" name="hasta" type="date" required defaultValue={filters.hasta ?? today} />
            </div>
            <div className="actions">
              <button type="submit" className="secondary" data-testid="export-submit">
                Descargar CSV
              </button>
            </div>
          </form>
        </section>
      )}
    </>
  );
}

/** A request id with neither a record nor a trace of this integration (or another integration's: the same words). */
function RequestIdUnknown({ requestId }: { requestId: string }) {
  const notes = requestIdUnknownNotes();
  return (
    <section className="card" data-testid="request-id-unknown" aria-labelledby="request-id-unknown-title">
      <h2 id="request-id-unknown-title" className="break-anywhere">
        Ninguna consulta ni rechazo de su integración tiene el id de solicitud <span className="mono">{requestId}</span>.
      </h2>
      <p>
        Puede que el id tenga un error de copia o no sea de este servicio, que la solicitud sea de hace más de {notes.traceRetentionDays} días
        (los rechazos se conservan ese tiempo), o de hace apenas unos segundos (los rechazos se anotan cada pocos segundos: vuelva a buscarla).
      </p>
      {/* What an integrator quotes may be one of the answers that leave no trace: said as the console says it. */}
      <p data-testid="untraced-answers">{notes.untracedAnswers}</p>
    </section>
  );
}
