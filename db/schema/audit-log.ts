import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // Who: 'user:<id> <email>' for console users, 'cli' for the operator CLI, 'system' for seeds,
    // 'anonymous' for sign-in attempts (nobody is signed in yet).
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // The audit page lists newest first (a backward scan gives created_at DESC, id DESC),
    // optionally for one target.
    index('audit_log_created_idx').on(table.createdAt, table.id),
    index('audit_log_target_idx').on(table.targetType, table.targetId, table.createdAt, table.id),
    // The "Cambio" filter: failed sign-ins can outnumber every other row by far, and a rare change
    // must not be looked for by walking past all of them.
    index('audit_log_action_idx').on(table.action, table.createdAt, table.id),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;
