import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { Executor } from '@/lib/core/audit/audit';

/**
 * The PostgreSQL channel every credential change is announced on. Each instance LISTENs to it
 * (lib/core/integrations/directory.ts) and reloads its copy of the credentials at once, so a revoked
 * token stops working on every instance within a round trip, not a refresh interval later.
 */
export const CREDENTIALS_CHANNEL = 'gateway_credentials_changed';

/**
 * Announces a change inside the transaction that makes it: PostgreSQL delivers the notification
 * only when the transaction commits (and never if it rolls back), so no instance reloads before
 * the change is visible.
 */
export async function announceCredentialChange(executor: Executor): Promise<void> {
  await executor.execute(sql`select pg_notify(${CREDENTIALS_CHANNEL}, '')`);
}

/**
 * Calls `onChange` whenever another process announces a change, and `onReconnect` when the
 * listening connection was (re)established (notifications sent while it was down are lost, so
 * the caller reloads then). On the embedded database this process shares, the CLI's change is
 * answered to the CLI once `onChange`'s promise settles (db/embedded-share.ts). Returns a function
 * that stops listening, or undefined when this database cannot deliver notifications across
 * processes (the directory's periodic reload is then the only bound).
 */
export async function listenForCredentialChanges(onChange: () => void | Promise<void>, onReconnect: () => void): Promise<(() => Promise<void>) | undefined> {
  const handle = await database();
  if (!handle.listen) return undefined;
  return handle.listen(CREDENTIALS_CHANNEL, onChange, onReconnect);
}
