import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { monthName } from '@/lib/platform/time/months';
import { formatQuetzales } from '@/lib/platform/money';

/** An issued statement as a list shows it, with where each of its downloads is (the realm's own routes). */
export interface IssuedStatementRow {
  id: number;
  number: number;
  month: string;
  closingBalanceCentavos: number;
  createdAt: Date;
  /** Shown in its own column when the list has it (the portal's). */
  chargedCount?: number;
  pdfHref: string;
  /** The CSV of the month's charged queries, for those who may download it. */
  csvHref?: string;
}

/**
 * The issued monthly statements of one integration, the console's (its "Estados de cuenta"
 * section) and the portal's (the page of that name): number, month, closing balance, when issued,
 * and the downloads. `testId` names the table for the end-to-end tests of each side.
 */
export function IssuedStatementsTable({ statements, testId, showChargedCount = false }: { statements: IssuedStatementRow[]; testId: string; showChargedCount?: boolean }) {
  return (
    <div className="table-wrap" role="region" aria-label="Estados de cuenta" tabIndex={0}>
      <table className="data stacked" data-testid={testId}>
        <thead>
          <tr>
            <th>N.º</th>
            <th>Mes</th>
            {showChargedCount && <th className="num">Consultas cobradas</th>}
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
              {showChargedCount && (
                <td className="num" data-label="Consultas cobradas">
                  {statement.chargedCount?.toLocaleString('es-GT')}
                </td>
              )}
              <td className="num" data-label="Saldo final">
                {formatQuetzales(statement.closingBalanceCentavos)}
              </td>
              <td className="nowrap" data-label="Emitido">
                {formatDateTime(statement.createdAt)}
              </td>
              <td className="nowrap" data-label="Descargar">
                {/* One item beside the label on a phone: the links wrap between words, never inside "PDF". */}
                <span>
                  <a href={statement.pdfHref} download>
                    PDF
                  </a>
                  {statement.csvHref && (
                    <>
                      {' · '}
                      <a href={statement.csvHref} download>
                        CSV de consultas cobradas
                      </a>
                    </>
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
