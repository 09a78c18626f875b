// Every lookup the gateway answers, as the tables know it: its name in the records, whether it is a
// catalog (paid from the balance), and the integrations' column that enables it. A new lookup starts
// here (lib/README.md, "How to add"): the enums, the flag column and the catalog sets follow.

/** Every lookup the gateway answers, as its records name it: the two registries, then the three catalogs. */
export const LOOKUP_KINDS = ['renap', 'rtu_nits', 'cui_nit', 'rtu', 'omisos'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];
/**
 * The catalogs (the contract's /catalogos/…), declared once: paid from the balance, answered 401 for
 * wrong credentials, run in bulk jobs (bulk_jobs.catalog) and watch lists. Everything that tells a
 * catalog from a registry reads this list or isCatalogLookup.
 */
export const CATALOG_LOOKUPS = ['cui_nit', 'rtu', 'omisos'] as const satisfies readonly LookupKind[];
/**
 * The integrations' column that enables each lookup (integrations.ts spreads one boolean column per
 * entry): its name is also the contract's flag (is_rtu_v2_enabled), its property the camel-cased name.
 */
export const LOOKUP_FLAG_COLUMNS = {
  renap: 'is_renap_enabled',
  rtu_nits: 'is_rtu_enabled',
  cui_nit: 'is_cui_nit_enabled',
  rtu: 'is_rtu_v2_enabled',
  omisos: 'is_omisos_enabled',
} as const satisfies Record<LookupKind, `is_${string}_enabled`>;
export type CatalogLookup = (typeof CATALOG_LOOKUPS)[number];

/** is_rtu_v2_enabled → isRtuV2Enabled: how drizzle's rows name a column. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Name;
/** The integration row's property behind each lookup's flag. */
export type LookupFlagProperty<K extends LookupKind = LookupKind> = K extends K ? CamelCase<(typeof LOOKUP_FLAG_COLUMNS)[K]> : never;

export function lookupFlagProperty<K extends LookupKind>(lookup: K): LookupFlagProperty<K> {
  return LOOKUP_FLAG_COLUMNS[lookup].replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()) as LookupFlagProperty<K>;
}
const CATALOG_SET: ReadonlySet<string> = new Set(CATALOG_LOOKUPS);
export function isCatalogLookup(lookup: string): lookup is CatalogLookup {
  return CATALOG_SET.has(lookup);
}
