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
  // Each stream taken by its declared /Length: its compressed bytes may end in a carriage return,
  // which a search for the "endstream" that follows would take as part of the line break.
  const streamHeads = /\/Length (\d+)\b[^>]*>>\s*stream\r?\n/g;
  for (const head of pdf.toString('latin1').matchAll(streamHeads)) {
    const start = head.index + head[0].length;
    let content: string;
    try {
      content = zlib.inflateSync(pdf.subarray(start, start + Number(head[1]))).toString('latin1');
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
