// Invoices: listed, one with its documents, and «Corregir receptor».
import type { InvoiceReversal, InvoiceState } from '@/db/schema';
import { requestReceptorCorrection } from '@/lib/core/billing/invoice-reversals';
import { REVERSAL_MESSAGES, wordedReversal } from '@/lib/presentation/invoice-messages';
import { listInvoices, showInvoice, type ListedInvoice } from '@/lib/flows/invoicing/listing';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { INVOICE_STANDING_LABELS, INVOICE_STATES, invoiceStanding, receptorText } from '@/lib/presentation/invoice-labels';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg, required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';

export const invoiceCommands: Commands = {
  'invoices:list': {
    usage: {
      args: ['[--integration id|nombre] [--estado awaiting_receptor|pending|indeterminate|certified|to_correct] [--limit N]'],
      description: [
        'las facturas, la más reciente primero, con su estado, sus números, su',
        'receptor y sus anulaciones o notas de crédito',
      ],
    },
    async run(_args, options) {
      const integrationId = typeof options.integration === 'string' ? (await integrationByArg([options.integration])).id : undefined;
      const state = typeof options.estado === 'string' ? options.estado : undefined;
      if (state !== undefined && !(INVOICE_STATES as string[]).includes(state)) {
        throw new CliError(`--estado admite ${INVOICE_STATES.join(', ')} (se recibió «${safe(state)}»)`, 2);
      }
      const limit = typeof options.limit === 'string' ? Number(options.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new CliError('--limit es un número entero de 1 a 1000', 2);
      const listed = await listInvoices({ integrationId, state: state as InvoiceState | undefined, limit });
      if (listed.length === 0) return { data: [], text: 'No hay facturas con esos filtros.' };
      return { data: listed.map(invoiceData), text: listed.map(describeInvoice).join('\n') };
    },
  },
  'invoices:show': {
    usage: {
      args: ['<número>'],
      description: ['una factura y sus documentos'],
    },
    async run(args) {
      const typed = required(args, 0, 'el número de la factura (invoices:list los muestra)');
      const id = /^[1-9]\d{0,9}$/.test(typed) ? Number(typed) : NaN;
      const found = Number.isSafeInteger(id) ? await showInvoice(id) : undefined;
      if (!found) throw new CliError(`no existe la factura «${safe(typed)}»`);
      return { data: invoiceData(found), text: describeInvoice(found) };
    },
  },
  'invoices:correct': {
    usage: {
      args: ['<número> --motivo "..."'],
      description: [
        '«Corregir receptor»: la anula (o emite su nota de crédito, pasado el plazo)',
        'y emite otra por la misma recarga al receptor que la integración tiene hoy;',
        'el saldo no cambia',
      ],
    },
    async run(args, options) {
      // «Corregir receptor» from a terminal: the same request as the console's, written once.
      const typed = required(args, 0, 'el número de la factura (invoices:list los muestra)');
      const id = /^[1-9]\d{0,9}$/.test(typed) ? Number(typed) : NaN;
      if (!Number.isSafeInteger(id)) throw new CliError(`no existe la factura «${safe(typed)}»`);
      if (typeof options.motivo !== 'string' || options.motivo.trim() === '') {
        throw new CliError('falta el motivo: agregue --motivo "NIT equivocado", por ejemplo (lo recibe SAT con la anulación o la nota de crédito)');
      }
      const { reversal, created } = unwrap(wordedReversal(await requestReceptorCorrection(CLI_ACTOR, id, options.motivo)));
      const receptor = receptorText({ receptorKind: reversal.correctionReceptorKind!, receptorId: reversal.correctionReceptorId!, receptorName: reversal.correctionReceptorName });
      return {
        data: { invoiceId: id, created, reversalId: reversal.id, kind: reversal.kind, state: reversal.state, receptorKind: reversal.correctionReceptorKind, replacementInvoiceId: reversal.replacementInvoiceId },
        text: created ? REVERSAL_MESSAGES.correctionRequested(reversal.kind, receptor) : REVERSAL_MESSAGES.correctionAlreadyRequested,
      };
    },
  },
};

/** An invoice as --json gives it: its row without the certified XML, and its documents. */
function invoiceData({ invoice, integrationName, documents }: ListedInvoice) {
  const withoutInternals = <T extends { certifiedXml: unknown; leaseHolder: unknown; leaseUntil: unknown }>(row: T) =>
    Object.fromEntries(Object.entries(row).filter(([key]) => !['certifiedXml', 'leaseHolder', 'leaseUntil'].includes(key)));
  return { ...withoutInternals(invoice), integrationName, documents: documents.map(withoutInternals) };
}

/** An invoice in a few lines, in words: numbers, state, receptor, amounts and its documents. */
function describeInvoice({ invoice, integrationName, documents }: ListedInvoice): string {
  const standing = invoiceStanding(invoice);
  const numbers = invoice.serie && invoice.numero ? `${invoice.serie}-${invoice.numero} UUID ${invoice.uuid}` : 'sin número todavía';
  const lines = [
    `Factura #${invoice.id} «${safe(integrationName)}» ${invoice.documentType} ${numbers}: ${INVOICE_STANDING_LABELS[standing]}, ${formatQuetzales(invoice.totalCentavos)}` +
      `, emitida el ${formatDateTime(invoice.emittedAt)}${invoice.certifiedAt ? `, certificada el ${formatDateTime(invoice.certifiedAt)}` : ''}; receptor ${safe(receptorText(invoice))}; recarga #${invoice.ledgerEntryId}`,
  ];
  if (invoice.state === 'to_correct' && invoice.lastErrorMessage) lines.push(`  El certificador dijo: ${safe(invoice.lastErrorMessage)}`);
  for (const document of documents) {
    const kind = document.kind === 'void' ? 'Anulación' : 'Nota de crédito';
    const noteNumbers = document.serie && document.numero ? ` ${document.serie}-${document.numero} UUID ${document.uuid}` : '';
    lines.push(`  ${kind} #${document.id}${noteNumbers}: ${REVERSAL_STATE_WORDS[document.state]}, ${formatQuetzales(document.amountCentavos)} (${safe(document.reason)})`);
  }
  return lines.join('\n');
}

const REVERSAL_STATE_WORDS: Record<InvoiceReversal['state'], string> = {
  pending: 'en trámite',
  indeterminate: 'en trámite (por confirmar con el certificador)',
  done: 'certificada',
  refused: 'rechazada (el monto volvió al saldo)',
  to_correct: 'por corregir',
};
