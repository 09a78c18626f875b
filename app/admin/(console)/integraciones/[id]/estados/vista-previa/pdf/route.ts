// POST /admin/integraciones/:id/estados/vista-previa/pdf - a statement's preview as PDF (administrators and support).
// The days travel in the posted form (desde, hasta), not in the address: like an issued
// statement's download, the address names only the integration.
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { statementPreviewPdfFile } from '@/lib/surfaces/console/statement-downloads';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const file = await statementPreviewPdfFile(request, (await params).id);
  return file instanceof Response ? file : pdfAttachment(file.pdf, file.fileName);
}
