import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { dayRangeText } from '@/lib/platform/time/months';
import { integratorIdentityLines } from '@/lib/flows/integration-management/details-display';
import { issuerLines } from '@/lib/flows/statements/issuer';
import { invoicesTable, statementTables } from '@/lib/flows/statements/layout';
import type { StatementPreview } from '@/lib/flows/statements/preview';
import { PREVIEW_CLOSING_NOTE, previewIdentification } from '@/lib/flows/statements/texts';
import { StatementTableView } from './statement-table';

/**
 * A statement's preview as its PDF reads (issuer, integrator, period, the tables, the closing
 * note): the console's preview of any days and the portal's of the running month show the same.
 */
export function StatementPreviewDocument({ preview, serviceName }: { preview: StatementPreview; serviceName: string }) {
  const { figures, range } = preview;
  const { integration } = figures;
  return (
    <article className="card" aria-labelledby="preview-title" data-testid="statement-preview">
      <p className="small muted">{serviceName}</p>
      <p className="small muted" data-testid="preview-issuer">
        {issuerLines(preview.issuer).map((line, index) => (
          <span key={index}>
            {index > 0 && <br />}
            {line}
          </span>
        ))}
      </p>
      <h2 id="preview-title">Vista previa del estado de cuenta</h2>
      <p>
        Integración: {integration.nombre}
        {integratorIdentityLines(integration).map((line) => (
          <span key={line}>
            <br />
            {line}
          </span>
        ))}
        <br />
        Periodo: {dayRangeText(range.desde, range.hasta)} (hora de Guatemala)
        {integration.purpose !== undefined && (
          <>
            <br />
            Finalidad declarada del uso de los datos: {integration.purpose || 'no declarada'}
          </>
        )}
      </p>
      <p className="small muted">{previewIdentification(formatDateTime(preview.computedAt))}</p>
      {[...statementTables(figures), invoicesTable(preview.invoices)].map((table) => (
        <StatementTableView key={table.id} table={table} />
      ))}
      <p className="small muted">{PREVIEW_CLOSING_NOTE}</p>
    </article>
  );
}
