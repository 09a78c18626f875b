import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { dayRangeText, dayText, periodText } from '@/lib/platform/time/months';
import { integratorIdentityLines } from '@/lib/flows/integration-management/details-display';
import type { PeriodFigures } from './figures';
import { configuredIssuer, issuerLines, type StatementIssuer } from './issuer';
import { invoicesTable, statementTables, type StatementTable } from './layout';
import type { StatementPreview } from './preview';
import type { Statement } from './statements';
import type { TopUpInvoice } from './invoices';
import { pageLabel, PREVIEW_CLOSING_NOTE, PREVIEW_MARK, previewIdentification } from './texts';

export const PAGE = { margin: 50, width: 595.28 };
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
export const GREY = '#555555';
const MARK_RED = '#9b1c1c';

/**
 * The statement as a PDF (A4, Spanish, Guatemalan formats), drawn from its stored figures: the
 * same statement always reads the same. pdfkit's built-in Helvetica covers Spanish (WinAnsi).
 * It names its issuer as stored when it was issued; one issued before statements stored theirs
 * names the issuer the settings name now (the same operator). `invoices`: the FEL invoices of the
 * month's top-ups (lib/flows/statements/invoices.ts), listed after its figures.
 */
export async function renderStatementPdf(statement: Statement, serviceName: string, invoices: readonly TopUpInvoice[]): Promise<Buffer> {
  const { figures } = statement;
  return drawStatementPdf({
    invoices,
    title: `Estado de cuenta ${figures.integration.nombre} ${statement.month}`,
    serviceName,
    createdAt: statement.createdAt,
    heading: 'Estado de cuenta',
    figures,
    issuer: figures.issuer ?? configuredIssuer(),
    period: periodText(statement.month),
    identification: `Estado n.º ${statement.number} de ${figures.integration.nombre}, emitido el ${formatDateTime(statement.createdAt)}. Montos en quetzales (GTQ).`,
    closingNote:
      'Este estado se emitió con las cifras del libro mayor y de los registros de consultas al cierre del periodo y no cambia después: ' +
      'cualquier corrección posterior aparece como un ajuste en el mes en que se registra.',
  });
}

/**
 * A preview as a PDF: the same pages as a statement's, from figures computed the same way, marked
 * "Vista previa" on every page and with no number; it says when it was computed.
 */
export async function renderStatementPreviewPdf(preview: StatementPreview, serviceName: string): Promise<Buffer> {
  const { figures, range } = preview;
  return drawStatementPdf({
    invoices: preview.invoices,
    title: `Vista previa del estado de cuenta ${figures.integration.nombre} ${dayText(range.desde)} a ${dayText(range.hasta)}`,
    serviceName,
    createdAt: preview.computedAt,
    heading: 'Vista previa del estado de cuenta',
    figures,
    issuer: preview.issuer,
    period: dayRangeText(range.desde, range.hasta),
    identification: previewIdentification(formatDateTime(preview.computedAt)),
    closingNote: PREVIEW_CLOSING_NOTE,
    mark: PREVIEW_MARK,
  });
}

/** What the pages of a statement say around its figures. */
interface StatementPdfContent {
  title: string;
  serviceName: string;
  createdAt: Date;
  heading: string;
  figures: PeriodFigures;
  issuer: StatementIssuer;
  /** "del 1 al 31 de mayo de 2026". */
  period: string;
  /** The line under the period: the statement's number and date of issue. */
  identification: string;
  closingNote: string;
  /** Printed on every page (a preview's): what the document is not. */
  mark?: string;
  /** The invoices of its top-ups (an issued statement's, or a preview's). */
  invoices?: readonly TopUpInvoice[];
}

async function drawStatementPdf(content: StatementPdfContent): Promise<Buffer> {
  const { figures } = content;
  const document = await newPdfDocument({
    size: 'A4',
    margin: PAGE.margin,
    // Kept until the end, when each page gets "Página N de M" (M known only then).
    bufferPages: true,
    info: { Title: content.title, Author: content.issuer.name, Creator: content.serviceName, CreationDate: content.createdAt },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });

  document.font('Helvetica').fontSize(9).fillColor(GREY).text(content.serviceName);
  for (const line of issuerLines(content.issuer)) document.text(line);
  document.moveDown(0.5).font('Helvetica-Bold').fontSize(18).fillColor('black').text(content.heading);
  document.font('Helvetica').fontSize(11).text(`Integración: ${figures.integration.nombre}`);
  for (const line of integratorIdentityLines(figures.integration)) document.text(line);
  document.text(`Periodo: ${content.period} (hora de Guatemala)`);
  // Personal data is looked up only for the purpose the integrator declared (Decreto 57-2008, art. 30).
  if (figures.integration.purpose !== undefined) {
    document.text(`Finalidad declarada del uso de los datos: ${figures.integration.purpose || 'no declarada'}`);
  }
  document.fontSize(9).fillColor(GREY).text(content.identification);

  drawFigures(document, figures);
  if (content.invoices) drawTable(document, invoicesTable(content.invoices));

  document.moveDown(1.5).fontSize(8).fillColor(GREY).text(content.closingNote);
  finishPages(document, content.mark);
  document.end();
  return done;
}

