// GET /admin/recargas/:id/boleta - a top-up request's deposit slip, for console users: a photo shown
// inline in "Recargas pendientes", a PDF downloaded.
import { consoleUserWithAccess } from '@/lib/surfaces/console/session';
import { plainText } from '@/lib/platform/http/plain-text';
import { findTopUpSlip } from '@/lib/flows/top-ups/requests';
import { SLIP_NOT_FOUND, slipRequestId, slipResponse } from '@/lib/flows/top-ups/slips';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!(await consoleUserWithAccess())) return plainText(401, 'Su sesión terminó o ya no es válida. Vuelva a iniciar sesión.');
  const requestId = slipRequestId((await params).id);
  const slip = requestId === undefined ? undefined : await findTopUpSlip(requestId);
  if (!slip) return plainText(404, SLIP_NOT_FOUND);
  return slipResponse(requestId!, slip, 'inline');
}
