import zlib from 'node:zlib';

/**
 * The lines of text a PDF made with pdfkit shows, in drawing order: each content stream inflated,
 * each TJ array's hex strings joined (pdfkit splits a line where it kerns) and read as WinAnsi,
 * which is latin1 for Spanish. Enough to assert what a reader of our PDFs sees; not a general parser.
 */
export function pdfTextLines(pdf: Buffer): string[] {
  return pdfPageTextLines(pdf).flat();
}

/**
 * The same lines page by page: pdfkit writes one compressed content stream per page, in page
 * order (also with bufferPages, where a page drawn on again keeps its one stream).
 */
export function pdfPageTextLines(pdf: Buffer): string[][] {
  const pages: string[][] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (const [, body] of pdf.toString('latin1').matchAll(streams)) {
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(body!, 'latin1')).toString('latin1');
    } catch {
      continue; // a font or an image, not page content
    }
    const lines: string[] = [];
    for (const [, array] of content.matchAll(/\[((?:<[0-9a-f]*>\s*-?[\d.]*\s*)+)\]\s*TJ/g)) {
      const hex = [...array!.matchAll(/<([0-9a-f]*)>/g)].map((part) => part[1]).join('');
      lines.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
    pages.push(lines);
  }
  return pages;
}
