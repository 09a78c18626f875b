import { formatDateTime, guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { dayText } from '@/lib/platform/time/months';
import { LOOKUP_LABELS, OUTCOME_LABELS, REVERSAL_STANDING_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import { OUTCOMES } from '@/lib/core/records/outcomes';
import type { PeriodFigures } from './figures';
import type { TopUpInvoice } from './invoices';

// The tables of a statement, as text: the PDF (issued or preview) and the console's preview draw
// these same rows, so what the page shows is what the PDF prints.

export interface StatementTable {
  id: 'summary' | 'charges' | 'movements' | 'queries' | 'invoices';
  title: string;
  /** What stands in for the table when it has no rows. */
  empty: string;
  header?: string[];
  rows: string[][];
  /** A last row in bold (a total, the closing balance). */
  total?: string[];
  /** The columns of amounts and counts, right-aligned. */
  numeric: number[];
  note?: string;
}

const count = (value: number) => value.toLocaleString('es-GT');

export function statementTables(figures: PeriodFigures): StatementTable[] {
  return [summary(figures), charges(figures), movements(figures), queries(figures)];
}

function summary(figures: PeriodFigures): StatementTable {
  return {
    id: 'summary',
    title: 'Resumen',
    empty: '',
    rows: [
      ['Saldo inicial', formatQuetzales(figures.openingBalanceCentavos)],
      [`Recargas (${figures.topUps.count})`, formatQuetzales(figures.topUps.totalCentavos)],
      [`Ajustes (${figures.adjustments.count})`, formatQuetzales(figures.adjustments.totalCentavos)],
      [`Consultas cobradas (${count(figures.charges.count)})`, formatQuetzales(-figures.charges.totalCentavos)],
      ...(figures.constancias ? [[`Constancias de consulta (${count(figures.constancias.count)})`, formatQuetzales(-figures.constancias.totalCentavos)]] : []),
    ],
    total: ['Saldo final', formatQuetzales(figures.closingBalanceCentavos)],
    numeric: [1],
  };
}

function charges(figures: PeriodFigures): StatementTable {
  const { lines } = figures.charges;
  // A receipt's tariff is charged apart from its lookup's (docs/constancias.md): its own lines, after the lookups'.
  const receipts = figures.constancias?.lines ?? [];
  const [allCount, allCentavos] = [figures.charges.count + (figures.constancias?.count ?? 0), figures.charges.totalCentavos + (figures.constancias?.totalCentavos ?? 0)];
  return {
    id: 'charges',
    title: 'Cobros por consulta',
    empty: 'No hubo consultas cobradas en el periodo.',
    header: ['Consulta', 'Tarifa', 'Consultas', 'Monto'],
    rows: [
      ...lines.map((line) => [LOOKUP_LABELS[line.lookup], formatQuetzales(line.tariffCentavos), count(line.count), formatQuetzales(line.amountCentavos)]),
      ...receipts.map((line) => ['Constancias de consulta', formatQuetzales(line.tariffCentavos), count(line.count), formatQuetzales(line.amountCentavos)]),
    ],
    total: lines.length + receipts.length > 0 ? ['Total', '', count(allCount), formatQuetzales(allCentavos)] : undefined,
    numeric: [1, 2, 3],
  };
}

function movements(figures: PeriodFigures): StatementTable {
  return {
    id: 'movements',
    title: 'Recargas y ajustes',
    empty: 'No hubo recargas ni ajustes en el periodo.',
    header: ['Fecha', 'Tipo', 'Nota', 'Monto'],
    rows: figures.movements.map((movement) => [
      formatDateTime(movement.at),
      movement.kind === 'top_up' ? 'Recarga' : 'Ajuste',
      movement.note ?? '',
      formatQuetzales(movement.amountCentavos),
    ]),
    numeric: [3],
  };
}

function queries(figures: PeriodFigures): StatementTable {
  const lookups = [...new Set(figures.queries.map((entry) => entry.lookup))];
  const queriesOf = (lookup: string, outcome: string) => figures.queries.find((entry) => entry.lookup === lookup && entry.outcome === outcome)?.count ?? 0;
  const charged = (lookup: string) => figures.charges.lines.filter((line) => line.lookup === lookup).reduce((sum, line) => sum + line.count, 0);
  return {
    id: 'queries',
    title: 'Consultas por resultado',
    empty: 'No hubo consultas en el periodo.',
    header: ['Consulta', 'Éxito', 'Rechazadas (4xx)', 'Fallas (5xx)', 'Cobradas'],
    rows: lookups.map((lookup) => [LOOKUP_LABELS[lookup], ...OUTCOMES.map((outcome) => count(queriesOf(lookup, outcome))), count(charged(lookup))]),
    numeric: [1, 2, 3, 4],
    note: `${OUTCOME_LABELS.client_error} y ${OUTCOME_LABELS.source_error.toLowerCase()} no se cobran.`,
  };
}

/** The FEL invoices of the statement's top-ups: each one's date, serie-número (and whether voided or credited), UUID and total ("En trámite" until it is certified). */
export function invoicesTable(invoices: readonly TopUpInvoice[]): StatementTable {
  return {
    id: 'invoices',
    title: 'Facturas de las recargas',
    empty: 'No hubo recargas facturadas en el periodo.',
    header: ['Recarga', 'Serie-número', 'Número de autorización (UUID)', 'Total'],
    rows: invoices.flatMap((invoice) => [
      [
        dayText(guatemalanToday(invoice.toppedUpAt)),
        // A voided or credited invoice is marked under its numbers: its top-up's money went back.
        invoice.serie && invoice.numero
          ? `${invoice.serie}-${invoice.numero}${invoice.reversal ? `\n${REVERSAL_STANDING_LABELS[invoice.reversal]}` : ''}`
          : invoice.state === 'awaiting_receptor'
            ? 'Pendiente: falta el NIT'
            : 'En trámite',
        invoice.uuid ?? 'Todavía sin certificar',
        formatQuetzales(invoice.totalCentavos),
      ],
      // Each void or credit note on a line of its own, by its own numbers, with what it reverted.
      ...invoice.documents.map((document) => [
        '',
        `${document.kind === 'void' ? 'Anulación' : 'Nota de crédito'}${document.serie && document.numero ? ` ${document.serie}-${document.numero}` : ''}${document.done ? '' : ' (en trámite)'}`,
        // A correction of the receptor: the same top-up is invoiced again on the next line.
        document.correction && document.kind === 'void'
          ? 'Anula la factura de arriba para corregir su receptor: la reemplaza la de abajo'
          : document.kind === 'void'
            ? 'Anula la factura de arriba'
            : `${document.uuid ?? 'Todavía sin certificar'}${document.correction ? '\nCorrige el receptor: la reemplaza la de abajo' : ''}`,
        formatQuetzales(-document.amountCentavos),
      ]),
    ]),
    numeric: [3],
    note: 'Cada factura electrónica (FEL) se descarga, en XML y PDF, en Facturas del portal.',
  };
}
