// GET /portal/facturas/:id/nota-de-credito/xml - the certified credit note (NCRE) of an invoice of
// the session's integration, its XML as the certifier returned it, as a download. An invoice without
// one, an unknown id and another integration's invoice all get the same 404.
import { creditNoteFileName } from '@/lib/flows/invoicing/documents';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { portalDownloadUser, portalInvoiceMissing } from '@/lib/surfaces/portal/downloads';
import { portalCreditNoteXml } from '@/lib/surfaces/portal/invoices';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await portalDownloadUser(BILLING_READERS);
  if (user instanceof Response) return user;
  const note = await portalCreditNoteXml(user, (await params).id);
  if (!note) return portalInvoiceMissing(user);
  return new Response(note.xml, {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${creditNoteFileName(note)}"`,
      'cache-control': 'private, no-store',
      'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
    },
  });
}
