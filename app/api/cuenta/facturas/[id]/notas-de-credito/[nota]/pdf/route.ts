// GET /api/cuenta/facturas/:id/notas-de-credito/:nota/pdf - a certified credit note (NCRE) of an
// invoice of the integration, as PDF. Anything else is the same 404.
import { findCertifiedCreditNote } from '@/lib/core/invoices/documents';
import { creditNoteFileName, creditNotePdf } from '@/lib/flows/invoicing/documents';
import { pathId } from '@/lib/surfaces/api/account-invoices';
import { CREDIT_NOTE_NOT_FOUND_MESSAGE } from '@/lib/surfaces/api/account-responses';
import { accountRouteWithParams } from '@/lib/surfaces/api/account-route';
import { bulkError } from '@/lib/surfaces/api/bulk-responses';
import { accountDownload } from '@/lib/surfaces/api/account-downloads';

export const dynamic = 'force-dynamic';

export const GET = accountRouteWithParams<{ id: string; nota: string }>(async (_request, { integration, requestId }, { id, nota }) => {
  const invoiceId = pathId(id);
  const noteId = pathId(nota);
  const note = invoiceId === undefined || noteId === undefined ? undefined : await findCertifiedCreditNote(invoiceId, integration.id, noteId);
  const pdf = note ? await creditNotePdf(note) : null;
  if (!note || !pdf) return bulkError(404, CREDIT_NOTE_NOT_FOUND_MESSAGE, requestId);
  return accountDownload(new Uint8Array(pdf), 'application/pdf', creditNoteFileName(note, 'pdf'), requestId);
});
