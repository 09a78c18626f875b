// GET /portal/facturas/:id/xml - a certified invoice of the session's integration, its XML as the
// certifier returned it, as a download.
import { portalInvoiceXmlDownload } from '@/lib/surfaces/portal/document-downloads';
import { xmlAttachment } from '@/lib/platform/http/xml-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalInvoiceXmlDownload(params);
  return found instanceof Response ? found : xmlAttachment(found.xml, found.fileName);
}
