// A certified invoice as a PDF (A4, Spanish): what the console and the portal download and the
// billing contact receives. It is a printed representation of the DTE, drawn from the invoice's
// stored numbers and amounts; the issuer is the one the settings name (the certified XML is the
// document SAT holds). It ends with SAT's verification link.
import type { CertifiedCreditNote, CertifiedInvoice, CertifierIdentity } from '@/lib/core/invoices/documents';
import { satVerificationUrl } from '@/lib/core/invoices/documents';
import { REVERSAL_STANDING_LABELS, TOP_UP_LINE_DESCRIPTION } from '@/lib/vocabulary/labels';
import { formatNit } from '@/lib/flows/integration-management/details-display';
import { CONTENT_WIDTH, GREY, newPdfDocument, PAGE, section, table } from '@/lib/flows/statements/pdf';
import { formatCuiGrouped } from '@/lib/platform/guatemala/identifiers';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { CF_NAME, lineAmounts, type Issuer } from '@/lib/providers/fel/document';
import { PHRASE_TEXTS, REQUIRED_PHRASES } from '@/lib/providers/fel/phrases';

/** What a document type is called on paper. */
export const DOCUMENT_TYPE_NAMES: Record<string, string> = {
  FACT: 'Factura',
  FPEQ: 'Factura pequeño contribuyente',
};

/** The receptor as the invoice prints it: its NIT or CUI, or CF. */
export function receptorIdText(invoice: Pick<CertifiedInvoice, 'receptorKind' | 'receptorId'>): string {
  if (invoice.receptorKind === 'cf') return 'CF';
  return invoice.receptorKind === 'nit' ? `NIT ${formatNit(invoice.receptorId)}` : `CUI ${formatCuiGrouped(invoice.receptorId)}`;
}

/** The phrases the issuer's affiliation requires, in words. */
export function invoicePhrases(issuer: Pick<Issuer, 'affiliation'>): string[] {
  return REQUIRED_PHRASES[issuer.affiliation].map((phrase) => PHRASE_TEXTS[`${phrase.type}.${phrase.scenario}`] ?? `Frase ${phrase.type}, escenario ${phrase.scenario}`);
}

/** The invoice's SAT verification link (FEL_VERIFICATION_URL and the invoice's facts). */
export function invoiceVerificationUrl(invoice: CertifiedInvoice, issuer: Pick<Issuer, 'nit'>, base: string): string {
  return satVerificationUrl(base, { uuid: invoice.uuid, issuerNit: issuer.nit, receptorId: invoice.receptorId, totalCentavos: invoice.totalCentavos });
}

const VOID_RED = '#9b1c1c';

/** A new A4 document, its bytes gathered as it is written, headed by the issuer and the document's title. */
async function startDocument(
  name: string,
  issuer: Issuer,
  options: { serviceName: string },
  certifiedAt: Date,
  title: string,
): Promise<{ document: PDFKit.PDFDocument; done: Promise<Buffer> }> {
  const document = await newPdfDocument({ size: 'A4', margin: PAGE.margin, info: { Title: name, Author: issuer.legalName, Creator: options.serviceName, CreationDate: certifiedAt } });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });
  drawIssuer(document, issuer);
  document.moveDown(0.8).font('Helvetica-Bold').fontSize(16).fillColor('black').text(title);
  document.font('Helvetica').fontSize(9).fillColor(GREY).text('Documento tributario electrónico (FEL) certificado ante SAT');
  return { document, done };
}

/** The receptor as the invoice names it, the same on its credit note. */
function drawReceptor(document: PDFKit.PDFDocument, invoice: CertifiedInvoice): void {
  section(document, 'Receptor');
  table(
    document,
    [170, CONTENT_WIDTH - 170],
    [
      ['Identificación', receptorIdText(invoice)],
      ['Nombre', invoice.receptorKind === 'cf' ? CF_NAME : (invoice.receptorName ?? '')],
    ],
    {},
  );
}

/** The issuer's heading, the same on an invoice and a credit note. */
function drawIssuer(document: PDFKit.PDFDocument, issuer: Issuer): void {
  const { address } = issuer;
  document.font('Helvetica-Bold').fontSize(12).fillColor('black').text(issuer.commercialName);
  document.font('Helvetica').fontSize(9).fillColor(GREY);
  document.text(issuer.legalName);
  document.text(`NIT del emisor: ${formatNit(issuer.nit)}`);
  document.text(`${address.line}, ${address.municipality}, ${address.department}, código postal ${address.postalCode}`);
  document.text(`Establecimiento ${issuer.establishmentCode} · Afiliación al IVA: ${issuer.affiliation}`);
}

