import Link from 'next/link';
import { ActionForm } from '@/components/console/action-form';
import { EmptyState } from '@/components/console/page-header';
import { IssuedStatementsTable } from '@/components/statements/issued-statements-table';
import { closedMonths, runningMonth } from '@/lib/surfaces/console/statements';
import { monthName } from '@/lib/platform/time/months';
import type { Statement } from '@/lib/flows/statements/statements';
import { issueStatementAction } from './estados/actions';
import { statementsPath } from '@/lib/surfaces/console/integration-sections';

/**
 * Monthly statements: the ones issued, to download as PDF (administrators and support) or the CSV
 * of their charged queries (administrators), a form to issue one for a closed month
 * (administrators), and the preview of the running month or of other days (both: figures only,
 * like the PDF). An issued statement never changes; a preview is never stored.
 */
export function StatementsSection({
  integrationId,
  createdAt,
  statements,
  canIssue,
}: {
  integrationId: number;
  createdAt: Date;
  statements: Statement[];
  /** Administrators issue statements and download their charged queries (with identifiers); support reads the PDFs. */
  canIssue: boolean;
}) {
  const base = statementsPath(integrationId);
  const months = closedMonths(createdAt);
  const running = runningMonth();
  return (
    <section className="card" aria-labelledby="statements-title">
      <h2 id="statements-title">Estados de cuenta</h2>
      {/* The issued ones and the preview side by side from 900 px, one above the other on a phone. */}
      <div className="grid grid-2">
        <div>
          {canIssue && months.length === 0 && (
            <p className="small muted">El primer estado de cuenta se podrá emitir cuando termine el mes en que se creó la integración.</p>
          )}
          {canIssue && months.length > 0 && (
          <ActionForm action={issueStatementAction} hidden={{ integrationId }} submitLabel="Emitir estado de cuenta" pendingLabel="Calculando…" className="inline">
            <div className="field">
              <label htmlFor="statement-month">Mes</label>
              <select id="statement-month" name="mes" defaultValue={months[0]}>
                {months.map((month) => (
                  <option key={month} value={month}>
                    {monthName(month)}
                  </option>
                ))}
              </select>
            </div>
          </ActionForm>
          )}
          <p className="small muted">
            Se emite una vez por mes cerrado (también automáticamente el día 1) y no cambia: una corrección posterior aparece como ajuste en el mes en que se
            registra.
          </p>
          {statements.length === 0 ? (
            <EmptyState title="Todavía no se ha emitido ningún estado de cuenta." />
          ) : (
            <IssuedStatementsTable
              testId="statements"
              statements={statements.map((statement) => ({
                id: statement.id,
                number: statement.number,
                month: statement.month,
                closingBalanceCentavos: statement.figures.closingBalanceCentavos,
                createdAt: statement.createdAt,
                pdfHref: `${base}/${statement.month}/pdf`,
                csvHref: canIssue ? `${base}/${statement.month}/csv` : undefined,
              }))}
            />
          )}
        </div>
        <div>
          <h3 id="statement-preview-title">Vista previa</h3>
          <p className="small muted">Lo que diría un estado de cuenta con las cifras de este momento, sin número y sin guardarlo: del mes en curso o de las fechas que elijas.</p>
          <p>
            <Link className="button secondary" href={`${base}/vista-previa`}>
              Vista previa del mes en curso
            </Link>
          </p>
          <form className="inline" action={`${base}/vista-previa`} method="get" aria-labelledby="statement-preview-title">
            <div className="field">
              <label htmlFor="preview-desde">Desde</label>
              <input id="preview-desde" name="desde" type="date" defaultValue={running.desde} max={running.hasta} />
            </div>
            <div className="field">
              <label htmlFor="preview-hasta">Hasta (incluido)</label>
              <input id="preview-hasta" name="hasta" type="date" defaultValue={running.hasta} max={running.hasta} />
            </div>
            <button type="submit" className="secondary">
              Ver vista previa de estas fechas
            </button>
          </form>
        </div>
      </div>
    </section>
  );
}
