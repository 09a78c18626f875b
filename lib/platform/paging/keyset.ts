import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A position in a newest-first list ordered by (created_at, id). The timestamp keeps
 * PostgreSQL's microseconds, as text: a cursor rounded to JavaScript's milliseconds would skip
 * or repeat rows that share a millisecond.
 */
export interface KeysetCursor {
  createdAt: string;
  id: number;
}

export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor a link carried, or undefined when it is missing or not one of ours. */
export function decodeCursor(text: string | undefined): KeysetCursor | undefined {
  if (!text || text.length > 200) return undefined;
  const [createdAt, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !/^\d{1,18}$/.test(id) || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(createdAt) || Number.isNaN(Date.parse(createdAt))) {
    return undefined;
  }
  return { createdAt, id: Number(id) };
}

/** The exact instant of a timestamptz column as cursor text (UTC, microseconds). */
export function cursorInstant(column: PgColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * "Strictly older than the cursor" (or newer) on (created_at, id): a row comparison that a btree
 * index on (…, created_at, id) uses as its scan bound. Both parameters are typed, so postgres.js
 * and PGlite read them alike.
 */
export function beyondCursor(createdAt: PgColumn, id: PgColumn, cursor: KeysetCursor, direction: 'older' | 'newer'): SQL {
  const position = sql`(${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)`;
  return direction === 'older' ? sql`(${createdAt}, ${id}) < ${position}` : sql`(${createdAt}, ${id}) > ${position}`;
}
