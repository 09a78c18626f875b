import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { EXPIRED_SEARCH_MESSAGE, SEARCH_REFERENCE_PARAM, searchedIdentifierOf } from '@/lib/surfaces/console/search-form';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';
import {
  integrationIdentity,
  produceSubjectReport,
  SUBJECT_REPORT_LIMITS,
  linkedIdentifiersLine,
  matchLabel,
  SUBJECT_REPORT_MAX_ROWS,
  SUBJECT_REQUEST_PARAM,
  subjectIdentifierSchema,
  subjectRequestSchema,
} from '@/lib/surfaces/console/subject-report';

export const metadata: Metadata = { title: '¿Quién consultó este CUI o NIT?' };

// At most this many of the report's queries on screen; the CSV and the PDF carry all of them.
const SHOWN_ROWS = 200;

export default async function SubjectReportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('admin');
  const params = await searchParams;
  // The identifier is posted to ./buscar and comes back as a reference: never in the address.
  const reference = params[SEARCH_REFERENCE_PARAM];
  const typed = await searchedIdentifierOf(user.id, reference);
  const expired = reference !== undefined && typed === '';
  const parsed = typed.trim() === '' ? undefined : subjectIdentifierSchema.safeParse(typed);
  // The request's reference (ticket, letter) is asked for every report and kept in the access log.
  const typedRequest = typeof params[SUBJECT_REQUEST_PARAM] === 'string' ? (params[SUBJECT_REQUEST_PARAM] as string) : '';
  const request = parsed ? subjectRequestSchema.safeParse(typedRequest) : undefined;
  const report = parsed?.success && request?.success ? await produceSubjectReport(user.id, parsed.data, 'page', request.data) : undefined;
  const download =
    report && typeof reference === 'string' ? new URLSearchParams({ [SEARCH_REFERENCE_PARAM]: reference, [SUBJECT_REQUEST_PARAM]: report.reference }).toString() : '';

  return (
    <>
      <PageHeader
        title="¿Quién consultó este CUI o NIT?"
        back={{ href: '/admin/datos-personales', label: 'Accesos a datos personales' }}
        description="Para responder la solicitud de una persona sobre sus datos: qué integraciones consultaron su identificador, cuándo y con qué finalidad declarada. Cada informe queda registrado en los accesos a datos personales."
      />
      {expired && (
        <p className="notice warn" role="alert" data-testid="search-expired">
          {EXPIRED_SEARCH_MESSAGE}
        </p>
      )}
      <form className="card filters" action="/admin/datos-personales/quien-consulto/buscar" method="post" role="search" aria-label="Identificador">
        <ReportField
          id="identificador"
          name="identificador"
          label="NIT o CUI"
          defaultValue={typed}
          placeholder="576937-K o 2415 75181 0101"
          error={parsed && !parsed.success ? parsed.error.issues[0]!.message : undefined}
          hint="Con o sin guion ni espacios; incluye los lotes de RTU por NIT."
        />
        <ReportField
          id="referencia"
          name={SUBJECT_REQUEST_PARAM}
          label="Referencia de la solicitud"
          defaultValue={typedRequest}
          placeholder="Ticket 4821"
          error={request && !request.success ? request.error.issues[0]!.message : undefined}
          hint="El número de ticket o de la carta de la persona (sin sus datos): queda con el informe en los accesos a datos personales."
        />
        <div className="actions">
          <button type="submit">Preparar informe</button>
        </div>
      </form>
      {report && (
        <section className="card" aria-labelledby="report-title" data-testid="subject-report">
          <h2 id="report-title">Integraciones que consultaron {report.identifier}</h2>
          <p data-testid="subject-report-linked">{linkedIdentifiersLine(report)}</p>
          <p className="small muted" data-testid="subject-report-limits">
            {SUBJECT_REPORT_LIMITS}
          </p>
          <p className="actions">
            <a className="button secondary" href={`/admin/datos-personales/quien-consulto/pdf?${download}`} download data-testid="subject-report-pdf">
              Descargar PDF
            </a>
            <a className="button secondary" href={`/admin/datos-personales/quien-consulto/csv?${download}`} download data-testid="subject-report-csv">
              Descargar CSV
            </a>
          </p>
          {report.integrations.length === 0 ? (
            <EmptyState title="Ninguna integración consultó este identificador en los registros que se conservan." />
          ) : (
            <>
              <div className="table-wrap" role="region" aria-label="Integraciones" tabIndex={0}>
                <table className="data stacked" data-testid="subject-report-integrations">
                  <thead>
                    <tr>
                      <th>Integración</th>
                      <th>Finalidad declarada</th>
                      <th className="num">Consultas</th>
                      <th>Primera</th>
                      <th>Última</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.integrations.map((integration) => (
                      <tr key={integration.id}>
                        <td data-label="Integración">
                          {/* Who the integrator is and what it declared: its details section. */}
                          <Link href={integrationPath(integration.id, 'datos')}>{integrationIdentity(integration)}</Link>
                        </td>
                        <td data-label="Finalidad declarada">{integration.purpose || <span className="muted">No declarada</span>}</td>
                        <td className="num" data-label="Consultas">
                          {integration.queries.toLocaleString('es-GT')}
                        </td>
                        <td data-label="Primera">{formatDateTime(integration.first)}</td>
                        <td data-label="Última">{formatDateTime(integration.last)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <h3 style={{ marginTop: '1rem' }}>Consultas, de la más reciente a la más antigua</h3>
              <div className="table-wrap" role="region" aria-label="Consultas del identificador" tabIndex={0}>
                <table className="data stacked">
                  <thead>
                    <tr>
                      <th>Fecha</th>
                      <th>Integración</th>
                      <th>Consulta</th>
                      <th>Buscada por</th>
                      <th>Estado</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.lookups.slice(0, SHOWN_ROWS).map((lookup) => (
                      <tr key={lookup.recordId}>
                        <td className="nowrap" data-label="Fecha">
                          {formatDateTime(lookup.createdAt)}
                        </td>
                        <td data-label="Integración">{lookup.integrationNombre}</td>
                        <td data-label="Consulta">{LOOKUP_LABELS[lookup.lookup]}</td>
                        <td data-label="Buscada por">{matchLabel(lookup)}</td>
                        <td data-label="Estado">
                          <HttpStatusBadge status={lookup.httpStatus} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {report.lookups.length > SHOWN_ROWS && (
                <p className="small muted">
                  En pantalla, las {SHOWN_ROWS} más recientes de {report.lookups.length.toLocaleString('es-GT')}; el PDF y el CSV las incluyen todas
                  {report.truncated ? ` (hasta ${SUBJECT_REPORT_MAX_ROWS.toLocaleString('es-GT')})` : ''}.
                </p>
              )}
            </>
          )}
        </section>
      )}
    </>
  );
}

/** One of the form's two text fields: its hint, or what is wrong with what was typed. */
function ReportField({
  id,
  name,
  label,
  defaultValue,
  placeholder,
  error,
  hint,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  placeholder: string;
  error: string | undefined;
  hint: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        defaultValue={defaultValue}
        autoComplete="off"
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-ayuda`}
      />
      {error ? (
        <span className="error" id={`${id}-error`}>
          {error}
        </span>
      ) : (
        <span className="hint" id={`${id}-ayuda`}>
          {hint}
        </span>
      )}
    </div>
  );
}
