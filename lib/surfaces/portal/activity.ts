import { and, desc, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import { db, type Database } from '@/db/client';
import { auditLog, personalDataAccess, portalUsers, queryRecords, type AuditEntry, type PersonalDataAccess } from '@/db/schema';
import { auditChanges, auditFieldLabel, formatAuditValue } from '@/lib/presentation/audit-labels';
import { AUDIT_ACTION_LABELS } from '@/lib/presentation/labels';
import { CONDITION_LABELS } from '@/lib/reactions/integrator-notifications/labels';
import { beyondCursor, cursorInstant, decodeCursor, encodeCursor, type KeysetCursor } from '@/lib/platform/paging/keyset';
import type { PortalUserSession } from './session';

// "Actividad" (owners only): who did what to the integration, from the audit log (its tokens,
// settings, team, jobs and deposits, whether by its people or by the service's staff) and from the
// personal-data access log (identifiers revealed, results downloaded by its people). Staff are
// "Administración", as on Movimientos; sign-ins and mistyped codes are left to each person's account.

export const ACTIVITY_PAGE_SIZE = 50;

/** Audit rows about the integration's people that record no change: sign-ins and their failures. */
export const ACTIVITY_HIDDEN_ACTIONS = [
  'portal_user.sign_in',
  'portal_user.sign_in_identity_provider',
  'portal_user.sign_in_failed',
  'portal_user.sign_in_locked',
  'portal_user.sign_in_second_factor',
  'portal_user.second_factor_failed',
  'portal_user.second_factor_locked',
  'portal_user.end_session',
  'portal_user.request_password_reset',
  'portal_user.change_password_failed',
  'portal_user.change_password_locked',
];

/** Fields of an audit row the portal does not show: staff's own bookkeeping, internal ids, a hand-over's reason. */
const HIDDEN_FIELDS = new Set(['invitedBy', 'reason', 'sessions', 'sessionsEnded', 'integrationId', 'tokenId', 'passwordChangedAt', 'note', 'ledgerEntryId', 'provider', 'providerPaymentId', 'source', 'sourcePaymentId']);

export const ACTIVITY_WORDS = {
  staff: 'Administración',
  system: 'Sistema',
  nobody: 'Sin sesión iniciada',
  api: 'La API (con un token de la integración)',
  reveal: 'Mostró los identificadores de una consulta',
  downloadResults: 'Descargó los resultados de un lote (con identificadores)',
  export: 'Exportó consultas con identificadores completos',
} as const;

export interface ActivityEntry {
  /** Unique across both logs, for React's keys. */
  key: string;
  at: Date;
  who: string;
  what: string;
  /** The fields changed or what was reached, in words; never an identifier (NIT, CUI). */
  detail: string | null;
  /** The page the entry points at, when there is one (a query, a job). */
  link?: { href: string; label: string };
}

export interface ActivityPage {
  rows: ActivityEntry[];
  older?: string;
}

interface Member {
  id: number;
  name: string;
  email: string;
}

type Positioned<T> = { entry: T; cursorTimestamp: string };

/** The integration's audit rows (its own target), newest first: a backward scan of audit_log_target_idx. */
export function integrationActivityQuery(database: Database, integrationId: number, cursor: KeysetCursor | undefined, limit: number) {
  return auditStream(database, and(eq(auditLog.targetType, 'integration'), eq(auditLog.targetId, String(integrationId)))!, cursor, limit);
}

/** One of its people's audit rows (role changes, removal, second factor, password), through the same index. */
export function memberActivityQuery(database: Database, memberId: number, cursor: KeysetCursor | undefined, limit: number) {
  return auditStream(
    database,
    and(eq(auditLog.targetType, 'portal_user'), eq(auditLog.targetId, String(memberId)), notInArray(auditLog.action, ACTIVITY_HIDDEN_ACTIONS))!,
    cursor,
    limit,
  );
}

function auditStream(database: Database, where: SQL, cursor: KeysetCursor | undefined, limit: number) {
  return database
    .select({ entry: auditLog, cursorTimestamp: cursorInstant(auditLog.createdAt) })
    .from(auditLog)
    .where(cursor ? and(where, beyondCursor(auditLog.createdAt, auditLog.id, cursor, 'older')) : where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit);
}

/**
 * The access log's entries by the integration's people (actor 'integrator:<user> <integration> …'),
 * newest first through personal_data_access_integrator_idx. The predicate is written as the
 * index's, a literal: a parameter there would keep the planner from using the partial index.
 */
export function accessActivityQuery(database: Database, integrationId: number, cursor: KeysetCursor | undefined, limit: number) {
  const conditions: SQL[] = [sql`${personalDataAccess.actor} like 'integrator:%'`, sql`split_part(${personalDataAccess.actor}, ' ', 2) = ${String(integrationId)}`];
  if (cursor) conditions.push(beyondCursor(personalDataAccess.createdAt, personalDataAccess.id, cursor, 'older'));
  return database
    .select({ entry: personalDataAccess, requestId: queryRecords.requestId, cursorTimestamp: cursorInstant(personalDataAccess.createdAt) })
    .from(personalDataAccess)
    .leftJoin(queryRecords, eq(queryRecords.id, personalDataAccess.recordId))
    .where(and(...conditions))
    .orderBy(desc(personalDataAccess.createdAt), desc(personalDataAccess.id))
    .limit(limit);
}

/** Newer first on (created_at, id); the cursor text keeps microseconds, so it compares as text. */
function newerFirst(a: { cursorTimestamp: string; id: number }, b: { cursorTimestamp: string; id: number }): number {
  if (a.cursorTimestamp !== b.cursorTimestamp) return a.cursorTimestamp < b.cursorTimestamp ? 1 : -1;
  return b.id - a.id;
}

/**
 * One page of the session's integration's activity, newest first, paged by a keyset cursor on
 * (created_at, id) across both logs: each log is read up to a page past the cursor and the two
 * merged. The integration comes from the session only.
 */
export async function portalActivityPage(user: Pick<PortalUserSession, 'integrationId'>, query: { despues?: string | string[] }, pageSize = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  const database = await db();
  const cursor = decodeCursor(typeof query.despues === 'string' ? query.despues : undefined);
  const members: Member[] = await database
    .select({ id: portalUsers.id, name: portalUsers.name, email: portalUsers.email })
    .from(portalUsers)
    .where(eq(portalUsers.integrationId, user.integrationId));
  const limit = pageSize + 1;
  const [integrationRows, memberRows, accessRows] = await Promise.all([
    integrationActivityQuery(database, user.integrationId, cursor, limit),
    Promise.all(members.map((member) => memberActivityQuery(database, member.id, cursor, limit))),
    accessActivityQuery(database, user.integrationId, cursor, limit),
  ]);
  const names = new Map(members.map((member) => [member.id, member]));
  const merged = [
    ...[...integrationRows, ...memberRows.flat()].map((row: Positioned<AuditEntry>) => ({ cursorTimestamp: row.cursorTimestamp, id: row.entry.id, view: () => auditActivity(row.entry, names) })),
    ...accessRows.map((row) => ({ cursorTimestamp: row.cursorTimestamp, id: row.entry.id, view: () => accessActivity(row.entry, row.requestId, names) })),
  ].sort(newerFirst);
  const page = merged.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page.map((row) => row.view()),
    older: merged.length > pageSize && last ? encodeCursor({ createdAt: last.cursorTimestamp, id: last.id }) : undefined,
  };
}

