import QRCode from 'qrcode';
import { keysAddress, payloadOf, verificationAddress, type ConstanciaPayload } from '@/lib/core/constancias/payload';
import type { StoredConstancia } from '@/lib/core/constancias/read';
import { CONTENT_WIDTH, GREY, newPdfDocument, PAGE, section } from '@/lib/flows/statements/pdf';
import { answerWords, CONSTANCIA_SCOPE, CONSTANCIA_TITLE, constanciaFacts, flattenedFields } from './constancia-words';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

// The «Constancia de consulta» for the client file: A4, Spanish, Guatemala's time, the answer's
// fields in full, the signed receipt itself (so the paper alone can be verified), and a QR code to
// the public verification page. The QR code is drawn as squares, not an image: crisp at any zoom.

/** The QR code's side on the page, in points (about 4 cm). */
const QR_SIZE = 115;

export interface ConstanciaDocument {
  payload: ConstanciaPayload;
  /** The compact JWS, printed whole at the end. */
  receipt: string;
  /** Where the QR code leads: /verificar for this receipt. */
  verificationUrl: string;
  /** /.well-known/jwks.json of this deployment. */
  keysUrl: string;
}

export function constanciaFileName(payload: ConstanciaPayload): string {
  return `constancia-${payload.id}.pdf`;
}

export async function constanciaPdf(content: ConstanciaDocument): Promise<Buffer> {
  const { payload } = content;
  const document = await newPdfDocument({
    size: 'A4',
    margin: PAGE.margin,
    info: { Title: `${CONSTANCIA_TITLE} ${payload.id}`, Author: payload.emisor.servicio, Creator: payload.emisor.servicio, CreationDate: new Date(payload.emitidaEn) },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });

  const top = document.y;
  drawQr(document, content.verificationUrl, PAGE.margin + CONTENT_WIDTH - QR_SIZE, top);
  const textWidth = CONTENT_WIDTH - QR_SIZE - 15;
  document.font('Helvetica').fontSize(9).fillColor(GREY).text(`${payload.emisor.servicio}${payload.emisor.nit ? ` · NIT ${payload.emisor.nit}` : ''}`, PAGE.margin, top, { width: textWidth });
  document.text(payload.emisor.url, { width: textWidth });
  document.moveDown(0.5).font('Helvetica-Bold').fontSize(18).fillColor('black').text(CONSTANCIA_TITLE, { width: textWidth });
  document.font('Helvetica').fontSize(10).text(answerWords(payload.respuesta.estado), { width: textWidth });
  document.fontSize(8).fillColor(GREY).text(`Verifíquela con el código QR o en ${content.verificationUrl}`, { width: textWidth });
  document.y = Math.max(document.y, top + QR_SIZE + 5);

  section(document, 'Datos de la constancia');
  rows(document, constanciaFacts(payload));

  section(document, 'Lo que se consultó');
  rows(document, flattenedFields(payload.solicitud.cuerpo));

  section(document, 'Lo que respondió el registro');
  const body = payload.respuesta.cuerpo;
  const data = typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : body;
  rows(document, flattenedFields(data));
  document.moveDown(0.3).fontSize(8).fillColor(GREY).text(`SHA-256 del cuerpo tal como se entregó: ${payload.respuesta.cuerpoSha256}`, PAGE.margin, undefined, { width: CONTENT_WIDTH });

  section(document, 'Cómo verificarla');
  document.font('Helvetica').fontSize(9).fillColor('black').text(
    `La constancia es el texto firmado de abajo (un JWS con Ed25519 sobre JSON canónico). Cualquiera puede verificarla sin este servicio con las claves públicas de ${content.keysUrl}, o pegándola en ${content.verificationUrl.split('?')[0]}. ${CONSTANCIA_SCOPE}`,
    PAGE.margin,
    undefined,
    { width: CONTENT_WIDTH },
  );
  document.moveDown(0.5).font('Courier').fontSize(6).fillColor('black').text(content.receipt, { width: CONTENT_WIDTH, lineBreak: true });
  document.moveDown(0.5).font('Helvetica').fontSize(7).fillColor(GREY).text(`Documento generado el ${formatDateTime(new Date())} (hora de Guatemala).`, { width: CONTENT_WIDTH });
  document.end();
  return done;
}

function rows(document: PDFKit.PDFDocument, lines: Array<[string, string]>): void {
  const labelWidth = 150;
  for (const [label, value] of lines) {
    const y = document.y;
    document.font('Helvetica-Bold').fontSize(9).fillColor('black').text(label, PAGE.margin, y, { width: labelWidth - 10 });
    const afterLabel = document.y;
    document.font('Helvetica').text(value, PAGE.margin + labelWidth, y, { width: CONTENT_WIDTH - labelWidth });
    document.y = Math.max(afterLabel, document.y) + 2;
  }
}

/** The QR code's dark modules as filled squares, with a quiet zone of four modules. */
function drawQr(document: PDFKit.PDFDocument, text: string, x: number, y: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = QR_SIZE / (modules.size + 8);
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) document.rect(x + (column + 4) * cell, y + (row + 4) * cell, cell, cell);
    }
  }
  document.fillColor('black').fill();
}

/** A receipt this service holds as its PDF; null once its text is gone (the records' retention passed). */
export async function constanciaPdfOf(stored: StoredConstancia): Promise<{ file: Buffer; fileName: string } | null> {
  if (!stored.receipt) return null;
  const payload = payloadOf(stored.receipt);
  const file = await constanciaPdf({ payload, receipt: stored.receipt, verificationUrl: verificationAddress(stored.id), keysUrl: keysAddress() });
  return { file, fileName: constanciaFileName(payload) };
}
