// The instance's lookup turns: how many run, how many wait, and when the excess is shed.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { LookupAdmission, SHED } from './lookup-admission';

/** Work that runs until the test lets it finish. */
function heldWork() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = { started: false, finish: () => finish() };
  return { work, run: async () => ((work.started = true), await done, 'done') };
}

describe('LookupAdmission', () => {
  it('runs at most `concurrency` at once, lets `maxWaiting` wait in arrival order, and sheds the rest at once', async () => {
    const admission = new LookupAdmission(2, 3);
    const held = Array.from({ length: 5 }, () => heldWork());
    const turns = held.map((each) => admission.tryRun(each.run));
    expect(turns.every((turn) => turn !== SHED)).toBe(true);
    await Promise.resolve();
    expect(held.map((each) => each.work.started)).toEqual([true, true, false, false, false]);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 3 });

    // Full: the sixth is shed without running; nothing of it is queued.
    let shedRan = false;
    expect(admission.tryRun(async () => (shedRan = true))).toBe(SHED);
    expect(shedRan).toBe(false);

    held[0]!.work.finish();
    await turns[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.map((each) => each.work.started)).toEqual([true, true, true, false, false]);
    // A place in the queue is free again.
    expect(admission.tryRun(async () => 'late')).not.toBe(SHED);
    for (const each of held) each.work.finish();
    expect(await Promise.all(turns)).toEqual(['done', 'done', 'done', 'done', 'done']);
  });

  it('runs waiting work in the async context of the lookup that queued it (its request id and trace)', async () => {
    const admission = new LookupAdmission(1, 10);
    const context = new AsyncLocalStorage<string>();
    const blocker = heldWork();
    const first = admission.tryRun(blocker.run);
    const seen = Array.from({ length: 3 }, (_, index) =>
      context.run(`request-${index}`, () => admission.tryRun(async () => context.getStore())),
    );
    blocker.work.finish();
    await first;
    expect(await Promise.all(seen)).toEqual(['request-0', 'request-1', 'request-2']);
  });
});
