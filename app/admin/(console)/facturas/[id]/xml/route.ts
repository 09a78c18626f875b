// GET /admin/facturas/:id/xml - a certified invoice's XML as the certifier returned it, for console
// users (administrators and support), as a download. 404 for any other invoice or none.
import { consoleUserWithAccess } from '@/lib/surfaces/console/session';
import { plainText } from '@/lib/platform/http/plain-text';
import { xmlAttachment } from '@/lib/platform/http/xml-attachment';
import { INVOICE_PAGE_MESSAGES } from '@/lib/presentation/invoice-labels';
import { certifiedInvoiceXml, invoiceIdOf } from '@/lib/surfaces/console/invoices';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!(await consoleUserWithAccess())) return plainText(401, INVOICE_PAGE_MESSAGES.signedOut);
  const invoiceId = invoiceIdOf((await params).id);
  const certified = invoiceId === undefined ? undefined : await certifiedInvoiceXml(invoiceId);
  if (!certified) return plainText(404, INVOICE_PAGE_MESSAGES.xmlNotFound);
  // The file is named by SAT's serie and número, which say nothing of the receptor.
  const fileName = `factura-${certified.serie}-${certified.numero}.xml`.replace(/[^A-Za-z0-9._-]/g, '_');
  return xmlAttachment(certified.xml, fileName);
}
