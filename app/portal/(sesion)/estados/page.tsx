import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { IssuedStatementsTable } from '@/components/statements/issued-statements-table';
import { dayRangeText } from '@/lib/platform/time/months';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalRunningMonth, portalStatements } from '@/lib/surfaces/portal/statements';

export const metadata: Metadata = { title: 'Estados de cuenta' };

// Estados de cuenta: each monthly statement issued to the session's integration, as the PDF the
// billing contact receives and as a CSV of the month's charged queries; and the running month's
// preview, which is not a statement until the month closes.
export default async function PortalStatementsPage() {
  const user = await requirePortalPage(BILLING_READERS);
  const statements = await portalStatements(user);
  const running = portalRunningMonth();
  return (
    <>
      <PageHeader
        title="Estados de cuenta"
        description="Se emite uno por cada mes cerrado, el día 1 del mes siguiente, y no cambia: una corrección posterior aparece como ajuste en el mes en que se registra."
      />
      <section className="card" aria-labelledby="mes-en-curso" data-testid="portal-running-month">
        <h2 id="mes-en-curso">Mes en curso</h2>
        <p>
          Vista previa de su estado de cuenta {dayRangeText(running.desde, running.hasta)}, con las cifras de este momento. No es un estado de cuenta emitido: no
          tiene número y sus cifras cambian hasta que el mes termine.
        </p>
        <p className="actions">
          <Link className="button" href="/portal/estados/vista-previa">
            Ver la vista previa
          </Link>
          <a className="button secondary" href="/portal/estados/vista-previa/pdf" download>
            Descargar PDF de la vista previa
          </a>
        </p>
      </section>
      <div className="card">
        {statements.length === 0 ? (
          <EmptyState title="Todavía no se ha emitido ningún estado de cuenta de su integración." />
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