/**
 * What became of the invoice, under its title: a void in large red letters (a printed copy of a
 * voided invoice must not pass for a valid one), a credit note with its numbers, or either under way.
 */
function drawReversal(document: PDFKit.PDFDocument, invoice: CertifiedInvoice): void {
  const reversal = invoice.reversal;
  if (!reversal) return;
  const on = reversal.doneAt ? ` el ${formatDateTime(reversal.doneAt)}` : '';
  document.moveDown(0.5);
  if (reversal.standing === 'corrected') {
    // Reissued to a corrected receptor: this copy must not pass for the valid one either.
    if (reversal.voided) document.font('Helvetica-Bold').fontSize(28).fillColor(VOID_RED).text('ANULADA', PAGE.margin);
    else if (reversal.creditNote) document.font('Helvetica-Bold').fontSize(12).fillColor(VOID_RED).text(`Nota de crédito ${reversal.creditNote.serie}-${reversal.creditNote.numero}`, PAGE.margin);
    const how = reversal.voided ? `Anulada ante SAT${on}` : `Revertida por su total por una nota de crédito certificada ante SAT${on}${reversal.creditNote ? ` (UUID ${reversal.creditNote.uuid})` : ''}`;
    document.font('Helvetica').fontSize(10).text(`${how} al corregir su receptor: otra factura por la misma recarga la reemplaza.`, PAGE.margin);
  } else if (reversal.standing === 'voided') {
    document.font('Helvetica-Bold').fontSize(28).fillColor(VOID_RED).text('ANULADA', PAGE.margin);
    document.font('Helvetica').fontSize(10).text(`Este documento fue anulado ante SAT${on}: ya no tiene validez fiscal.`, PAGE.margin);
  } else if (reversal.standing === 'credited' && reversal.creditNote) {
    const { serie, numero, uuid } = reversal.creditNote;
    document.font('Helvetica-Bold').fontSize(12).fillColor(VOID_RED).text(`Nota de crédito ${serie}-${numero}`, PAGE.margin);
    document.font('Helvetica').fontSize(10).text(`La revierte por su total, certificada ante SAT${on} (UUID ${uuid}).`, PAGE.margin);
  } else {
    document.font('Helvetica-Bold').fontSize(12).fillColor(VOID_RED).text(`${REVERSAL_STANDING_LABELS[reversal.standing]} ante SAT`, PAGE.margin);
  }
  document.fillColor('black');
}

export async function renderInvoicePdf(invoice: CertifiedInvoice, issuer: Issuer, options: { serviceName: string; verificationBaseUrl: string }): Promise<Buffer> {
  const name = `${DOCUMENT_TYPE_NAMES[invoice.documentType] ?? invoice.documentType} ${invoice.serie}-${invoice.numero}`;
  const { document, done } = await startDocument(name, issuer, options, invoice.certifiedAt, `${DOCUMENT_TYPE_NAMES[invoice.documentType] ?? invoice.documentType} electrónica`);
  drawReversal(document, invoice);

  section(document, 'Documento');
  table(
    document,
    [170, CONTENT_WIDTH - 170],
    [
      ['Serie', invoice.serie],
      ['Número', invoice.numero],
      ['Número de autorización (UUID)', invoice.uuid],
      ['Fecha de emisión', formatDateTime(invoice.emittedAt)],
      ['Fecha de certificación', formatDateTime(invoice.certifiedAt)],
      ['Moneda', 'GTQ (quetzales)'],
    ],
    {},
  );

  drawReceptor(document, invoice);

  section(document, 'Detalle');
  const withIva = invoice.documentType === 'FACT';
  table(
    document,
    [40, 45, CONTENT_WIDTH - 255, 85, 85],
    [
      ['Cant.', 'Tipo', 'Descripción', 'Precio unitario', 'Total'],
      ['1', 'Servicio', TOP_UP_LINE_DESCRIPTION, formatQuetzales(invoice.totalCentavos), formatQuetzales(invoice.totalCentavos)],
    ],
    { header: true, alignRight: [0, 3, 4] },
  );
  document.moveDown(0.5);
  table(
    document,
    [CONTENT_WIDTH - 120, 120],
    [
      ...(withIva
        ? [
            ['Subtotal (monto gravable)', formatQuetzales(invoice.taxableCentavos)],
            ['IVA (12 %)', formatQuetzales(invoice.taxCentavos)],
          ]
        : []),
      ['Total', formatQuetzales(invoice.totalCentavos)],
    ],
    { boldLastRow: true, alignRight: [0, 1] },
  );

  section(document, 'Frases');
  document.font('Helvetica').fontSize(10);
  for (const phrase of invoicePhrases(issuer)) document.text(phrase, PAGE.margin);

  drawCertification(document, { uuid: invoice.uuid, certifierIdentity: invoice.certifierIdentity, totalCentavos: invoice.totalCentavos }, invoice, issuer, options.verificationBaseUrl);
  document.end();
  return done;
}

