// GET /portal/facturas/:id/nota-de-credito/pdf - the certified credit note (NCRE) of an invoice of
// the session's integration (its latest), as PDF. Anything else is the same 404.
import { findCertifiedCreditNote } from '@/lib/core/invoices/documents';
import { creditNoteFileName, creditNotePdf } from '@/lib/flows/invoicing/documents';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { portalDownloadUser, portalInvoiceMissing } from '@/lib/surfaces/portal/downloads';
import { invoiceIdOf } from '@/lib/surfaces/portal/invoices';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const user = await portalDownloadUser(BILLING_READERS);
  if (user instanceof Response) return user;
  const invoiceId = invoiceIdOf((await params).id);
  const note = invoiceId === undefined ? undefined : await findCertifiedCreditNote(invoiceId, user.integrationId);
  const pdf = note && (await creditNotePdf(note));
  if (!note || !pdf) return portalInvoiceMissing(user);
  return pdfAttachment(pdf, creditNoteFileName(note, 'pdf'));
}