/** Who, as an owner reads it: their own people by name and e-mail, the service's staff as "Administración". */
export function activityActor(actor: string | null, members: Map<number, Member>): string {
  if (!actor) return ACTIVITY_WORDS.staff;
  const integrator = /^integrator:(\d+) \d+ (\S+)/.exec(actor);
  if (integrator) {
    const member = members.get(Number(integrator[1]));
    return member ? `${member.name} (${member.email})` : integrator[2]!;
  }
  if (actor === 'anonymous') return ACTIVITY_WORDS.nobody;
  if (actor.startsWith('api:')) return ACTIVITY_WORDS.api;
  if (actor === 'system' || actor.startsWith('system:')) return ACTIVITY_WORDS.system;
  return ACTIVITY_WORDS.staff;
}

function auditActivity(entry: AuditEntry, members: Map<number, Member>): ActivityEntry {
  const changes = auditChanges(entry).filter((change) => !HIDDEN_FIELDS.has(change.field));
  const detail = changes
    .map((change) =>
      change.stated || change.after === undefined
        ? `${auditFieldLabel(change.field, entry.targetType)}: ${formatAuditValue(change.field, change.stated ? change.after : change.before, CONDITION_LABELS)}`
        : `${auditFieldLabel(change.field, entry.targetType)}: ${formatAuditValue(change.field, change.before, CONDITION_LABELS)} → ${formatAuditValue(change.field, change.after, CONDITION_LABELS)}`,
    )
    .join('; ');
  return {
    key: `audit-${entry.id}`,
    at: entry.createdAt,
    who: activityActor(entry.actor, members),
    what: AUDIT_ACTION_LABELS[entry.action] ?? entry.action,
    detail: detail || null,
  };
}

function accessActivity(entry: PersonalDataAccess, requestId: string | null, members: Map<number, Member>): ActivityEntry {
  const details = (entry.details ?? {}) as Record<string, unknown>;
  const reason = entry.reason ? `Motivo: ${entry.reason}` : null;
  const base = { key: `access-${entry.id}`, at: entry.createdAt, who: activityActor(entry.actor, members) };
  if (entry.kind === 'reveal') {
    return {
      ...base,
      what: ACTIVITY_WORDS.reveal,
      detail: [requestId ? `Consulta ${requestId}` : 'Una consulta ya depurada', reason].filter(Boolean).join('; '),
      link: requestId ? { href: `/portal/consultas/${encodeURIComponent(requestId)}`, label: requestId } : undefined,
    };
  }
  if (typeof details.lote === 'string') {
    const rows = typeof details.rows === 'number' ? `${details.rows.toLocaleString('es-GT')} filas` : null;
    return {
      ...base,
      what: ACTIVITY_WORDS.downloadResults,
      detail: [`Lote ${details.lote}`, rows, reason].filter(Boolean).join('; '),
      link: { href: `/portal/lotes/${encodeURIComponent(details.lote)}`, label: `Lote ${details.lote}` },
    };
  }
  return { ...base, what: ACTIVITY_WORDS.export, detail: reason };
}
