// GET /portal/facturas/:id/nota-de-credito/xml - the certified credit note (NCRE) of an invoice of
// the session's integration, its XML as the certifier returned it, as a download. An invoice without
// one, an unknown id and another integration's invoice all get the same 404.
import { portalCreditNoteXmlResponse } from '@/lib/surfaces/portal/document-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  return portalCreditNoteXmlResponse(params);
}
