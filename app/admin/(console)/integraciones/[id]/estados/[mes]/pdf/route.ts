// GET /admin/integraciones/:id/estados/:mes/pdf - an issued monthly statement as PDF (administrators and support).
import { statementPdfDownload } from '@/lib/surfaces/console/statement-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; mes: string }> }) {
  return statementPdfDownload(params);
}
