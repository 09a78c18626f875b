import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { monthName } from '@/lib/format/months';
import { formatQuetzales } from '@/lib/money';
import { BILLING_READERS } from '@/lib/portal/roles';
import { requirePortalPage } from '@/lib/portal/session';
import { portalStatements } from '@/lib/portal/statements';

export const metadata: Metadata = { title: 'Estados de cuenta' };

// Estados de cuenta: each monthly statement issued to the session's integration, as the PDF the
// billing contact receives and as a CSV of the month's charged queries.
export default async function PortalStatementsPage() {
  const user = await requirePortalPage(BILLING_READERS);
  const statements = await portalStatements(user);
  return (
    <>
      <PageHeader
        title="Estados de cuenta"
        description="Se emite uno por cada mes cerrado, el día 1 del mes siguiente, y no cambia: una corrección posterior aparece como ajuste en el mes en que se registra."
      />
      <div className="card">
        {statements.length === 0 ? (
          <EmptyState title="Todavía no se ha emitido ningún estado de cuenta de tu integración." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Estados de cuenta" tabIndex={0}>
            <table className="data stacked" data-testid="portal-statements">
              <thead>
                <tr>
                  <th>N.º</th>
                  <th>Mes</th>
                  <th className="num">Consultas cobradas</th>
                  <th className="num">Saldo final</th>
                  <th>Emitido</th>
                  <th>Descargar</th>
                </tr>
              </thead>
              <tbody>
                {statements.map((statement) => (
                  <tr key={statement.id}>
                    <td className="num" data-label="N.º">
                      {statement.number}
                    </td>
                    <td data-label="Mes">{monthName(statement.month)}</td>
                    <td className="num" data-label="Consultas cobradas">
                      {statement.chargedCount.toLocaleString('es-GT')}
                    </td>
                    <td className="num" data-label="Saldo final">
                      {formatQuetzales(statement.closingBalanceCentavos)}
                    </td>
                    <td className="nowrap" data-label="Emitido">
                      {formatDateTime(statement.createdAt)}
                    </td>
                    <td className="nowrap" data-label="Descargar">
                      {/* One item beside the label on a phone: the links wrap between words, never inside "PDF". */}
                      <span>
                        <a href={`/portal/estados/${statement.id}/pdf`} download>
                          PDF
                        </a>
                        {' · '}
                        <a href={`/portal/estados/${statement.id}/csv`} download>
                          CSV de consultas cobradas
                        </a>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="small muted">En el CSV, los NIT y CUI consultados aparecen enmascarados, como en el resto del portal.</p>
      </div>
    </>
  );
}
