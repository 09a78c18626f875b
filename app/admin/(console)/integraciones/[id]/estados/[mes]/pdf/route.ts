// GET /admin/integraciones/:id/estados/:mes/pdf - an issued monthly statement as PDF (administrators and support).
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { statementPdfFile } from '@/lib/surfaces/console/statement-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; mes: string }> }) {
  const file = await statementPdfFile(params);
  return file instanceof Response ? file : pdfAttachment(file.pdf, file.fileName);
}
