// A list of identifiers uploaded as a CSV file (the portal's "Nuevo lote", issue 35): what a
// spreadsheet or an ERP exports. One identifier a line, or the first column of each line; a header
// line is tolerated; blank lines are skipped. What comes out goes to planItems and submitJob as the
// API's JSON list does, so both set aside and charge alike.
import { MAX_BULK_IDENTIFIERS } from './identifiers';

/**
 * The largest file taken. Pages' forms are refused by proxy.ts over 1 MiB (FORM_BODY_LIMIT_BYTES),
 * multipart headers and the form's other fields included: 1,000,000 bytes leaves them room, and
 * 10,000 identifiers with a few columns beside them fit several times over.
 */
export const MAX_BULK_UPLOAD_BYTES = 1_000_000;

export const BULK_UPLOAD_MESSAGES = {
  tooLarge: `El archivo pesa más de ${(MAX_BULK_UPLOAD_BYTES / 1_000_000).toLocaleString('es-GT')} MB. Divídelo en varios lotes.`,
  empty: 'El archivo no tiene ningún identificador. Pon un NIT o CUI por línea (o en la primera columna).',
  tooMany: `El archivo tiene más de ${MAX_BULK_IDENTIFIERS.toLocaleString('es-GT')} identificadores. Divídelo en varios lotes.`,
  notText: 'El archivo no es un CSV de texto (UTF-8). Expórtalo como CSV desde tu hoja de cálculo o tu sistema.',
} as const;

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