/** The PDF's column widths of each table (lib/flows/statements/layout.ts), in points. */
const COLUMN_WIDTHS: Record<StatementTable['id'], number[]> = {
  summary: [320, CONTENT_WIDTH - 320],
  charges: [200, 95, 100, CONTENT_WIDTH - 395],
  movements: [110, 70, 235, CONTENT_WIDTH - 415],
  queries: [150, 85, 85, 85, CONTENT_WIDTH - 405],
  // Serie-número fits on one line (an 8-character serie and a 10-digit número), a void or credit note under it.
  invoices: [60, 125, CONTENT_WIDTH - 250, 65],
};

function drawFigures(document: PDFKit.PDFDocument, figures: StatementPdfContent['figures']): void {
  for (const entry of statementTables(figures)) drawTable(document, entry);
}

function drawTable(document: PDFKit.PDFDocument, entry: StatementTable): void {
  section(document, entry.title);
  if (entry.rows.length === 0 && !entry.total) {
    document.font('Helvetica').fontSize(10).text(entry.empty);
    return;
  }
  const rows = [...(entry.header ? [entry.header] : []), ...entry.rows, ...(entry.total ? [entry.total] : [])];
  table(document, COLUMN_WIDTHS[entry.id], rows, { header: Boolean(entry.header), boldLastRow: Boolean(entry.total), alignRight: entry.numeric });
  if (entry.note) document.moveDown(0.3).fontSize(8).fillColor(GREY).text(entry.note);
}

/**
 * "Página N de M" at the foot of every page of a document made with bufferPages, and the mark, if
 * any, at its head and across it.
 */
function finishPages(document: PDFKit.PDFDocument, mark: string | undefined): void {
  const { start, count } = document.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    document.switchToPage(index);
    if (mark) drawMark(document, mark);
    // The foot lies in the bottom margin, where pdfkit would otherwise start a new page.
    const bottomMargin = document.page.margins.bottom;
    document.page.margins.bottom = 0;
    document
      .font('Helvetica')
      .fontSize(8)
      .fillColor(GREY)
      .text(pageLabel(index - start + 1, count), PAGE.margin, document.page.height - PAGE.margin / 2 - 4, { width: CONTENT_WIDTH, align: 'center', lineBreak: false });
    document.page.margins.bottom = bottomMargin;
  }
}

/** The mark in the top margin, and a faint "VISTA PREVIA" across the page: no page reads as a statement. */
function drawMark(document: PDFKit.PDFDocument, mark: string): void {
  document.font('Helvetica-Bold').fontSize(10).fillColor(MARK_RED).text(mark, PAGE.margin, PAGE.margin / 2 - 5, { width: CONTENT_WIDTH, align: 'center', lineBreak: false });
  const { width, height } = document.page;
  document.save();
  document.rotate(-35, { origin: [width / 2, height / 2] });
  document
    .font('Helvetica-Bold')
    .fontSize(72)
    .fillColor(MARK_RED)
    .fillOpacity(0.08)
    .text('VISTA PREVIA', 0, height / 2 - 36, { width, align: 'center', lineBreak: false });
  document.restore();
  document.fillOpacity(1);
}

/**
 * A new pdfkit document. pdfkit is loaded on the first PDF rather than with this module: most
 * processes that import the statements never draw one, and it costs some 180 ms to load (the CLI
 * starts in well under a second).
 */
export async function newPdfDocument(options: PDFKit.PDFDocumentOptions): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  return new PDFDocument(options);
}

export function section(document: PDFKit.PDFDocument, title: string): void {
  document.moveDown(1.2).font('Helvetica-Bold').fontSize(12).fillColor('black').text(title, PAGE.margin);
  document.moveDown(0.3);
}

export function table(
  document: PDFKit.PDFDocument,
  widths: number[],
  rows: string[][],
  options: { header?: boolean; boldLastRow?: boolean; alignRight?: number[] },
): void {
  document.fontSize(10).fillColor('black');
  rows.forEach((row, rowIndex) => {
    const bold = (options.header && rowIndex === 0) || (options.boldLastRow && rowIndex === rows.length - 1);
    document.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    const heights = row.map((cell, column) => document.heightOfString(cell, { width: widths[column]! - 6 }));
    const height = Math.max(...heights) + 6;
    if (document.y + height > document.page.height - PAGE.margin) document.addPage();
    const top = document.y;
    let left = PAGE.margin;
    row.forEach((cell, column) => {
      document.text(cell, left + 3, top + 3, { width: widths[column]! - 6, align: options.alignRight?.includes(column) ? 'right' : 'left' });
      left += widths[column]!;
    });
    const bottom = top + height;
    if (bold || rowIndex === rows.length - 1) {
      document.moveTo(PAGE.margin, bottom).lineTo(PAGE.margin + widths.reduce((sum, width) => sum + width, 0), bottom).lineWidth(0.5).strokeColor('#999999').stroke();
    }
    document.x = PAGE.margin;
    document.y = bottom;
  });
}
