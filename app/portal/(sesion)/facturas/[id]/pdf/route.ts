// GET /portal/facturas/:id/pdf - a certified invoice of the session's integration, as PDF.
import { portalInvoicePdfResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalInvoicePdfResponse(params);
}
