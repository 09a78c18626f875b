import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CopyButton } from '@/components/console/copy-button';
import { PageHeader } from '@/components/console/page-header';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/auth/session';
import { LEDGER_KIND_LABELS, LOOKUP_LABELS, LOOKUP_ROUTES } from '@/lib/format/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { explainRecordError } from '@/lib/format/record-errors';
import { formatQuetzales } from '@/lib/money';
import { parseRecordFilters, recordFiltersToSearchParams } from '@/lib/records/filters';
import { findRecordDetail } from '@/lib/records/list';
import { writeAccessEntry } from '@/lib/personal-data/access-log';
import { identifiersForRole } from '@/lib/personal-data/masking';
import { revealRecordIdentifiersAction } from '../actions';
import { RevealIdentifiers } from './reveal-identifiers';

/** The tab names the query by its number, as its page heading does. */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: /^\d{1,18}$/.test(id) ? `Consulta ${id}` : 'Consulta' };
}

export default async function RecordPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser('support');
  const { id } = await params;
  const { volver } = await searchParams;
  // Back to the list as it was filtered: only the list's own filters, re-encoded, never a raw link.
  const listQuery = typeof volver === 'string' ? recordFiltersToSearchParams(parseRecordFilters(new URLSearchParams(volver)).filters).toString() : '';
  if (!/^\d{1,18}$/.test(id)) notFound();
  const detail = await findRecordDetail(Number(id));
  if (!detail) notFound();
  // Support sees the identifiers masked (and masked inside the source's error detail); an
  // administrator sees them in full, and that view is logged before the page is rendered.
  if (user.role === 'admin') await writeAccessEntry({ userId: user.id, kind: 'view', recordId: detail.record.id });
  const record = identifiersForRole(detail.record, user.role);
  const { ledger } = detail;
  const hasIdentifiers = detail.record.nit !== null || detail.record.cui !== null;
  const explanation = explainRecordError(record);

  return (
    <>
      <PageHeader title={`Consulta ${record.id}`} back={{ href: listQuery ? `/admin/registros?${listQuery}` : '/admin/registros', label: 'Registros de consultas' }} />
      <div className="grid grid-2">
        <section className="card">
          <h2>Consulta</h2>
          <dl className="details" data-testid="record-detail">
            <dt>Fecha</dt>
            <dd>{formatDateTime(record.createdAt)} (hora de Guatemala)</dd>
            <dt>Integración</dt>
            <dd>
              <Link href={`/admin/integraciones/${record.integrationId}`}>{record.integrationNombre}</Link>
            </dd>
            <dt>Consulta</dt>
            <dd>
              {LOOKUP_LABELS[record.lookup]} <span className="mono small muted">{LOOKUP_ROUTES[record.lookup]}</span>
            </dd>
            <dt>Estado HTTP</dt>
            <dd>
              <HttpStatusBadge status={record.httpStatus} />
            </dd>
            <dt>Tiempo de respuesta</dt>
            <dd>{record.responseTimeMs.toLocaleString('es-GT')} ms</dd>
            <dt>NIT</dt>
            <dd className="mono" data-testid="record-nit">
              {record.nit ?? '—'}
            </dd>
            <dt>CUI</dt>
            <dd className="mono" data-testid="record-cui">
              {record.cui ?? '—'}
            </dd>
            {user.role !== 'admin' && hasIdentifiers && (
              <>
                <dt>Datos personales</dt>
                <dd>
                  <p className="small muted">Enmascarados para tu rol. Para verlos completos indica el motivo: el acceso queda registrado.</p>
                  <RevealIdentifiers recordId={record.id} reveal={revealRecordIdentifiersAction} />
                </dd>
              </>
            )}
            <dt>Error</dt>
            <dd>
              {explanation ?? '—'}
              {record.errorMessage && (
                <details className="raw-detail">
                  <summary>Detalle técnico</summary>
                  <pre className="mono small" data-testid="record-error-raw">
                    {record.errorMessage}
                  </pre>
                </details>
              )}
            </dd>
            <dt>Id de solicitud</dt>
            <dd>
              <span className="copyable">
                <code className="mono small" data-testid="record-request-id">
                  {record.requestId}
                </code>
                <CopyButton text={record.requestId} accessibleName="Copiar el id de solicitud" />
              </span>
            </dd>
          </dl>
        </section>
        <section className="card">
          <h2>Cobro</h2>
          <dl className="details">
            <dt>Cobrado</dt>
            <dd data-testid="record-charged">{formatQuetzales(record.chargedCentavos)}</dd>
            <dt>Tarifa vigente</dt>
            <dd>{record.tariffCentavos === null ? 'Consulta sin cobro' : formatQuetzales(record.tariffCentavos)}</dd>
          </dl>
          {ledger.length > 0 && (
            <div className="table-wrap" role="region" aria-label="Movimientos de saldo de esta consulta" tabIndex={0} style={{ marginTop: '0.75rem' }}>
              <table className="data">
                <thead>
                  <tr>
                    <th>Movimiento</th>
                    <th className="num">Monto</th>
                    <th>Fecha</th>
                  </tr>
                </thead>
                <tbody>
                  {ledger.map((entry) => (
                    <tr key={entry.id}>
                      <td>{LEDGER_KIND_LABELS[entry.kind]}</td>
                      <td className="num">{formatQuetzales(entry.amountCentavos)}</td>
                      <td className="nowrap">{formatDateTime(entry.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <p className="small muted">
            Los catálogos reservan la tarifa antes de consultar la fuente; la reserva se cobra si la fuente responde 200 y se libera en cualquier otro
            caso.
          </p>
        </section>
      </div>
    </>
  );
}
