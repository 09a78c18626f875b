// GET /portal/estados/:id/pdf - an issued monthly statement of the session's integration, as PDF.
import { env } from '@/lib/platform/settings/env';
import { portalStatementDownload } from '@/lib/surfaces/portal/downloads';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await portalStatementDownload(BILLING_READERS, params);
  if (found instanceof Response) return found;
  const { statement, user } = found;
  const pdf = await renderStatementPdf(statement, env().SERVICE_NAME, await statementInvoices(statement));
  return pdfAttachment(pdf, `estado-de-cuenta-${user.integrationName}-${statement.month}.pdf`);
}
