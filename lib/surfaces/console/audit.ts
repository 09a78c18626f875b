import { and, desc, eq, gte, like, lt, or, type SQL } from 'drizzle-orm';
import { db, type Database } from '@/db/client';
import { auditLog, type AuditEntry } from '@/db/schema';
import { NO_ACCOUNT } from '@/lib/core/audit/audit';
import { ACCESS_EVENT_ACTIONS } from '@/lib/flows/auth/access-audit';
import { listConsoleUsers } from '@/lib/flows/auth/users';
import { portalUserEmails } from '@/lib/flows/portal-identity/accounts';
import { integrationNames } from '@/lib/surfaces/console/integrations';
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

/**
 * Whom an audit page names: the console's users (by id), the integrations on the page (and the one
 * chosen in the filter) and the portal users on it, only those: there can be thousands.
 */
export async function auditPageNames(rows: AuditEntry[], chosenIntegration: number | undefined) {
  const onPage = rows.filter((entry) => entry.targetType === 'integration' && /^\d{1,9}$/.test(entry.targetId)).map((entry) => Number(entry.targetId));
  const portalUsersOnPage = rows.filter((entry) => entry.targetType === 'portal_user' && /^\d{1,9}$/.test(entry.targetId)).map((entry) => Number(entry.targetId));
  const [users, names, portalEmails] = await Promise.all([
    listConsoleUsers(),
    integrationNames(chosenIntegration === undefined ? onPage : [...onPage, chosenIntegration]),
    portalUserEmails(portalUsersOnPage),
  ]);
  return { users, names, portalEmails };
}

/** Whether a changed object is an e-mail no account has (a refused sign-in: the e-mail itself is never kept). */
export function isNoAccount(targetId: string): boolean {
  return targetId === NO_ACCOUNT;
}

/** Whether an entry is a sign-in or sign-out (nothing changed, so no differences to show). */
export function isAccessEvent(action: string): boolean {
  return ACCESS_EVENT_ACTIONS.has(action);
}

export { auditChanges, type AuditFieldChange } from '@/lib/presentation/audit-labels';

/** An audited value as Auditoría shows it, the notices turned off by their kinds' names. */
export function formatAuditValue(field: string, value: unknown): string {
  return formatAuditValueWith(field, value, CONDITION_LABELS);
}
