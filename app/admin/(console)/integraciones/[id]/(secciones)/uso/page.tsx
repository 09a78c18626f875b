import type { Metadata } from 'next';
import Link from 'next/link';
import { IdentifierList, recordIdentifierList } from '@/components/console/identifier-list';
import { EmptyState } from '@/components/console/page-header';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { RefusalsTable, UsageBreakdown, UsageTotals } from '@/components/console/usage';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationUsageView } from '@/lib/surfaces/console/integration-pages';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { integrationOrNotFound, sectionTitle } from '../../integration';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'uso') };
}

/**
 * What the integration did in the last 30 days (from the rollups, never a scan of the records):
 * its lookups by type and outcome, what they cost, the requests refused before any source, and its
 * latest queries (identifiers masked, as everywhere in lists).
 */
export default async function IntegrationUsagePage({ params }: { params: Promise<{ id: string }> }) {
  await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  const { usage, recent } = await integrationUsageView(integration.id, 10);

  return (
    <>
      <section aria-labelledby="usage-title" data-testid="integration-usage">
        <h2 id="usage-title">Uso en los últimos 30 días</h2>
        <UsageTotals dashboard={usage} testIdPrefix="usage" />
        {usage.totals.total === 0 ? (
          <div className="card">
            <EmptyState title="Esta integración todavía no tiene consultas en estos 30 días." />
          </div>
        ) : (
          <UsageBreakdown dashboard={usage} subject={integration.nombre} heading="h3" tableTestId="integration-usage-by-lookup" />
        )}
        <section className="card">
          <h3>Solicitudes rechazadas antes de la fuente, por motivo</h3>
          <p className="small muted">
            No son registros de consultas (el contrato no las registra) ni se cobran: es lo que la integración recibió como 400, 401, 402, 403 o 429.
          </p>
          <RefusalsTable dashboard={usage} testId="integration-refusals" empty="Ninguna solicitud rechazada en los últimos 30 días." />
        </section>
      </section>

      <section className="card" aria-labelledby="recent-title">
        <h2 id="recent-title">Últimas consultas</h2>
        {recent.length === 0 ? (
          <EmptyState title="Esta integración todavía no tiene consultas." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Últimas consultas" tabIndex={0}>
            <table className="data stacked">
              <thead>
                <tr>
                  <th>Fecha</th>
                  <th>Consulta</th>
                  <th>Estado</th>
                  <th>Identificador</th>
                  <th className="num">Cobrado</th>
                </tr>
              </thead>
              <tbody>
                {recent.map((record) => (
                  <tr key={record.id}>
                    <td className="nowrap" data-label="Fecha">
                      <Link href={`/admin/registros/${record.id}`} prefetch={false}>
                        {formatDateTime(record.createdAt)}
                      </Link>
                    </td>
                    <td data-label="Consulta">{LOOKUP_LABELS[record.lookup]}</td>
                    <td data-label="Estado">
                      <HttpStatusBadge status={record.httpStatus} />
                    </td>
                    <td className="mono small identifiers" data-label="Identificador">
                      <IdentifierList identifiers={recordIdentifierList(record)} fold />
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="recent-charged">
                      {formatQuetzales(record.chargedCentavos)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
