import { logger } from '@/lib/platform/logging/logger';
import type { Context, NotificationDraft, NotificationKindDeclaration } from './kinds/notice';

// A kind's event heard (lib/root/reactions.ts listens for every kind of the registry): its facts drafted
// in the kind's words and queued through the notifier, after the change that emitted it committed.

const log = logger('integrator-notifications');

/** What a heard notice is queued through: the process's IntegratorNotifier. */
export interface NoticeRecorder {
  readonly settings: Context;
  record(draft: NotificationDraft<string>): Promise<unknown>;
}

/**
 * Subscribes `kind` to the event it is told by, if any; returns the unsubscribe. The recorder is
 * asked for at each event (a test may replace the process's). A failure to queue is logged and the
 * change stands, unless the kind says it fails the event (whose emitter tells it again).
 */
export function listen(kind: NotificationKindDeclaration, recorder: () => NoticeRecorder): (() => void) | undefined {
  const heard = kind.heard;
  if (!heard) return undefined;
  return heard.event.subscribe(async (payload) => {
    let integrationId: number | undefined;
    try {
      const facts = await heard.facts(payload);
      if (facts === null) return;
      const notifier = recorder();
      const draft = kind.draft(facts, notifier.settings);
      integrationId = draft.integrationId;
      await notifier.record(draft);
    } catch (error) {
      if (heard.failsTheEvent) throw error;
      log.error({ err: error, integrationId, kind: kind.kind }, `queuing the ${kind.kind} notification failed`);
    }
  });
}
