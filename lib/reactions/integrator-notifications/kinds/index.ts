// The notice kinds an integrator is told, each declared in its own file beside this one, listed once.
// How to add a notice (tests/operations/notification-kind-exercise.test.ts checks it holds):
//   1. kinds/<kind>.ts: defineNotificationKind({ kind, tipo, contact, label, notice, docs, heard? });
//   2. its line in the list below (where Notificaciones and the documentation show it);
//   3. its value in the alert_condition enum, db/schema/alerts.ts;
//   4. its migration: `npm run db:generate` (db/migrations/NNNN_*.sql, and drizzle's meta files).
// Then `npm run docs:webhook`. The switches, the documentation, the e-mails and the events heard
// (lib/root/reactions.ts) read this list; none keeps a list of its own.
import type { NotificationKind } from './notice';
import { registerNotificationKinds, type EveryKind } from './register';
import { allowListChanged } from './allow-list-changed';
import { autoTopUpPaused } from './auto-top-up-paused';
import { balanceExhausted, balanceLow } from './balance';
import { bulkJobFinished } from './bulk-job-finished';
import { bulkJobPaused } from './bulk-job-paused';
import { invoiceAwaitingReceptor } from './invoice-awaiting-receptor';
import { invoiceIssued } from './invoice-issued';
import { lookupsChanged } from './lookups-changed';
import { onlineTopUpCredited } from './online-top-up-credited';
import { onlineTopUpExpired } from './online-top-up-expired';
import { sourceRecovered, sourceUnavailable } from './source';
import { statementIssued } from './statement-issued';
import { tariffChanged } from './tariff-changed';
import { tokenCreated } from './token-created';
import { tokenExpiring } from './token-expiring';
import { tokenRevoked } from './token-revoked';
import { tokenRotated } from './token-rotated';
import { topUpApproved } from './top-up-approved';
import { topUpRejected } from './top-up-rejected';
import { watchListChanges } from './watch-list-changes';

const listed = [
  balanceLow,
  balanceExhausted,
  statementIssued,
  tokenExpiring,
  tokenRevoked,
  tokenCreated,
  tokenRotated,
  allowListChanged,
  tariffChanged,
  lookupsChanged,
  topUpApproved,
  topUpRejected,
  sourceUnavailable,
  sourceRecovered,
  bulkJobFinished,
  bulkJobPaused,
  watchListChanges,
  invoiceIssued,
  onlineTopUpCredited,
  onlineTopUpExpired,
  autoTopUpPaused,
  invoiceAwaitingReceptor,
];

/** Every kind of the enum, once: one missing, or one not in the enum, does not compile here. */
export const NOTIFICATIONS = registerNotificationKinds<NotificationKind>(listed satisfies EveryKind<typeof listed>);

export type { NotificationKind };
