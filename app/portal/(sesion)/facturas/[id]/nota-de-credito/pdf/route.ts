// GET /portal/facturas/:id/nota-de-credito/pdf - the certified credit note (NCRE) of an invoice of
// the session's integration (its latest), as PDF. Anything else is the same 404.
import { portalCreditNotePdfResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalCreditNotePdfResponse(params);
}
