// GET /portal/estados/vista-previa/pdf - the running month's statement preview of the session's integration, as PDF.
import { portalStatementPreviewPdfDownload } from '@/lib/surfaces/portal/document-downloads';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET() {
  const found = await portalStatementPreviewPdfDownload();
  return found instanceof Response ? found : pdfAttachment(found.file, found.fileName);
}
