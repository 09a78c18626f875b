import { runAsJob } from './context';
import { acquireJobLease, releaseJobLease } from './lease';
import { processSlot } from '@/lib/platform/runtime/process-state';
import { withinHours, type HourWindow } from './daily-hours';

export interface PeriodicJob {
  /** The lease's name: one run at a time across every instance sharing the database. */
  name: string;
  /** How often the group runs it (each instance checks this often, with some jitter). */
  everyMs: number;
  /** How long a run may take before another instance may assume the holder died. */
  leaseMs: number;
  run(): Promise<void>;
  /** Told about a failed run; the job is tried again at its next check. */
  onError(error: unknown): void;
  /** The hours (Guatemala time) a run may start in; absent, any hour. A run started in them may end after. */
  hours?: HourWindow;
}

/** How often a job confined to some hours looks whether it may start: it starts this late into them at most. */
const WINDOW_CHECK_MS = 10 * 60_000;

interface Scheduled {
  timers: Map<string, NodeJS.Timeout>;
  /** The runs under way (a lease taken, a run, its release). */
  running: Set<Promise<void>>;
}

const scheduled = processSlot<Scheduled>('jobs', () => ({ timers: new Map(), running: new Set() }));

/**
 * Runs a job periodically on whichever instance takes its lease (lib/platform/jobs/lease.ts). A job that
 * is already scheduled in this process is not scheduled twice (hot reloads, duplicate bundles).
 */
export function schedulePeriodicJob(job: PeriodicJob): void {
  if (scheduled.timers.has(job.name)) return;
  // The timer, and so every run, carries the job's log context, not the caller's.
  runAsJob(job.name, () => scheduleRuns(job));
}

function scheduleRuns(job: PeriodicJob): void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      if (job.hours && !withinHours(job.hours, new Date())) return;
      if (!(await acquireJobLease(job.name, job.everyMs, job.leaseMs))) return;
      let finished = false;
      try {
        await job.run();
        finished = true;
      } finally {
        await releaseJobLease(job.name, finished);
      }
    } catch (error) {
      job.onError(error);
    } finally {
      running = false;
    }
  };
  const tracked = () => {
    const run = tick();
    scheduled.running.add(run);
    void run.finally(() => scheduled.running.delete(run));
  };
  // Jitter spreads the instances' checks so they do not all ask at the same instant. A job confined
  // to some hours looks more often than it runs; the lease says whether it is due.
  const checkEveryMs = job.hours ? Math.min(job.everyMs, WINDOW_CHECK_MS) : job.everyMs;
  const timer = setInterval(tracked, checkEveryMs + Math.floor(Math.random() * Math.min(checkEveryMs / 10, 1_000)));
  timer.unref();
  scheduled.timers.set(job.name, timer);
  tracked();
}

/**
 * Stops every job this process scheduled (tests, graceful shutdown); settles once the runs under
 * way have released their leases, so nothing is still writing when the database goes.
 */
export async function stopPeriodicJobs(): Promise<void> {
  for (const timer of scheduled.timers.values()) clearInterval(timer);
  scheduled.timers.clear();
  await Promise.all(scheduled.running);
}
