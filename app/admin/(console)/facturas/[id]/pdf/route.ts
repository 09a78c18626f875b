// GET /admin/facturas/:id/pdf - a certified invoice as PDF (lib/flows/invoicing/pdf.ts), for console
// users (administrators and support), as a download. 404 for an invoice not certified, or none.
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { invoicePdfFile } from '@/lib/surfaces/console/invoice-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const file = await invoicePdfFile((await params).id);
  return file instanceof Response ? file : pdfAttachment(file.pdf, file.fileName);
}
