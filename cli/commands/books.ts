// The books by month: top-ups against their invoices, voids and credit notes, and what does not add up.
import { database } from '@/db/client';
import { booksByMonth, booksFindings, type BooksFinding, type BooksMonth } from '@/lib/core/billing/books';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { LEDGER_DIFFERENCE_LABELS } from '@/lib/presentation/labels';
import { ledgerDifferenceDetail, wordedDifference } from '@/lib/presentation/ledger-differences';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg } from './arguments';
import type { Commands } from './command';
import { count, counted } from './describe';

export const booksCommands: Commands = {
  'books:verify': {
    usage: {
      args: ['[--integration id|nombre] [--mes AAAA-MM]'],
      description: [
        'las cuentas por mes: recargas, facturas, anulaciones y notas de crédito;',
        'si un pago no se acreditó, una recarga no tiene factura ni motivo o un',
        'reembolso no tiene nota de crédito, lo lista y termina con el código 1',
      ],
    },
    async run(_args, options) {
      const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
      const month = typeof options.mes === 'string' ? options.mes : undefined;
      if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new CliError(`--mes se escribe AAAA-MM, como 2026-11 (se recibió «${safe(month)}»)`, 2);
      const handle = await database();
      const months = await booksByMonth(handle, { integrationId, month });
      const findings = await booksFindings(handle, integrationId);
      // Findings are the answer, not a failure to give one: printed on stdout (and as --json) with exit code 1.
      // --json gives each finding's sentence in `detail`, as it always did (lib/core keeps its kind only).
      return { data: { months, findings: findings.map(wordedDifference) }, text: await booksReport(months, findings), exitCode: findings.length === 0 ? 0 : 1 };
    },
  },
};

async function booksReport(months: BooksMonth[], findings: BooksFinding[]): Promise<string> {
  const lines = months.map((row) => {
    const invoiced = `facturado ${formatQuetzales(row.invoicedCentavos)}${row.notInvoicedCentavos > 0 ? ` + sin factura (la facturación estaba apagada) ${formatQuetzales(row.notInvoicedCentavos)}` : ''}`;
    const waiting = [
      row.pending.queued > 0 ? `${count(row.pending.queued)} en cola del certificador` : '',
      row.pending.awaitingReceptor > 0 ? `${count(row.pending.awaitingReceptor)} esperan el NIT` : '',
      row.pending.toCorrect > 0 ? `${count(row.pending.toCorrect)} por corregir` : '',
    ].filter(Boolean);
    return (
      `  ${row.month} «${safe(row.integrationName)}»: recargas ${formatQuetzales(row.topUpsCentavos)} = ${invoiced}; certificado ${formatQuetzales(row.certifiedCentavos)}` +
      `${waiting.length > 0 ? ` (${waiting.join(', ')})` : ''}; anulado ${formatQuetzales(row.voidedCentavos)}; notas de crédito ${formatQuetzales(row.creditedBackCentavos)}`
    );
  });
  const names = new Map<number, string>();
  for (const id of new Set(findings.map((finding) => finding.integrationId))) names.set(id, (await findIntegration(id))?.nombre ?? '');
  const verdict =
    findings.length === 0
      ? 'Las cuentas cuadran: cada pago recibido está acreditado, cada recarga tiene su factura o el motivo de no tenerla, y cada reembolso su nota de crédito.'
      : [
          `Las cuentas no cuadran (${counted(findings.length, 'diferencia', 'diferencias')}):`,
          ...findings.map((finding) => {
            const name = names.get(finding.integrationId) ? ` «${safe(names.get(finding.integrationId))}»` : '';
            const sample = Array.isArray(finding.sample) && finding.sample.length > 0 ? `; para empezar a revisar: ${finding.sample.join(', ')}` : '';
            return `  Integración #${finding.integrationId}${name}: ${LEDGER_DIFFERENCE_LABELS[finding.kind]} (${ledgerDifferenceDetail(finding)})${finding.count > 1 ? ` ×${count(finding.count)}` : ''}${sample}`;
          }),
        ].join('\n');
  return [months.length === 0 ? 'No hay recargas en ese período.' : 'Recargas y sus facturas, por mes (hora de Guatemala):', ...lines, verdict].join('\n');
}
