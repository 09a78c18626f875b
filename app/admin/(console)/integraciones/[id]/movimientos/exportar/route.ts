// GET /admin/integraciones/:id/movimientos/exportar - the balance history as CSV (admin and support).
import { balanceHistoryCsvDownload } from '@/lib/surfaces/console/balance-history';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return balanceHistoryCsvDownload(request, (await params).id);
}