/** The certifier as SAT names it (legal name and NIT, from the certified XML), or a sentence saying where to read it. */
export function certifierLine(identity: CertifierIdentity | null): string {
  return identity ? `Certificador: ${identity.name}, NIT ${formatNit(identity.nit)}` : 'Certificador: consulte el XML certificado (no se conserva una copia)';
}

/** The certification's block: who certified it and SAT's verification link with the document's facts. */
function drawCertification(
  document: PDFKit.PDFDocument,
  certified: { uuid: string; certifierIdentity: CertifierIdentity | null; totalCentavos: number },
  invoice: CertifiedInvoice,
  issuer: Issuer,
  verificationBaseUrl: string,
): void {
  section(document, 'Certificación');
  document.font('Helvetica').fontSize(10).text(certifierLine(certified.certifierIdentity), PAGE.margin);
  document.moveDown(0.3).text('Verifique este documento en el portal de SAT:', PAGE.margin);
  const link = satVerificationUrl(verificationBaseUrl, { uuid: certified.uuid, issuerNit: issuer.nit, receptorId: invoice.receptorId, totalCentavos: certified.totalCentavos });
  document.fontSize(8).fillColor('#1a4f8b').text(link, PAGE.margin, undefined, { link, width: CONTENT_WIDTH });
  document.fillColor(GREY).fontSize(8).moveDown(0.3);
  document.text(
    `Si el enlace no abre la consulta, ingrese en esa página: número de autorización ${certified.uuid}, NIT del emisor ${issuer.nit.replace(/-/g, '')}, ` +
      `receptor ${invoice.receptorKind === 'cf' ? 'CF' : invoice.receptorId} y monto ${(certified.totalCentavos / 100).toFixed(2)}.`,
    PAGE.margin,
    undefined,
    { width: CONTENT_WIDTH },
  );
}

/**
 * A certified credit note (NCRE) as a PDF: the issuer, SAT's numbers and time (Guatemala), the
 * invoice it references, the receptor, what it reverts (with IVA apart on a FACT's note), why, and
 * who certified it, with its verification link.
 */
export async function renderCreditNotePdf(note: CertifiedCreditNote, issuer: Issuer, options: { serviceName: string; verificationBaseUrl: string }): Promise<Buffer> {
  const { invoice } = note;
  const name = `Nota de crédito ${note.serie}-${note.numero}`;
  const { document, done } = await startDocument(name, issuer, options, note.certifiedAt, 'Nota de crédito electrónica');

  section(document, 'Documento');
  table(
    document,
    [170, CONTENT_WIDTH - 170],
    [
      ['Serie', note.serie],
      ['Número', note.numero],
      ['Número de autorización (UUID)', note.uuid],
      ['Fecha de certificación', formatDateTime(note.certifiedAt)],
      ['Moneda', 'GTQ (quetzales)'],
    ],
    {},
  );
  section(document, 'Documento que modifica');
  table(
    document,
    [170, CONTENT_WIDTH - 170],
    [
      [DOCUMENT_TYPE_NAMES[invoice.documentType] ?? invoice.documentType, `${invoice.serie}-${invoice.numero}`],
      ['Número de autorización (UUID)', invoice.uuid],
      ['Fecha de emisión', formatDateTime(invoice.emittedAt)],
      ['Total de la factura', formatQuetzales(invoice.totalCentavos)],
    ],
    {},
  );
  drawReceptor(document, invoice);
  section(document, 'Detalle');
  const amounts = lineAmounts({ quantity: 1, unitPriceCentavos: note.amountCentavos }, invoice.documentType === 'FACT');
  table(
    document,
    [CONTENT_WIDTH - 120, 120],
    [
      ...(invoice.documentType === 'FACT'
        ? [
            ['Monto gravable', formatQuetzales(amounts.taxableCentavos)],
            ['IVA (12 %)', formatQuetzales(amounts.taxCentavos)],
          ]
        : []),
      ['Total acreditado', formatQuetzales(note.amountCentavos)],
    ],
    { boldLastRow: true, alignRight: [0, 1] },
  );
  document.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('black').text(`Motivo: ${note.reason}`, PAGE.margin, undefined, { width: CONTENT_WIDTH });
  drawCertification(document, { uuid: note.uuid, certifierIdentity: note.certifierIdentity, totalCentavos: note.amountCentavos }, invoice, issuer, options.verificationBaseUrl);
  document.end();
  return done;
}
