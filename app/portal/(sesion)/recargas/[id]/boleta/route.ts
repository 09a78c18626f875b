// GET /portal/recargas/:id/boleta - the deposit slip of one of the session's integration's top-up requests.
import { uploadedFileResponse } from '@/lib/platform/http/uploaded-file';
import { portalTopUpSlipDownload } from '@/lib/surfaces/portal/top-ups';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalTopUpSlipDownload(params);
  return found instanceof Response ? found : uploadedFileResponse(found);
}
