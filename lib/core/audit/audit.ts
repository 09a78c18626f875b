import type { Executor } from '@/db/client';
import { auditLog } from '@/db/schema';
import { claimSubmission } from '@/lib/core/submissions/claim';

/**
 * Who made a change: a console user, a person of an integrator in the portal (with the integration
 * they belong to, as it was named then), the operator CLI, the system itself (seed, sweeper), or
 * someone not signed in (a sign-in attempt: who typed the e-mail is exactly what is not known).
 */
export type Actor =
  | { kind: 'user'; id: number; email: string }
  | IntegratorActor
  /** An integration's own system, through the API with its token: no person is known. */
  | { kind: 'api'; integrationId: number; integrationName: string }
  | { kind: 'cli'; name?: string }
  | { kind: 'system'; name: string }
  | { kind: 'anonymous' };

/** A portal user (lib/surfaces/portal): "Integrador: correo (integración)" on the audit page. */
export interface IntegratorActor {
  kind: 'integrator';
  id: number;
  email: string;
  integrationId: number;
  integrationName: string;
}

/** Someone signed in with their own account, in the console or in the portal. */
export type PersonActor = Extract<Actor, { kind: 'user' | 'integrator' }>;

/** The actor column of sign-in attempts. */
export const ANONYMOUS_ACTOR = 'anonymous';

export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.id} ${actor.email}`;
    case 'integrator':
      // The integration's id first: the audit page filters by it; its name, as it was, last.
      return `integrator:${actor.id} ${actor.integrationId} ${actor.email} (${actor.integrationName})`;
    case 'api':
      return `api:${actor.integrationId} (${actor.integrationName})`;
    case 'cli':
      return actor.name ? `cli:${actor.name}` : 'cli';
    case 'system':
      return `system:${actor.name}`;
    case 'anonymous':
      return ANONYMOUS_ACTOR;
  }
}

export type { Executor };

export interface AuditChange {
  action: string;
  /** 'ledger': the reconciliation of every integration (target id 'all'); 'alerts': the administrators' alert channels. */
  targetType: 'integration' | 'console_user' | 'portal_user' | 'ledger' | 'alerts';
  /** For a sign-in with an e-mail no account has: NO_ACCOUNT (the e-mail itself is never kept). */
  targetId: string | number;
  before: unknown;
  after: unknown;
}

/** The target id of a sign-in attempt on an e-mail that belongs to no account. */
export const NO_ACCOUNT = '';

/** Writes one audit row; call it inside the transaction that makes the change. Returns its id. */
export async function writeAudit(executor: Executor, actor: Actor, change: AuditChange): Promise<number> {
  // A form's sending makes its change once, on any instance: its key commits with this entry.
  await claimSubmission(executor);
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
