// A certified XML (an invoice's, a credit note's) as a download: as the certifier returned it,
// never rendered by the browser. Its route writes these headers itself (lib/platform/http/route-headers.ts).
export function xmlAttachment(xml: string, fileName: string): Response {
  return new Response(xml, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
      'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    },
  });
}
