// POST /portal/consultas/buscar - Consultas' search form: a request id opens its record, a NIT or
// CUI is kept behind a reference so it never reaches an address (lib/surfaces/portal/record-requests.ts).
import { portalRecordSearch } from '@/lib/surfaces/portal/record-requests';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return portalRecordSearch(request);
}
