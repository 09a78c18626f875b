// Identifiers out of URLs: a console search for a NIT or CUI is posted, kept
// here sealed behind a random reference for an hour, and the page's address carries only
// `busqueda=bq_…`. The reference means nothing to anyone else: it opens only for the user who
// searched, on any instance (PostgreSQL), and not after it expires. Links built from the list
// (pages, export, the way back from a record) carry the same reference.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { identifierSearches } from '@/db/schema';
import { recordFiltersToSearchParams, type RecordFilters } from '@/lib/core/records/filters';
import { open, seal, UnknownPersonalDataKeyError } from '@/lib/core/sealing/envelope';

/** How long a search's address keeps working (a person paging through results, or back from a record). */
export const SEARCH_REFERENCE_HOURS = 1;
export const SEARCH_REFERENCE_PARAM = 'busqueda';
const REFERENCE = /^bq_[A-Za-z0-9_-]{22}$/;

export function isSearchReference(value: unknown): value is string {
  return typeof value === 'string' && REFERENCE.test(value);
}

/** Who made a search: a console user or a portal user (lib/surfaces/portal), each opening only their own. */
export type SearchOwner = { consoleUserId: number } | { portalUserId: number };

function ownerColumns(owner: SearchOwner): { userId: number | null; portalUserId: number | null } {
  return 'consoleUserId' in owner ? { userId: owner.consoleUserId, portalUserId: null } : { userId: null, portalUserId: owner.portalUserId };
}

function isOwner(owner: SearchOwner): SQL {
  return 'consoleUserId' in owner ? eq(identifierSearches.userId, owner.consoleUserId) : eq(identifierSearches.portalUserId, owner.portalUserId);
}

/** Keeps `identifier` for `owner` and returns the reference that stands for it in URLs. */
export async function referenceSearch(owner: SearchOwner, identifier: string): Promise<string> {
  const reference = `bq_${randomBytes(16).toString('base64url')}`;
  await (await db()).insert(identifierSearches).values({
    reference,
    ...ownerColumns(owner),
    identifierSealed: seal(identifier, 'identifier_search'),
    expiresAt: sql`now() + ${SEARCH_REFERENCE_HOURS}::integer * interval '1 hour'`,
  });
  return reference;
}

/**
 * The identifier behind `reference`, if this user made it and it has not expired; undefined
 * otherwise (another user's reference, console or portal, reads as an unknown one).
 */
export async function searchedIdentifier(owner: SearchOwner, reference: string): Promise<string | undefined> {
  if (!isSearchReference(reference)) return undefined;
  const [row] = await (await db())
    .select({ sealed: identifierSearches.identifierSealed })
    .from(identifierSearches)
    .where(and(eq(identifierSearches.reference, reference), isOwner(owner), gt(identifierSearches.expiresAt, sql`now()`)));
  if (!row) return undefined;
  try {
    return open(row.sealed, 'identifier_search');
  } catch (error) {
    // Sealed with a key since retired: as good as expired.
    if (error instanceof UnknownPersonalDataKeyError) return undefined;
    throw error;
  }
}

/** Deletes expired references (the retention job). */
export async function purgeExpiredSearchReferences(now = new Date()): Promise<number> {
  const purged = await (await db())
    .delete(identifierSearches)
    .where(lt(identifierSearches.expiresAt, sql`${now.toISOString()}::timestamptz`))
    .returning({ reference: identifierSearches.reference });
  return purged.length;
}

/**
 * The list's parameters with `busqueda` turned back into the identifier it stands for, for the
 * code that filters (which reads `identificador`). `expired` when a reference was given that this
 * user cannot open (expired, another user's, or made up): the page says so instead of listing
 * everything.
 */
export async function withSearchedIdentifier(
  owner: SearchOwner,
  params: Record<string, string>,
): Promise<{ params: Record<string, string>; reference?: string; expired: boolean }> {
  const { [SEARCH_REFERENCE_PARAM]: reference, ...rest } = params;
  delete rest.identificador;
  // An identifier in the address itself is never read: only a reference made by this user is.
  if (reference === undefined || reference === '') return { params: rest, expired: false };
  const identifier = await searchedIdentifier(owner, reference);
  if (identifier === undefined) return { params: rest, expired: true };
  return { params: { ...rest, identificador: identifier }, reference, expired: false };
}

/**
 * The records list's filters as its address holds them (links, the export, the way back from a
 * record): the search's reference in place of the identifier.
 */
export function recordListAddress(filters: RecordFilters, reference: string | undefined): URLSearchParams {
  const params = recordFiltersToSearchParams({ ...filters, identificador: undefined });
  if (isSearchReference(reference)) params.set(SEARCH_REFERENCE_PARAM, reference);
  return params;
}
