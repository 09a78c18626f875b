// POST /admin/registros/:id/constancia (motivo) - the query's constancia as PDF, for console users;
// the access is logged with its reason before the file leaves.
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { consoleConstanciaPdf } from '@/lib/surfaces/console/constancias';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const found = await consoleConstanciaPdf(request, (await params).id);
  return found instanceof Response ? found : pdfAttachment(found.file, found.fileName);
}
