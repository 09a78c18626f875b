import { describeLedgerActor } from '@/lib/vocabulary/actor-labels';
import Link from 'next/link';
import type { HeldInFlight, HistoryRow } from '@/lib/core/billing/history';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { HISTORY_KIND_LABELS } from '@/lib/vocabulary/labels';
import { readableLedgerNote } from '@/lib/flows/top-ups/notes';
import { formatQuetzales } from '@/lib/platform/money';

/**
 * Posted movements with the balance after each: a top-up or an adjustment links to its audit
 * entry (for administrators, who may read the audit log), a charged query to its record, and a
 * top-up invoiced to its FEL invoice.
 */
export function BalanceHistoryTable({ rows, integrationId, canReadAudit }: { rows: HistoryRow[]; integrationId: number; canReadAudit: boolean }) {
  return (
    <div className="table-wrap" role="region" aria-label="Historial de saldo" tabIndex={0}>
      <table className="data stacked" data-testid="balance-history">
        <thead>
          <tr>
            <th>Fecha</th>
            <th>Movimiento</th>
            <th className="num">Monto</th>
            <th className="num">Saldo después</th>
            <th>Origen</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td className="nowrap" data-label="Fecha">
                {formatDateTime(row.createdAt)}
              </td>
              <td data-label="Movimiento">{HISTORY_KIND_LABELS[row.kind]}</td>
              <td className="num" data-label="Monto">
                {formatQuetzales(row.amountCentavos)}
              </td>
              <td className="num" data-label="Saldo después" data-testid="balance-after">
                {formatQuetzales(row.balanceAfterCentavos)}
              </td>
              <td className="small" data-label="Origen">
                {/* One box: on a phone the cell is a flex row, and a link beside its note would be two columns. */}
                <span>
                  <Origin row={row} integrationId={integrationId} canReadAudit={canReadAudit} />
                  {row.invoiceId !== null && (
                    <>
                      {' · '}
                      <Link href={`/admin/facturas/${row.invoiceId}`}>Factura</Link>
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

function Origin({ row, integrationId, canReadAudit }: { row: HistoryRow; integrationId: number; canReadAudit: boolean }) {
  if (row.kind === 'capture') {
    return row.queryRecordId ? <Link href={`/admin/registros/${row.queryRecordId}`}>Consulta {row.queryRecordId}</Link> : 'Consulta';
  }
  const who = describeLedgerActor(row.actor);
  const note = row.note ? ` · ${readableLedgerNote(row.note)}` : '';
  if (canReadAudit && row.auditCursor) {
    return (
      <>
        <Link href={`/admin/auditoria?${new URLSearchParams({ tipo: 'integration', id: String(integrationId), despues: row.auditCursor })}`}>{who}</Link>
        {note}
      </>
    );
  }
  return `${who}${note}`;
}

/** The holds of lookups in flight: held, not yet moved, so they are not in the history. */
export function HeldInFlightNotice({ held }: { held: HeldInFlight }) {
  if (held.holds === 0) return null;
  return (
    <p className="notice info" data-testid="held-in-flight">
      En curso: {held.holds === 1 ? '1 consulta' : `${held.holds.toLocaleString('es-GT')} consultas`} con {formatQuetzales(held.centavos)} reservados. El saldo
      ya los descuenta; pasan al historial cuando la consulta termina (cobrada) o se liberan si no se cobra.
    </p>
  );
}
