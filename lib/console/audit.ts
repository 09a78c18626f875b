import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { db } from '@/db/client';
import { auditLog, type AuditEntry } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/lib/records/console-queries';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  targetType?: 'integration' | 'console_user';
  targetId?: string;
}

export interface AuditPage {
  rows: AuditEntry[];
  older?: string;
}

/** Newest changes first, keyset-paginated on (created_at, id) like the query records. */
export async function listAuditPage(filters: AuditFilters, after?: string, pageSize = AUDIT_PAGE_SIZE): Promise<AuditPage> {
  const conditions: SQL[] = [];
  if (filters.targetType) conditions.push(eq(auditLog.targetType, filters.targetType));
  if (filters.targetType && filters.targetId) conditions.push(eq(auditLog.targetId, filters.targetId));
  const cursor = decodeCursor(after);
  if (cursor) conditions.push(sql`(${auditLog.createdAt}, ${auditLog.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)`);
  const rows = await (await db())
    .select({
      entry: auditLog,
      cursorTimestamp: sql<string>`to_char(${auditLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page.map((row) => row.entry),
    older: rows.length > pageSize && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.entry.id }) : undefined,
  };
}

/** Which fields an audit row changed, with their values before and after. */
export function auditChanges(entry: Pick<AuditEntry, 'before' | 'after'>): Array<{ field: string; before: unknown; after: unknown }> {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}
