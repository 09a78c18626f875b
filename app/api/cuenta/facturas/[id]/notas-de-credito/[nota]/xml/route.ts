// GET /api/cuenta/facturas/:id/notas-de-credito/:nota/xml - a certified credit note (NCRE) of an
// invoice of the integration, its XML as the certifier returned it. Anything else is the same 404.
import { creditNoteFileName } from '@/lib/flows/invoicing/documents';
import { accountCreditNoteXml } from '@/lib/surfaces/api/account-invoices';
import { CREDIT_NOTE_NOT_FOUND_MESSAGE } from '@/lib/surfaces/api/account-responses';
import { accountRouteWithParams } from '@/lib/surfaces/api/account-route';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { accountDownload } from '@/lib/surfaces/api/account-downloads';

export const dynamic = 'force-dynamic';

export const GET = accountRouteWithParams<{ id: string; nota: string }>(async (_request, { integration, requestId }, { id, nota }) => {
  const note = await accountCreditNoteXml(integration.id, id, nota);
  if (!note) return bulkError(404, CREDIT_NOTE_NOT_FOUND_MESSAGE, requestId);
  return accountDownload(note.xml, 'application/xml; charset=utf-8', creditNoteFileName(note), requestId);
});
