// POST /portal/vigilancia/:id/cambios - a watch list's changes as CSV, all or one run's (motivo
// required, logged as an access to personal data); GET answers only that the download is asked from
// the list's page.
import { portalWatchChangesDownload, portalWatchChangesWithoutReason } from '@/lib/surfaces/portal/watch-list-download';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalWatchChangesWithoutReason(params);
}

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalWatchChangesDownload(request, params);
}
