// GET /portal/facturas/:id/nota-de-credito/xml - the certified credit note (NCRE) of an invoice of
// the session's integration, its XML as the certifier returned it, as a download. An invoice without
// one, an unknown id and another integration's invoice all get the same 404.
import { portalCreditNoteXmlDownload } from '@/lib/surfaces/portal/document-downloads';
import { xmlAttachment } from '@/lib/platform/http/xml-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalCreditNoteXmlDownload(params);
  return found instanceof Response ? found : xmlAttachment(found.xml, found.fileName);
}
