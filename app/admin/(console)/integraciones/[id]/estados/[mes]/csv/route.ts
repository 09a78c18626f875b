// GET /admin/integraciones/:id/estados/:mes/csv - the charged queries of an issued statement's month (admin).
import { statementChargesCsvDownload } from '@/lib/surfaces/console/statement-downloads';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string; mes: string }> }) {
  return statementChargesCsvDownload(params);
}
