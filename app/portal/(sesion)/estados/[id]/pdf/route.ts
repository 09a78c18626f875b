// GET /portal/estados/:id/pdf - an issued monthly statement of the session's integration, as PDF.
import { portalStatementPdfDownload } from '@/lib/surfaces/portal/document-downloads';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalStatementPdfDownload(params);
  return found instanceof Response ? found : pdfAttachment(found.file, found.fileName);
}
