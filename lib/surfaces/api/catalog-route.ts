// The catalogs' one route, app/api/catalogos/[catalogo]/route.ts: a lookupRoute per catalog of the
// lookup catalogue (lib/vocabulary/lookups.ts), each registered for its own path as the registries'
// routes are (server.mjs answers them before Next), and handlers that pick the catalog by the
// path's name. A new catalog needs no route file of its own.
import { CATALOG_LOOKUPS } from '@/db/schema';
import { runCatalogLookup } from '@/lib/flows/lookups/catalog';
import { catalogPathName } from '@/lib/vocabulary/lookups';
import { catalogAnswer, catalogUnhandledAnswer } from './catalog-responses';
import { lookupRoute, unservedLookupPath } from './route';

type Handlers = ReturnType<typeof lookupRoute>;
type Method = keyof Handlers;

/** What Next hands a handler of the dynamic segment. */
export interface CatalogRouteContext {
  params: Promise<{ catalogo: string }>;
}

/** The catalog names of the paths, for the answer to a name that is none of them. */
const CATALOG_PATH_NAMES = CATALOG_LOOKUPS.map((catalog) => catalogPathName(catalog));

export function catalogRoutes(): { [M in Method]: (request: Request, context: CatalogRouteContext) => Promise<Response> } {
  const routes = new Map<string, Handlers>(
    CATALOG_LOOKUPS.map((catalog) => [
      catalogPathName(catalog),
      lookupRoute(catalog, (context) => runCatalogLookup({ ...context, catalog }), catalogAnswer, catalogUnhandledAnswer),
    ]),
  );
  const unserved = unservedLookupPath({
    message: `No existe ese catálogo. Los catálogos son: ${CATALOG_PATH_NAMES.map((name) => `/catalogos/${name}`).join(', ')}.`,
  });
  const handler = (method: Method) => async (request: Request, { params }: CatalogRouteContext) => {
    const route = routes.get((await params).catalogo);
    return route ? route[method](request) : unserved(request);
  };
  return {
    POST: handler('POST'),
    GET: handler('GET'),
    PUT: handler('PUT'),
    PATCH: handler('PATCH'),
    DELETE: handler('DELETE'),
    OPTIONS: handler('OPTIONS'),
  };
}
