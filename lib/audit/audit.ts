import type { Database } from '@/db/client';
import { auditLog } from '@/db/schema';

/** Who made a change: a console user, the operator CLI, or the system itself (seed, sweeper). */
export type Actor = { kind: 'user'; id: number; email: string } | { kind: 'cli'; name?: string } | { kind: 'system'; name: string };

export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.id} ${actor.email}`;
    case 'cli':
      return actor.name ? `cli:${actor.name}` : 'cli';
    case 'system':
      return `system:${actor.name}`;
  }
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

export interface AuditChange {
  action: string;
  targetType: 'integration' | 'console_user';
  targetId: string | number;
  before: unknown;
  after: unknown;
}

/** Writes one audit row; call it inside the transaction that makes the change. Returns its id. */
export async function writeAudit(executor: Executor, actor: Actor, change: AuditChange): Promise<number> {
  const [row] = await executor
    .insert(auditLog)
    .values({
    actor: describeActor(actor),
    action: change.action,
    targetType: change.targetType,
    targetId: String(change.targetId),
    before: change.before ?? null,
    after: change.after ?? null,
  })
    .returning({ id: auditLog.id });
  return row!.id;
}
