// GET /admin/integraciones/:id/estados/:mes/pdf - an issued monthly statement as PDF (administrators and support).
import { env } from '@/lib/platform/env';
import { statementForDownload } from '@/lib/surfaces/console/statement-downloads';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { statementInvoices } from '@/lib/flows/statements/invoices';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; mes: string }> }) {
  const found = await statementForDownload(params, 'pdf');
  if (found instanceof Response) return found;
  const pdf = await renderStatementPdf(found.statement, env().SERVICE_NAME, await statementInvoices(found.statement));
  return new Response(new Uint8Array(pdf), {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="estado-de-cuenta-${found.nombre}-${found.statement.month}.pdf"`,
      'cache-control': 'no-store',
    },
  });
}
