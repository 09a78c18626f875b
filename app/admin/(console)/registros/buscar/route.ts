// POST /admin/registros/buscar - the records list's search form. A NIT or CUI is kept behind a
// reference for this user (lib/core/personal-data/search-references.ts) and the list opens with
// ?busqueda=bq_…, so the identifier never reaches an address, a balancer's log or the browser's
// history. A request id (not personal data) opens its record as before.
// GET takes an old link that still carries ?identificador= (proxy.ts sends it here) the same way.
import { searchFormRedirect } from '@/lib/surfaces/console/search-form';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return searchFormRedirect(request, { list: '/admin/registros', role: 'support', requestIds: '/admin/registros/solicitud' });
}

export async function GET(request: Request) {
  return searchFormRedirect(request, { list: '/admin/registros', role: 'support', requestIds: '/admin/registros/solicitud' });
}
