/** A PDF's own policy: opened in a browser's viewer, nothing in it runs with this site's rights, nor is it framed. */
export const PDF_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'";

/**
 * A PDF to download (an invoice's, a credit note's, a statement's), kept by no cache and sandboxed
 * like the slips and the certified XML: what a signed-in download route answers. Its route is listed
 * in lib/platform/http/route-headers.ts, so proxy.ts does not put the page's policy over this one.
 */
export function pdfAttachment(pdf: Buffer, fileName: string): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': PDF_CONTENT_SECURITY_POLICY,
    },
  });
}
