import type { StatementTable } from '@/lib/flows/statements/layout';

/**
 * One table of a statement as the PDF prints it (lib/flows/statements/layout.ts): a heading, the rows
 * (on a phone, one block per row, each cell with its column's name), the total in bold, the note.
 * A table without a header (the summary) names each row in its first cell.
 */
export function StatementTableView({ table }: { table: StatementTable }) {
  const headingId = `preview-${table.id}-title`;
  const { header } = table;
  const numeric = (column: number) => (table.numeric.includes(column) ? 'num' : undefined);
  const cells = (row: string[], bold: boolean) =>
    row.map((cell, column) => {
      const content = bold ? <strong>{cell}</strong> : cell;
      if (!header && column === 0) {
        return (
          <th key={column} scope="row">
            {content}
          </th>
        );
      }
      return (
        // An empty cell (a total's tariff) gets no label on a phone: a label with nothing beside it says nothing.
        <td key={column} className={numeric(column)} data-label={header && cell !== '' ? header[column] : undefined}>
          {content}
        </td>
      );
    });
  return (
    <section aria-labelledby={headingId} className="statement-table">
      <h3 id={headingId}>{table.title}</h3>
      {table.rows.length === 0 && !table.total ? (
        <p className="muted">{table.empty}</p>
      ) : (
        <div className="table-wrap" role="region" aria-labelledby={headingId} tabIndex={0}>
          <table className={header ? 'data stacked' : 'data'} data-testid={`preview-${table.id}`}>
            {header && (
              <thead>
                <tr>
                  {header.map((cell, column) => (
                    <th key={column} className={numeric(column)}>
                      {cell}
                    </th>
                  ))}
                </tr>
              </thead>
            )}
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index}>{cells(row, false)}</tr>
              ))}
              {table.total && <tr>{cells(table.total, true)}</tr>}
            </tbody>
          </table>
        </div>
      )}
      {table.note && <p className="small muted">{table.note}</p>}
    </section>
  );
}
