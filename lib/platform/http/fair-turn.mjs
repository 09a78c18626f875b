// A turn that pages rendered per request take, so that however many connections ask for them they
// hold a bounded share of an instance's event loop (the lookups keep the rest), and so that one
// caller asking as fast as it is answered waits behind itself, not in front of everyone else.
//
// - One page at a time: CPU-heavy renders do not pile up on one event loop.
// - Each caller (a session, or a signed-out address) has at most `perCallerLimit` requests running
//   or waiting; past that it is refused at once (the server answers 429), never queued.
// - A caller that asks for several pages at once (its next one waits while one runs): after its
//   page took X ms, its next starts no sooner than X × pauseFactor later (at most maxPauseMs), so
//   it holds at most 1 / (1 + pauseFactor) of the loop. A person reading one page after another
//   never waits for a pause.
// - While several callers wait, all of them together hold at most `busyShare` of the loop,
//   measured over the last `windowMs`. It is above one caller's own share, so another caller
//   beside a flood starts at once; a crowd of many callers meets it and waits.
// - When several wait, the one served least recently goes first (round robin over callers).
// - A page holding the turn longer than maxHoldMs (an export streaming) gives it up and finishes on
//   its own; it counts for half the shared window at most.
// - With minIntervalMs, while others wait, pages start no more often than that: answers too cheap
//   for the window to see (a cached page) are paced by their count instead.

/** How a request fared on arriving at the turn. */
export const ADMISSION = Object.freeze({
  /** Started at once, or queued: `onStart` is called when its turn comes. */
  queued: 'queued',
  /** This caller already has `perCallerLimit` requests running or waiting. */
  callerFull: 'caller-full',
  /** `queueLimit` requests wait already. */
  turnFull: 'turn-full',
});

export class FairTurn {
  /**
   * @param {{ perCallerLimit: number, pauseFactor: number, maxPauseMs: number, busyShare: number,
   *   windowMs: number, maxHoldMs: number, queueLimit: number, clock?: { now(): number,
   *   setTimeout(fn: () => void, ms: number): unknown, clearTimeout(handle: unknown): void } }} options
   */
  constructor(options) {
    this.options = options;
    this.clock = options.clock ?? { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(handle) };
    /** @type {Map<string, { waiting: Array<(release: () => void) => void>, running: number, readyAt: number, lastStartedAt: number }>} */
    this.callers = new Map();
    this.running = 0;
    this.waiting = 0;
    /** Finished pages' [start, end] within the last window, oldest first. */
    this.recent = [];
    this.timer = undefined;
    this.timerAt = Infinity;
    this.lastStartAt = -Infinity;
  }

  /**
   * Asks for a turn for `callerKey`. On ADMISSION.queued, `onStart(release)` is called once the turn
   * is this request's (possibly at once, synchronously); `release` must then be called when the
   * page is done or abandoned (more than once is harmless).
   */
  enter(callerKey, onStart) {
    let caller = this.callers.get(callerKey);
    if (caller && caller.waiting.length + caller.running >= this.options.perCallerLimit) return ADMISSION.callerFull;
    if (this.waiting >= this.options.queueLimit) return ADMISSION.turnFull;
    if (!caller) {
      caller = { waiting: [], running: 0, readyAt: 0, lastStartedAt: -Infinity };
      this.callers.set(callerKey, caller);
    }
    caller.waiting.push(onStart);
    this.waiting++;
    this.pump();
    return ADMISSION.queued;
  }

  /**
   * Takes back a request still waiting (its client went away): it no longer counts against its
   * caller's bound. False when it is not waiting (it has started, or was never queued).
   */
  withdraw(callerKey, onStart) {
    const caller = this.callers.get(callerKey);
    const index = caller ? caller.waiting.indexOf(onStart) : -1;
    if (index < 0) return false;
    caller.waiting.splice(index, 1);
    this.waiting--;
    if (caller.waiting.length === 0 && caller.running === 0 && caller.readyAt <= this.clock.now()) this.callers.delete(callerKey);
    return true;
  }

  /** Requests running or waiting, for the metrics and tests. */
  get size() {
    return this.running + this.waiting;
  }

  pump() {
    if (this.running > 0 || this.waiting === 0) return;
    const now = this.clock.now();
    // Spacing paces a queue: a request with nobody else waiting starts at once.
    const spacedAt = this.waiting > 1 ? this.lastStartAt + (this.options.minIntervalMs ?? 0) : now;
    if (spacedAt > now) {
      this.wakeAt(spacedAt);
      return;
    }
    let callersWaiting = 0;
    for (const caller of this.callers.values()) if (caller.waiting.length > 0 && ++callersWaiting > 1) break;
    const budgetAt = callersWaiting > 1 ? this.budgetFreeAt(now) : now;
    if (budgetAt > now) {
      this.wakeAt(budgetAt);
      return;
    }
    let chosen;
    let chosenKey;
    let earliestReady = Infinity;
    for (const [key, caller] of this.callers) {
      if (caller.waiting.length === 0) {
        if (caller.running === 0 && caller.readyAt <= now) this.callers.delete(key);
        continue;
      }
      if (caller.readyAt > now) {
        earliestReady = Math.min(earliestReady, caller.readyAt);
        continue;
      }
      if (!chosen || caller.lastStartedAt < chosen.lastStartedAt) {
        chosen = caller;
        chosenKey = key;
      }
    }
    if (!chosen) {
      this.wakeAt(earliestReady);
      return;
    }
    this.start(chosenKey, chosen, now);
  }

  start(key, caller, now) {
    const onStart = caller.waiting.shift();
    this.waiting--;
    this.running++;
    this.lastStartAt = now;
    caller.running++;
    caller.lastStartedAt = now;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.clock.clearTimeout(holdLimit);
      const end = this.clock.now();
      const took = end - now;
      this.running--;
      caller.running--;
      if (caller.waiting.length > 0) caller.readyAt = Math.max(caller.readyAt, end + Math.min(this.options.pauseFactor * took, this.options.maxPauseMs));
      if (caller.running === 0 && caller.waiting.length === 0 && caller.readyAt <= end) this.callers.delete(key);
      // One long page (an export) counts for half the window's share at most: it does not hold
      // everyone else's pages back by itself.
      this.recent.push([Math.max(now, end - (this.options.busyShare * this.options.windowMs) / 2), end]);
      this.pump();
    };
    const holdLimit = this.clock.setTimeout(release, this.options.maxHoldMs);
    onStart(release);
  }

  /** When the pages of the last window leave room for another: `now` if they do already. */
  budgetFreeAt(now) {
    const { windowMs, busyShare } = this.options;
    const windowStart = now - windowMs;
    while (this.recent.length > 0 && this.recent[0][1] <= windowStart) this.recent.shift();
    let busy = 0;
    for (const [start, end] of this.recent) busy += end - Math.max(start, windowStart);
    let excess = busy - busyShare * windowMs;
    if (excess < 0) return now;
    // As the window slides on, its trailing edge uncovers the oldest pages' time first.
    for (const [start, end] of this.recent) {
      const from = Math.max(start, windowStart);
      if (end - from > excess) return from + excess + windowMs + 1;
      excess -= end - from;
    }
    return now + 1;
  }

  wakeAt(at) {
    if (at === Infinity || (this.timer !== undefined && this.timerAt <= at)) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, Math.max(0, at - this.clock.now()));
  }
}
