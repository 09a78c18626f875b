// GET /portal/estados/:id/pdf - an issued monthly statement of the session's integration, as PDF.
import { portalStatementPdfResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalStatementPdfResponse(params);
}
