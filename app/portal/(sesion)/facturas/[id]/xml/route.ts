// GET /portal/facturas/:id/xml - a certified invoice of the session's integration, its XML as the
// certifier returned it, as a download.
import { portalInvoiceXmlResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalInvoiceXmlResponse(params);
}
