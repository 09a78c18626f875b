// GET /admin/facturas/:id/nota-de-credito/:nota/pdf - a certified credit note of an invoice as PDF
// (lib/flows/invoicing/pdf.ts), for console users, as a download. 404 for one not certified, or none.
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { creditNotePdfFile } from '@/lib/surfaces/console/invoice-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; nota: string }> }) {
  const { id, nota } = await params;
  const file = await creditNotePdfFile(id, nota);
  return file instanceof Response ? file : pdfAttachment(file.pdf, file.fileName);
}
