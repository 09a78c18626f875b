// GET /portal/consultas/exportar?desde=…&hasta=… - the integration's query records of a range as CSV, streamed, identifiers masked.
import { portalRecordsExport } from '@/lib/surfaces/portal/record-requests';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return portalRecordsExport(request);
}
