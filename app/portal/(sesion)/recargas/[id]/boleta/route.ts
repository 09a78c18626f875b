// GET /portal/recargas/:id/boleta - the deposit slip of one of the session's integration's top-up requests.
import { portalTopUpSlipResponse } from '@/lib/surfaces/portal/top-ups';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalTopUpSlipResponse(params);
}
