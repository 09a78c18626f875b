import { ActionForm } from '@/components/console/action-form';
import { EmptyState } from '@/components/console/page-header';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { formatQuetzales } from '@/lib/money';
import { guatemalanMonthOf } from '@/lib/format/guatemala-time';
import { previousMonth } from '@/lib/statements/monthly';
import { monthName } from '@/lib/format/months';
import type { Statement } from '@/lib/statements/statements';
import { issueStatementAction } from './estados/actions';

/**
 * The closed months an administrator can issue a statement for: the last twelve, none before the
 * month the integration was created in (an empty statement would be kept forever).
 */
function closedMonths(createdAt: Date, now = new Date()): string[] {
  const months: string[] = [];
  const first = guatemalanMonthOf(createdAt);
  let month = previousMonth(now);
  for (let index = 0; index < 12 && month >= first; index++) {
    months.push(month);
    const [year, number] = month.split('-').map(Number) as [number, number];
    month = number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
  }
  return months;
}

/**
 * Monthly statements (administrators): the ones issued, to download as PDF or the CSV of their
 * charged queries, and a form to issue one for a closed month. An issued statement never changes.
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
  const base = `/admin/integraciones/${integrationId}/estados`;
  const months = closedMonths(createdAt);
  return (
    <section className="card" aria-labelledby="statements-title">
      <h2 id="statements-title">Estados de cuenta</h2>
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
        <div className="table-wrap" role="region" aria-label="Estados de cuenta" tabIndex={0}>
          <table className="data" data-testid="statements">
            <thead>
              <tr>
                <th>N.º</th>
                <th>Mes</th>
                <th className="num">Saldo final</th>
                <th>Emitido</th>
                <th>Descargar</th>
              </tr>
            </thead>
            <tbody>
              {statements.map((statement) => (
                <tr key={statement.id}>
                  <td className="num">{statement.number}</td>
                  <td>{monthName(statement.month)}</td>
                  <td className="num">{formatQuetzales(statement.figures.closingBalanceCentavos)}</td>
                  <td className="nowrap">{formatDateTime(statement.createdAt)}</td>
                  <td className="nowrap">
                    <a href={`${base}/${statement.month}/pdf`} download>
                      PDF
                    </a>
                    {canIssue && (
                      <>
                        {' · '}
                        <a href={`${base}/${statement.month}/csv`} download>
                          CSV de consultas cobradas
                        </a>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
