// GET /portal/facturas/:id/pdf - a certified invoice of the session's integration, as PDF.
import { portalInvoicePdfDownload } from '@/lib/surfaces/portal/document-downloads';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalInvoicePdfDownload(params);
  return found instanceof Response ? found : pdfAttachment(found.file, found.fileName);
}
