// POST /admin/datos-personales/quien-consulto/buscar - "¿Quién consultó?"'s form: the NIT or CUI is
// kept behind a reference for this administrator and the report opens with ?busqueda=bq_…, never
// with the identifier in its address. GET converts an old ?identificador= link.
import { searchFormRedirect } from '@/lib/surfaces/console/search-form';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  return searchFormRedirect(request, { list: '/admin/datos-personales/quien-consulto', role: 'admin' });
}

export async function GET(request: Request) {
  return searchFormRedirect(request, { list: '/admin/datos-personales/quien-consulto', role: 'admin' });
}
