// GET /admin/recargas/:id/boleta - a top-up request's deposit slip, for console users: a photo shown
// inline in "Recargas pendientes", a PDF downloaded.
import { uploadedFileResponse } from '@/lib/platform/http/uploaded-file';
import { consoleTopUpSlipDownload } from '@/lib/surfaces/console/top-ups';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await consoleTopUpSlipDownload(params);
  return found instanceof Response ? found : uploadedFileResponse(found);
}
