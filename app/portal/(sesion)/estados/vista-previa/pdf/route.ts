// GET /portal/estados/vista-previa/pdf - the running month's statement preview of the session's integration, as PDF.
import { portalStatementPreviewPdfResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET() {
  return portalStatementPreviewPdfResponse();
}
