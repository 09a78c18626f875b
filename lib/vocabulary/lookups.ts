// Every lookup the gateway answers, declared once: where it is served, the flag that enables it,
// the per-minute limit it spends, whether the balance pays it, the source that answers it, and how
// people and the OpenAPI document name it. The flags, limits, paths, labels, colours, bulk catalogs
// and documented paths are read from here; db/schema's LOOKUP_KINDS (the enum of recorded lookups)
// is the one list this must cover, and the compiler holds it to it.
import { isCatalogLookup, LOOKUP_FLAG_COLUMNS, lookupFlagProperty, LOOKUP_KINDS, type CatalogLookup, type LookupFlagProperty, type LookupKind } from '@/db/schema/lookups';
import type { CatalogKind } from '@/lib/sources/catalogs';
import type { SourceName } from '@/lib/sources/guard';

/** The per-integration limit a lookup spends from (docs/operations.md, RATE_LIMIT_*): the catalogs share one. */
export type LimitedRoute = 'renap' | 'rtu_nits' | 'catalogs';

export interface LookupDeclaration {
  /** The contract's path (under {base_url} = <origin>/api). */
  path: `/api/${string}`;
  limit: LimitedRoute;
  source: SourceName;
  /** As the console, the portal and every download name it. */
  label: string;
  /** The lookup's colour in the usage charts. */
  colour: `#${string}`;
  /** The OpenAPI document's operationId and one-line summary. */
  operationId: string;
  summary: string;
}

const DECLARED = {
  renap: {
    path: '/api/renap/buscar-cui',
    limit: 'renap',
    source: 'renap',
    label: 'RENAP por CUI',
    colour: '#2e90fa',
    operationId: 'searchRenapByCui',
    summary: 'Una persona en el registro nacional de personas (RENAP), por CUI',
  },
  rtu_nits: {
    path: '/api/rtu/nits',
    limit: 'rtu_nits',
    source: 'rtu',
    label: 'RTU por NIT',
    colour: '#7a5af8',
    operationId: 'searchRtuByNits',
    summary: 'Hasta 50 contribuyentes en el Registro Tributario Unificado (RTU), por NIT',
  },
  cui_nit: {
    path: '/api/catalogos/cui-nit',
    limit: 'catalogs',
    source: 'catalog',
    label: 'Catálogo CUI/NIT',
    colour: '#12b76a',
    operationId: 'lookupCuiNit',
    summary: 'El NIT de un CUI, o el CUI de un NIT',
  },
  rtu: {
    path: '/api/catalogos/rtu',
    limit: 'catalogs',
    source: 'catalog',
    label: 'Catálogo RTU',
    colour: '#f79009',
    operationId: 'lookupRtuV2',
    summary: 'Régimen, afiliaciones, obligaciones y características especiales de un contribuyente',
  },
  omisos: {
    path: '/api/catalogos/omisos',
    limit: 'catalogs',
    source: 'catalog',
    label: 'Catálogo omisos',
    colour: '#ee46bc',
    operationId: 'lookupOmisos',
    summary: 'Si la administración tributaria registra obligaciones omisas o un proceso de cobro coactivo',
  },
} as const satisfies Record<LookupKind, LookupDeclaration>;

/** A lookup's flag: the contract's name (its integrations column, db/schema/lookups.ts) and the row's property. */
interface LookupFlag<K extends LookupKind> {
  flag: (typeof LOOKUP_FLAG_COLUMNS)[K];
  flagProperty: LookupFlagProperty<K>;
}

type Catalogue = { readonly [K in LookupKind]: (typeof DECLARED)[K] & LookupFlag<K> };

/** Each lookup's declaration with its flag, as db/schema names its column. */
export const LOOKUP_CATALOGUE = Object.fromEntries(
  LOOKUP_KINDS.map((lookup) => [lookup, { ...DECLARED[lookup], flag: LOOKUP_FLAG_COLUMNS[lookup], flagProperty: lookupFlagProperty(lookup) }]),
) as Catalogue;

/** The lookups in the contract's order (the enum's). */
export const LOOKUPS: readonly LookupKind[] = LOOKUP_KINDS;

function byLookup<V>(pick: (declaration: LookupDeclaration & LookupFlag<LookupKind>, lookup: LookupKind) => V): Record<LookupKind, V> {
  return Object.fromEntries(LOOKUPS.map((lookup) => [lookup, pick(LOOKUP_CATALOGUE[lookup], lookup)])) as Record<LookupKind, V>;
}

/** Where each lookup is served. */
export const LOOKUP_PATHS: Readonly<Record<LookupKind, string>> = byLookup((declaration) => declaration.path);

/** The five lookups as the console names them, in the contract's order. */
export const LOOKUP_LABELS: Readonly<Record<LookupKind, string>> = byLookup((declaration) => declaration.label);

export const LOOKUP_COLOURS: Readonly<Record<LookupKind, string>> = byLookup((declaration) => declaration.colour);

/** The source that answers each lookup. */
export const LOOKUP_SOURCE: Readonly<Record<LookupKind, SourceName>> = byLookup((declaration) => declaration.source);

/** The per-minute limit each lookup spends from. */
export const LOOKUP_LIMITED_ROUTES: Readonly<Record<LookupKind, LimitedRoute>> = byLookup((declaration) => declaration.limit);

/** The integration's column that enables each lookup, typed lookup by lookup. */
export const LOOKUP_FLAGS = byLookup((declaration) => declaration.flagProperty) as { readonly [K in LookupKind]: Catalogue[K]['flagProperty'] };

/** The catalogs (billed lookups) by the last segment of their path, as POST /api/lotes names them (cui-nit). */
export type CatalogPathName<K extends CatalogLookup = CatalogLookup> = K extends K ? (Catalogue[K]['path'] extends `/api/catalogos/${infer Name}` ? Name : never) : never;

/** Every catalog's path names an operation of the catalog source (lib/sources/catalogs.ts): a catalog without one does not compile. */
type EveryCatalogAsksTheSource = CatalogPathName extends CatalogKind ? true : never;
const everyCatalogAsksTheSource: EveryCatalogAsksTheSource = true;
void everyCatalogAsksTheSource;

export function catalogPathName<K extends CatalogLookup>(catalog: K): CatalogPathName<K> & CatalogKind {
  return LOOKUP_CATALOGUE[catalog].path.slice('/api/catalogos/'.length) as CatalogPathName<K> & CatalogKind;
}

/** Each catalog by its path name. */
export const CATALOGS_BY_PATH_NAME = Object.fromEntries(
  LOOKUPS.filter(isCatalogLookup).map((catalog) => [catalogPathName(catalog), catalog]),
) as { readonly [K in CatalogLookup as CatalogPathName<K>]: K };
