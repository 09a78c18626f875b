import { inArray, or, sql } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { identifierLinks } from '@/db/schema';
import { personalDataKeys, type PersonalDataKeyring } from '@/lib/core/sealing/keys';
import { maskIdentifier } from '@/lib/core/sealing/masking';
import { identifierLink, openIdentifierLink } from '@/lib/core/records/sealed';
import { searchKeysToLookUp } from '@/lib/core/sealing/search-keys';

/** A person's other identifier, as a source's answer linked it to the one asked about. */
export interface LinkedIdentifiers {
  /** The search keys of the linked identifiers (under the current and any previous search key). */
  keys: string[];
  /** Each linked identifier masked, with its kind ("NIT 57****7K"), for the report to say what it added. */
  shown: string[];
}

/**
 * The identifiers the sources' answers linked to `identifier` (identifier_links): its CUI if it is
 * a NIT, its NIT if it is a CUI. Read by the identifier's keyed hashes; the linked one is opened
 * only to hash it under every search key in use and to show it masked.
 */
export async function linkedIdentifiers(identifier: string, keys: PersonalDataKeyring = personalDataKeys()): Promise<LinkedIdentifiers> {
  const own = searchKeysToLookUp(identifier, false, keys);
  if (own.length === 0) return { keys: [], shown: [] };
  const rows = await (await db())
    .select()
    .from(identifierLinks)
    .where(or(inArray(identifierLinks.nitKey, own), inArray(identifierLinks.cuiKey, own)));
  const linkedKeys = new Set<string>();
  const shown = new Set<string>();
  for (const row of rows) {
    const pair = openIdentifierLink(row.pairSealed, keys);
    const askedByNit = own.includes(row.nitKey);
    const other = askedByNit ? pair.cui : pair.nit;
    for (const key of searchKeysToLookUp(other, false, keys)) linkedKeys.add(key);
    shown.add(`${askedByNit ? 'CUI' : 'NIT'} ${maskIdentifier(other)}`);
  }
  return { keys: [...linkedKeys], shown: [...shown].sort() };
}

/**
 * Hashes and seals again the links made under a previous search or encryption key (part of
 * `records:reseal`, lib/core/personal-data/reseal.ts), so none is lost when that key is retired.
 * Returns how many it rewrote.
 */
export async function resealIdentifierLinks(keys: PersonalDataKeyring = personalDataKeys(), batchRows = 2_000): Promise<number> {
  const handle = await database();
  const currentPrefix = `${keys.search.id}:`;
  let rewritten = 0;
  for (;;) {
    const stale = await handle.rows<{ nit_key: string; cui_key: string; pair_sealed: string; first_seen_at: string; last_seen_at: string }>(sql`
      select nit_key, cui_key, pair_sealed, first_seen_at, last_seen_at from identifier_links
       where left(nit_key, ${currentPrefix.length}::integer) <> ${currentPrefix}::text
          or left(cui_key, ${currentPrefix.length}::integer) <> ${currentPrefix}::text
          or split_part(pair_sealed, ':', 2) <> ${keys.encryption.id}::text
       limit ${batchRows}::integer`);
    if (stale.length === 0) return rewritten;
    for (const row of stale) {
      const link = identifierLink(openIdentifierLink(row.pair_sealed, keys), keys);
      await handle.rows(sql`
        with gone as (delete from identifier_links where nit_key = ${row.nit_key}::text and cui_key = ${row.cui_key}::text)
        ${link ? sql`insert into identifier_links (nit_key, cui_key, pair_sealed, first_seen_at, last_seen_at)
          values (${link.nitKey}::text, ${link.cuiKey}::text, ${link.pairSealed}::text, ${row.first_seen_at}::timestamptz, ${row.last_seen_at}::timestamptz)
          on conflict (nit_key, cui_key) do nothing` : sql`select 1`}`);
      rewritten += 1;
    }
  }
}
