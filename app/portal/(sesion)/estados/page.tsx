import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { IssuedStatementsTable } from '@/components/statements/issued-statements-table';
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
          <IssuedStatementsTable
            testId="portal-statements"
            showChargedCount
            statements={statements.map((statement) => ({
              ...statement,
              pdfHref: `/portal/estados/${statement.id}/pdf`,
              csvHref: `/portal/estados/${statement.id}/csv`,
            }))}
          />
        )}
        <p className="small muted">En el CSV, los NIT y CUI consultados aparecen enmascarados, como en el resto del portal.</p>
      </div>
    </>
  );
}
