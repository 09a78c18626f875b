// POST /portal/lotes/:id/resultados - a job's results as CSV (motivo required, logged as an access to
// personal data); GET answers only that the download is asked from the job's page.
import { portalBulkResultsDownload, portalBulkResultsWithoutReason } from '@/lib/surfaces/portal/bulk-download';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalBulkResultsWithoutReason(params);
}

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalBulkResultsDownload(request, params);
}
