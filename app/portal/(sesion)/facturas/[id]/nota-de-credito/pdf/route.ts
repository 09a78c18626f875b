// GET /portal/facturas/:id/nota-de-credito/pdf - the certified credit note (NCRE) of an invoice of
// the session's integration (its latest), as PDF. Anything else is the same 404.
import { portalCreditNotePdfDownload } from '@/lib/surfaces/portal/document-downloads';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalCreditNotePdfDownload(params);
  return found instanceof Response ? found : pdfAttachment(found.file, found.fileName);
}
