// Records this instance's breaker openings and closings (source_breaker_transitions), so the public
// status page and every instance see the incidents. The upstream clients never touch the database:
// the server subscribes this to the guards at start (lib/root/startup.ts). Writes leave the breaker's
// event at once and go in order, off the request path; a write the database refuses is retried on
// the next confirmation, with the instant the breaker changed, not the instant it was written.
import { and, eq, inArray } from 'drizzle-orm';
import { db } from '@/db/client';
import { sourceBreakerTransitions, type BreakerTransition } from '@/db/schema';
import { INSTANCE_NAME } from '@/lib/platform/jobs/lease';
import { runAsJob } from '@/lib/platform/jobs/context';
import { logger } from '@/lib/platform/logging/logger';
import { SOURCE_NAMES, type SourceGuard, type SourceName } from '@/lib/sources/guard';
import { CONFIRM_INTERVAL_MS } from './incidents';
import { peekProcessSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

const log = logger('status-page');

interface PendingTransition {
  source: SourceName;
  transition: BreakerTransition;
  at: Date;
}

export class BreakerTransitionRecorder {
  /** Sources whose breaker this instance has open (or half-open: not yet shown to be back). */
  private readonly open = new Set<SourceName>();
  /** The row of each open breaker's opening, once written: confirmed while it stays open. */
  private readonly openingRows = new Map<SourceName, number>();
  private readonly pending: PendingTransition[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly instance: string = INSTANCE_NAME,
    private readonly now: () => Date = () => new Date(),
  ) {}

  watch(guards: Record<SourceName, SourceGuard>): void {
    for (const source of SOURCE_NAMES) guards[source].onStateChange((state) => this.note(source, state));
  }

  /** A breaker's new state. Half-open keeps the incident: only a successful probe closes it. */
  note(source: SourceName, state: 'open' | 'half_open' | 'closed'): void {
    if (state === 'open' && !this.open.has(source)) {
      this.open.add(source);
      this.pending.push({ source, transition: 'opened', at: this.now() });
    } else if (state === 'closed' && this.open.has(source)) {
      this.open.delete(source);
      this.pending.push({ source, transition: 'closed', at: this.now() });
    } else {
      return;
    }
    void this.flush();
  }

  /** Writes what is pending, in order; resolves when done or when the database refused (kept for later). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writePending());
    return this.writing;
  }

  /** Says again that this instance's open breakers are open (and writes what is pending). */
  async confirm(): Promise<void> {
    await this.flush();
    const rows = [...this.openingRows.values()];
    if (rows.length === 0) return;
    try {
      await (await db()).update(sourceBreakerTransitions).set({ confirmedAt: this.now() }).where(inArray(sourceBreakerTransitions.id, rows));
    } catch (error) {
      log.warn({ err: error }, 'confirming open breakers failed; retried at the next confirmation');
    }
  }

  private async writePending(): Promise<void> {
    while (this.pending.length > 0) {
      const next = this.pending[0]!;
      try {
        await this.write(next);
      } catch (error) {
        log.warn({ err: error, source: next.source, transition: next.transition }, 'recording a breaker transition failed; retried at the next confirmation');
        return;
      }
      this.pending.shift();
    }
  }

  private async write({ source, transition, at }: PendingTransition): Promise<void> {
    const handle = await db();
    if (transition === 'opened') {
      const [row] = await handle
        .insert(sourceBreakerTransitions)
        .values({ instance: this.instance, source, transition, at, confirmedAt: at })
        .returning({ id: sourceBreakerTransitions.id });
      this.openingRows.set(source, row!.id);
      return;
    }
    const opening = this.openingRows.get(source);
    await handle.transaction(async (tx) => {
      await tx.insert(sourceBreakerTransitions).values({ instance: this.instance, source, transition, at, confirmedAt: at });
      // The opening was open until now: readers that look at confirmations since an instant find it.
      if (opening !== undefined) {
        await tx
          .update(sourceBreakerTransitions)
          .set({ confirmedAt: at })
          .where(and(eq(sourceBreakerTransitions.id, opening), eq(sourceBreakerTransitions.instance, this.instance)));
      }
    });
    this.openingRows.delete(source);
  }
}

/** Subscribes the recorder to this process's guards and confirms its open breakers periodically (once per process). */
export function recordBreakerTransitions(guards: Record<SourceName, SourceGuard>): BreakerTransitionRecorder {
  const running = peekProcessSlot<{ recorder: BreakerTransitionRecorder; timer: NodeJS.Timeout }>('breakerTransitionRecorder');
  if (running) return running.recorder;
  const recorder = new BreakerTransitionRecorder();
  recorder.watch(guards);
  const timer = runAsJob('breaker-transitions', () => setInterval(() => void recorder.confirm(), CONFIRM_INTERVAL_MS));
  timer.unref();
  setProcessSlot('breakerTransitionRecorder', { recorder, timer });
  return recorder;
}
