import { and, desc, eq, gte, like, lt, or, type SQL } from 'drizzle-orm';
import { db, type Database } from '@/db/client';
import { auditLog, type AuditEntry } from '@/db/schema';
import { formatAuditValue as formatAuditValueWith } from '@/lib/presentation/audit-labels';
import { CONDITION_LABELS } from '@/lib/reactions/integrator-notifications/labels';
import { startOfGuatemalanDay, startOfNextGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilters {
  targetType?: 'integration' | 'console_user' | 'portal_user';
  targetId?: string;
  /** A console user's id, 'cli' / 'system' for the operator CLI and the app itself, 'anonymous' for sign-in attempts, 'integrator' for the portal's people. */
  actor?: string;
  action?: string;
  /** Guatemalan calendar days (YYYY-MM-DD), both included. */
  since?: string;
  until?: string;
}

export interface AuditPage {
  rows: AuditEntry[];
  older?: string;
}

/**
 * Newest changes first, keyset-paginated on (created_at, id) like the query records: a backward
 * scan of audit_log_created_idx, or of audit_log_target_idx for one target.
 */
export async function listAuditPage(filters: AuditFilters, after?: string, pageSize = AUDIT_PAGE_SIZE): Promise<AuditPage> {
  const rows = await auditPageQuery(await db(), filters, decodeCursor(after), pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page.map((row) => row.entry),
    older: rows.length > pageSize && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.entry.id }) : undefined,
  };
}

/** The query behind one audit page (exported unrun for the plan tests). */
export function auditPageQuery(database: Database, filters: AuditFilters, cursor: KeysetCursor | undefined, limit: number) {
  const conditions: SQL[] = [];
  if (filters.targetType) conditions.push(eq(auditLog.targetType, filters.targetType));
  if (filters.targetType && filters.targetId) conditions.push(eq(auditLog.targetId, filters.targetId));
  if (filters.actor === 'cli' || filters.actor === 'system' || filters.actor === 'integrator') {
    conditions.push(or(eq(auditLog.actor, filters.actor), like(auditLog.actor, `${filters.actor}:%`))!);
  } else if (filters.actor === 'anonymous') {
    conditions.push(eq(auditLog.actor, filters.actor));
  } else if (filters.actor) {
    conditions.push(like(auditLog.actor, `user:${Number(filters.actor)} %`));
  }
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.since) conditions.push(gte(auditLog.createdAt, startOfGuatemalanDay(filters.since)));
  if (filters.until) conditions.push(lt(auditLog.createdAt, startOfNextGuatemalanDay(filters.until)));
  if (cursor) conditions.push(beyondCursor(auditLog.createdAt, auditLog.id, cursor, 'older'));
  return database
    .select({ entry: auditLog, cursorTimestamp: cursorInstant(auditLog.createdAt) })
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
}

export { auditChanges, type AuditFieldChange } from '@/lib/presentation/audit-labels';

/** An audited value as Auditoría shows it, the notices turned off by their kinds' names. */
export function formatAuditValue(field: string, value: unknown): string {
  return formatAuditValueWith(field, value, CONDITION_LABELS);
}
