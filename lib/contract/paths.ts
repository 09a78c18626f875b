import type { LookupKind } from '@/db/schema';

import { LOOKUP_PATHS as PATHS } from './lookup-paths.mjs';

/** Where each lookup is served (the contract's paths under {base_url} = <origin>/api). */
export const LOOKUP_PATHS: Readonly<Record<LookupKind, string>> = PATHS;

const LOOKUP_BY_PATH = new Map(Object.entries(LOOKUP_PATHS).map(([lookup, path]) => [path, lookup as LookupKind]));

/** The lookup a request path names, if any (a trailing slash is tolerated as Next does). */
export function lookupOfPath(pathname: string): LookupKind | undefined {
  return LOOKUP_BY_PATH.get(pathname.endsWith('/') ? pathname.slice(0, -1) : pathname);
}
