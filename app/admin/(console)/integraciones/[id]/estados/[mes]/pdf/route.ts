// GET /admin/integraciones/:id/estados/:mes/pdf - an issued monthly statement as PDF (administrators and support).
import { env } from '@/lib/platform/settings/env';
import { statementForDownload } from '@/lib/surfaces/console/statement-downloads';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; mes: string }> }) {
  const found = await statementForDownload(params, 'pdf');
  if (found instanceof Response) return found;
  const pdf = await renderStatementPdf(found.statement, env().SERVICE_NAME, await statementInvoices(found.statement));
  return pdfAttachment(pdf, `estado-de-cuenta-${found.nombre}-${found.statement.month}.pdf`);
}
