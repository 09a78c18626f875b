// Reads back the QR code a PDF draws as squares (lib/flows/constancias/pdf.ts): the page's content
// streams inflated, their `x y w h re` squares of the code's module size placed on its grid. Tests
// compare the grid with the code of the address they expect (the qrcode package's own matrix).
import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';

function contentStreams(pdf: Buffer): string[] {
  const texts: string[] = [];
  let at = 0;
  for (;;) {
    const start = pdf.indexOf('stream', at);
    if (start < 0) return texts;
    const bodyStart = pdf[start + 6] === 0x0d ? start + 8 : start + 7;
    const end = pdf.indexOf('endstream', bodyStart);
    if (end < 0) return texts;
    const body = pdf.subarray(bodyStart, end);
    try {
      texts.push(inflateSync(body).toString('latin1'));
    } catch {
      texts.push(body.toString('latin1'));
    }
    at = end + 9;
  }
}

/** The QR code's modules as drawn in the PDF (true: dark), or null when it draws none. */
export function qrModulesOfPdf(pdf: Buffer): boolean[][] | null {
  const squares: Array<{ x: number; y: number; size: number }> = [];
  for (const text of contentStreams(pdf)) {
    for (const match of text.matchAll(/(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re/g)) {
      const [x, y, w, h] = match.slice(1, 5).map(Number) as [number, number, number, number];
      if (Math.abs(w - h) < 1e-3) squares.push({ x, y, size: w });
    }
  }
  if (squares.length === 0) return null;
  const counts = new Map<string, number>();
  for (const square of squares) counts.set(square.size.toFixed(3), (counts.get(square.size.toFixed(3)) ?? 0) + 1);
  const cell = Number([...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
  const modules = squares.filter((square) => Math.abs(square.size - cell) < 1e-3);
  const left = Math.min(...modules.map((square) => square.x));
  const top = Math.min(...modules.map((square) => square.y));
  const placed = modules.map((square) => ({ column: Math.round((square.x - left) / cell), row: Math.round((square.y - top) / cell) }));
  const size = Math.max(...placed.map((square) => Math.max(square.column, square.row))) + 1;
  const grid = Array.from({ length: size }, () => Array.from({ length: size }, () => false));
  for (const { row, column } of placed) grid[row]![column] = true;
  return grid;
}

/** The modules of the QR code of `text`, as lib/flows/constancias/pdf.ts makes it. */
export function qrModulesOf(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) => Array.from({ length: modules.size }, (_, column) => Boolean(modules.get(row, column))));
}
