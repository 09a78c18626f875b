// A list of identifiers uploaded as a CSV file (the portal's "Nuevo lote"): what a
// spreadsheet or an ERP exports. One identifier a line, or the first column of each line; a header
// line is tolerated; blank lines are skipped. What comes out goes to planItems and submitJob as the
// API's JSON list does, so both set aside and charge alike.
import { BULK_UPLOAD_MESSAGES, MAX_BULK_IDENTIFIERS, MAX_BULK_UPLOAD_BYTES } from './limits';

export { BULK_UPLOAD_MESSAGES, MAX_BULK_UPLOAD_BYTES };

export type UploadProblem = keyof typeof BULK_UPLOAD_MESSAGES;

/** The first cell of a CSV line: up to the first comma, semicolon or tab (quotes removed). */
function firstCell(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('"')) {
    const closing = trimmed.indexOf('"', 1);
    return (closing === -1 ? trimmed.slice(1) : trimmed.slice(1, closing)).trim();
  }
  return trimmed.split(/[,;\t]/, 1)[0]!.trim();
}

/**
 * The identifiers of an uploaded file, in the order written. A first line whose first cell has no
 * digit is a header ("nit", "CUI", "Identificador"): no NIT or CUI lacks digits. A line with an
 * empty first cell is skipped, as a blank line is.
 */
export function identifiersOfUpload(bytes: Uint8Array): { ok: true; identifiers: string[] } | { ok: false; problem: UploadProblem } {
  if (bytes.byteLength > MAX_BULK_UPLOAD_BYTES) return { ok: false, problem: 'tooLarge' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, problem: 'notText' };
  }
  if (text.includes('\u0000')) return { ok: false, problem: 'notText' };
  const cells = text
    .split(/\r\n|\n|\r/)
    .map(firstCell)
    .filter((cell) => cell !== '');
  if (cells.length > 0 && !/[0-9]/.test(cells[0]!)) cells.shift();
  if (cells.length === 0) return { ok: false, problem: 'empty' };
  if (cells.length > MAX_BULK_IDENTIFIERS) return { ok: false, problem: 'tooMany' };
  return { ok: true, identifiers: cells };
}
