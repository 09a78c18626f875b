// A document of the integration's own (an invoice's XML or PDF) as GET /api/cuenta/facturas/… gives
// it: a download, stored by nobody between (no-store, as the proxy writes on every route too).
import { REQUEST_ID_HEADER } from '@/lib/platform/http/request-id';

export function accountDownload(body: string | Uint8Array<ArrayBuffer>, contentType: string, fileName: string, requestId: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': contentType,
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      [REQUEST_ID_HEADER]: requestId,
    },
  });
}
