// The idle collection: a full collection once each time the instance stays quiet for its quiet
// period with its resident memory grown by GROWN_BY_BYTES since the last; never while it is busy or after a
// shorter lull, never twice for one growth.
import { describe, expect, it } from 'vitest';
import { GROWN_BY_BYTES, idleCollector, QUIET_UTILIZATION } from './idle-collection';

const MIB = 1_048_576;

/** An instance whose resident memory and event loop the test sets, and whose collections it counts (a collection leaves `afterCollection`). */
function instance(startHeld: number, afterCollection = startHeld, quietLooks = 1) {
  const state = { held: startHeld, busy: 0, collections: 0 };
  const look = idleCollector({
    resident: () => state.held,
    busyShare: () => state.busy,
    collect: async () => {
      state.collections += 1;
      state.held = afterCollection;
    },
  }, quietLooks);
  return { state, look };
}

describe('the idle collection', () => {
  it('collects once when the instance goes quiet with its memory grown, not again until it grows again', async () => {
    const { state, look } = instance(60 * MIB, 55 * MIB);
    // A burst: the memory grows while the event loop is busy.
    state.busy = 0.9;
    state.held = 122 * MIB;
    expect(await look()).toBe(false);
    // Quiet: one collection, which gives the memory back.
    state.busy = 0.01;
    expect(await look()).toBe(true);
    expect(state.held).toBe(55 * MIB);
    expect(await look()).toBe(false);
    // Grown less than GROWN_BY_BYTES since: nothing.
    state.held = 55 * MIB + GROWN_BY_BYTES - 1;
    expect(await look()).toBe(false);
    state.held = 55 * MIB + GROWN_BY_BYTES;
    expect(await look()).toBe(true);
    expect(state.collections).toBe(2);
  });

  it('waits for the whole quiet period: a lull between two bursts collects nothing', async () => {
    const { state, look } = instance(60 * MIB, 55 * MIB, 12);
    state.held = 150 * MIB;
    // Eleven quiet looks, then a burst: the count starts again.
    for (let n = 0; n < 11; n++) expect(await look()).toBe(false);
    state.busy = 0.5;
    expect(await look()).toBe(false);
    state.busy = 0;
    for (let n = 0; n < 11; n++) expect(await look()).toBe(false);
    expect(state.collections).toBe(0);
    // The twelfth quiet look in a row collects.
    expect(await look()).toBe(true);
    expect(state.collections).toBe(1);
  });

  it('never collects while the event loop is busier than its quiet share', async () => {
    const { state, look } = instance(60 * MIB);
    state.held = 200 * MIB;
    state.busy = QUIET_UTILIZATION + 0.01;
    for (let n = 0; n < 5; n++) expect(await look()).toBe(false);
    expect(state.collections).toBe(0);
  });

  it('counts growth from what V8 gave back on its own', async () => {
    const { state, look } = instance(120 * MIB, 50 * MIB);
    // V8's memory reducer brought the memory down to 60 MiB: 90 is 30 MiB of growth, not enough.
    state.held = 60 * MIB;
    expect(await look()).toBe(false);
    state.held = 90 * MIB;
    expect(await look()).toBe(false);
    state.held = 60 * MIB + GROWN_BY_BYTES;
    expect(await look()).toBe(true);
  });

  it('starts no second collection while one runs', async () => {
    let finish: () => void = () => {};
    let collections = 0;
    const state = { held: 50 * MIB };
    const look = idleCollector({
      resident: () => state.held,
      busyShare: () => 0,
      collect: () => {
        collections += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    }, 1);
    state.held = 150 * MIB;
    const first = look();
    expect(await look()).toBe(false);
    finish();
    expect(await first).toBe(true);
    expect(collections).toBe(1);
  });
});
