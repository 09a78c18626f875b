import type { LookupKind } from '@/db/schema';

/** Where each lookup is served (the contract's paths under {base_url} = <origin>/api). */
export const LOOKUP_PATHS: Record<LookupKind, string> = {
  renap: '/api/renap/buscar-cui',
  rtu_nits: '/api/rtu/nits',
  cui_nit: '/api/catalogos/cui-nit',
  rtu: '/api/catalogos/rtu',
  omisos: '/api/catalogos/omisos',
};

const LOOKUP_BY_PATH = new Map(Object.entries(LOOKUP_PATHS).map(([lookup, path]) => [path, lookup as LookupKind]));

/** The lookup a request path names, if any (a trailing slash is tolerated as Next does). */
export function lookupOfPath(pathname: string): LookupKind | undefined {
  return LOOKUP_BY_PATH.get(pathname.endsWith('/') ? pathname.slice(0, -1) : pathname);
}
