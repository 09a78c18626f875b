// Route handlers that write their own Content-Security-Policy or Cache-Control, which proxy.ts
// leaves to them. Next writes a route's header only when the answer does not already carry it, so
// a header the proxy set would replace the route's: a deposit slip would lose its sandbox to the
// page policy. lib/platform/http/route-headers.test.ts fails for a route that writes either and is not here.

/** The headers proxy.ts sets on every answer that a route may need to write differently. */
export type RouteOwnHeader = 'Content-Security-Policy' | 'Cache-Control';

/** By the route's folder under app/, route groups included; what each writes on every answer. */
export const ROUTES_WITH_OWN_HEADERS: Readonly<Record<string, readonly RouteOwnHeader[]>> = {
  // A slip is a file an integrator uploaded: it gets no scripts and no same-origin rights (lib/flows/top-ups/slips.ts).
  'admin/(console)/recargas/[id]/boleta': ['Content-Security-Policy', 'Cache-Control'],
  'portal/(sesion)/recargas/[id]/boleta': ['Content-Security-Policy', 'Cache-Control'],
  // A certified invoice's XML comes from the certifier: downloaded, and nothing in it runs if opened.
  'admin/(console)/facturas/[id]/xml': ['Content-Security-Policy', 'Cache-Control'],
  'portal/(sesion)/facturas/[id]/xml': ['Content-Security-Policy', 'Cache-Control'],
  'portal/(sesion)/facturas/[id]/nota-de-credito/xml': ['Content-Security-Policy', 'Cache-Control'],
  // A PDF to download (lib/platform/http/pdf-attachment.ts): sandboxed (its no-store is the proxy's too).
  'admin/(console)/facturas/[id]/pdf': ['Content-Security-Policy'],
  'admin/(console)/facturas/[id]/nota-de-credito/[nota]/pdf': ['Content-Security-Policy'],
  'portal/(sesion)/facturas/[id]/pdf': ['Content-Security-Policy'],
  'portal/(sesion)/facturas/[id]/nota-de-credito/pdf': ['Content-Security-Policy'],
  'admin/(console)/integraciones/[id]/estados/[mes]/pdf': ['Content-Security-Policy'],
  'admin/(console)/integraciones/[id]/estados/vista-previa/pdf': ['Content-Security-Policy'],
  'portal/(sesion)/estados/[id]/pdf': ['Content-Security-Policy'],
  'portal/(sesion)/estados/vista-previa/pdf': ['Content-Security-Policy'],
  // Public documents any caller may keep for a while.
  'api/estado': ['Cache-Control'],
  'api/openapi.json': ['Cache-Control'],
  '.well-known/jwks.json': ['Cache-Control'],
  // A constancia's PDF (lib/flows/constancias/pdf.ts): a download like the invoices'.
  'portal/(sesion)/consultas/[solicitud]/constancia': ['Content-Security-Policy'],
  'admin/(console)/registros/[id]/constancia': ['Content-Security-Policy'],
};

/** A route folder as the addresses it answers: route groups left out, a [segment] any one segment. */
export function routeAddressPattern(folder: string): RegExp {
  const segments = folder
    .split('/')
    .filter((segment) => !/^\(.*\)$/.test(segment))
    .map((segment) => (/^\[[^.[\]]+\]$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^/${segments.join('/')}$`);
}

const OWN_HEADERS_BY_ADDRESS = Object.entries(ROUTES_WITH_OWN_HEADERS).map(([folder, headers]) => ({
  pattern: routeAddressPattern(folder),
  headers: new Set(headers.map((name) => name.toLowerCase())),
}));
const NONE: ReadonlySet<string> = new Set();

/** The headers (lowercase) the route answering `path` writes itself; none for a page or any other route. */
export function headersTheRouteWrites(path: string): ReadonlySet<string> {
  return OWN_HEADERS_BY_ADDRESS.find((route) => route.pattern.test(path))?.headers ?? NONE;
}
