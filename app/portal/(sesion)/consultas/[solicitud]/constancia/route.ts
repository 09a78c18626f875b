// POST /portal/consultas/:solicitud/constancia (motivo) - the query's constancia as PDF, for those
// who read the records; the access is logged with its reason before the file leaves.
import { pdfAttachment } from '@/lib/platform/http/pdf-attachment';
import { portalConstanciaPdf } from '@/lib/surfaces/portal/constancias';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ solicitud: string }> }) {
  const found = await portalConstanciaPdf(request, params);
  return found instanceof Response ? found : pdfAttachment(found.file, found.fileName);
}
