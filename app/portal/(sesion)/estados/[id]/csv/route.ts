// GET /portal/estados/:id/csv - the charged queries of an issued statement's month, identifiers masked.
import { portalStatementCsvResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalStatementCsvResponse(params);
}
