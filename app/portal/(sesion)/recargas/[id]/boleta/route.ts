// GET /portal/recargas/:id/boleta - the deposit slip of one of the session's integration's top-up requests.
import { portalDownloadPage } from '@/lib/surfaces/portal/download-page';
import { PORTAL_DOWNLOAD_MESSAGES, portalDownloadUser } from '@/lib/surfaces/portal/downloads';
import { TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { findTopUpSlip } from '@/lib/flows/top-ups/requests';
import { SLIP_NOT_FOUND, slipRequestId, slipResponse } from '@/lib/flows/top-ups/slips';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await portalDownloadUser(TOP_UP_REPORTERS);
  if (user instanceof Response) return user;
  const requestId = slipRequestId((await params).id);
  // Another integration's request, one without a slip and one that does not exist read the same.
  const slip = requestId === undefined ? undefined : await findTopUpSlip(requestId, user.integrationId);
  if (!slip) return portalDownloadPage(404, user, SLIP_NOT_FOUND, PORTAL_DOWNLOAD_MESSAGES.slipNotFoundHint);
  return slipResponse(requestId!, slip, 'attachment');
}
