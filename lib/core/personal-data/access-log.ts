import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { db, type Database } from '@/db/client';
import { consoleUsers, personalDataAccess, type PersonalDataAccess, type PersonalDataAccessKind } from '@/db/schema';
import { startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';

// Every time personal data leaves the masked view it is written here first, before it is shown or
// sent: a failure to log is a failure to show (fail closed). Entries are never edited or purged
// with the records they point at (docs/operations.md, "Datos personales").

export const REVEAL_REASON_MAX_LENGTH = 200;

export interface AccessEntryInput {
  /** The console user; for an operator's CLI command, `actor` instead (cli:<system user>). */
  userId?: number;
  actor?: string;
  kind: PersonalDataAccessKind;
  recordId?: number;
  reason?: string;
  /** Never an identifier in clear: mask it first (lib/core/sealing/masking.ts). */
  details?: Record<string, unknown>;
}

export async function writeAccessEntry(entry: AccessEntryInput): Promise<number> {
  const [row] = await (await db())
    .insert(personalDataAccess)
    .values({ userId: entry.userId ?? null, actor: entry.actor ?? null, kind: entry.kind, recordId: entry.recordId ?? null, reason: entry.reason ?? null, details: entry.details ?? null })
    .returning({ id: personalDataAccess.id });
  return row!.id;
}

/** Adds to an entry's details what is known only at the end (an export's row count). */
export async function completeAccessEntry(id: number, details: Record<string, unknown>): Promise<void> {
  const database = await db();
  const [row] = await database.select({ details: personalDataAccess.details }).from(personalDataAccess).where(eq(personalDataAccess.id, id));
  await database
    .update(personalDataAccess)
    .set({ details: { ...((row?.details as Record<string, unknown> | null) ?? {}), ...details } })
    .where(eq(personalDataAccess.id, id));
}

export interface AccessFilters {
  userId?: number;
  recordId?: number;
  kind?: PersonalDataAccessKind;
  /** Guatemalan calendar days (YYYY-MM-DD), both included. */
  since?: string;
  until?: string;
}

/** An entry with its console user's name and e-mail; both null for a CLI command (see `actor`). */
export type AccessEntry = PersonalDataAccess & { userName: string | null; userEmail: string | null };

export const ACCESS_PAGE_SIZE = 50;

/**
 * Newest first, keyset-paginated on (created_at, id) like the audit log: a backward scan of
 * personal_data_access_created_idx, or of the user or record index when filtered by one, so a page
 * costs the same with millions of entries.
 */
export async function listAccessPage(filters: AccessFilters, after?: string, pageSize = ACCESS_PAGE_SIZE): Promise<{ rows: AccessEntry[]; older?: string }> {
  const rows = await accessPageQuery(await db(), filters, decodeCursor(after), pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page.map((row) => ({ ...row.entry, userName: row.userName, userEmail: row.userEmail })),
    older: rows.length > pageSize && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.entry.id }) : undefined,
  };
}

/** The query behind one page (exported unrun for the plan tests). */
export function accessPageQuery(database: Database, filters: AccessFilters, cursor: KeysetCursor | undefined, limit: number) {
  const conditions: SQL[] = [];
  if (filters.userId !== undefined) conditions.push(eq(personalDataAccess.userId, filters.userId));
  if (filters.recordId !== undefined) conditions.push(eq(personalDataAccess.recordId, filters.recordId));
  if (filters.kind) conditions.push(eq(personalDataAccess.kind, filters.kind));
  if (filters.since) conditions.push(gte(personalDataAccess.createdAt, startOfGuatemalanDay(filters.since)));
  if (filters.until) conditions.push(lt(personalDataAccess.createdAt, startOfNextGuatemalanDay(filters.until)));
  if (cursor) conditions.push(beyondCursor(personalDataAccess.createdAt, personalDataAccess.id, cursor, 'older'));
  return database
    .select({ entry: personalDataAccess, userName: consoleUsers.name, userEmail: consoleUsers.email, cursorTimestamp: cursorInstant(personalDataAccess.createdAt) })
    .from(personalDataAccess)
    .leftJoin(consoleUsers, eq(consoleUsers.id, personalDataAccess.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(personalDataAccess.createdAt), desc(personalDataAccess.id))
    .limit(limit);
}
