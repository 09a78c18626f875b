import { describe, expect, it } from 'vitest';
import { ADMISSION, FairTurn, type FairTurnOptions } from './fair-turn.mjs';

/** A clock the test moves by hand; its timers fire as it passes them. */
function handClock() {
  let now = 0;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 1;
  return {
    now: () => now,
    setTimeout(fn: () => void, ms: number) {
      const timer = { at: now + ms, fn, id: nextId++ };
      timers.push(timer);
      return timer.id;
    },
    clearTimeout(handle: unknown) {
      timers = timers.filter((timer) => timer.id !== handle);
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((timer) => timer !== due);
        now = Math.max(now, due.at);
        due.fn();
      }
      now = until;
    },
  };
}

const OPTIONS: Omit<FairTurnOptions, 'clock'> = { perCallerLimit: 3, pauseFactor: 2, maxPauseMs: 2_000, busyShare: 0.4, windowMs: 1_000, maxHoldMs: 1_000, queueLimit: 100 };

/** A turn whose pages each take `pageMs` of the hand clock, recording who started when. */
function turnWithPages(pageMs: number, options: Partial<FairTurnOptions> = {}) {
  const clock = handClock();
  const turn = new FairTurn({ ...OPTIONS, ...options, clock });
  const started: Array<{ caller: string; at: number }> = [];
  const ask = (caller: string) =>
    turn.enter(caller, (release) => {
      started.push({ caller, at: clock.now() });
      clock.setTimeout(release, pageMs);
    });
  return { clock, turn, started, ask };
}

describe('FairTurn', () => {
  it('refuses a caller past its own limit at once, while another caller still gets in', () => {
    const { ask } = turnWithPages(40);
    expect([ask('flood'), ask('flood'), ask('flood')]).toEqual([ADMISSION.queued, ADMISSION.queued, ADMISSION.queued]);
    expect(ask('flood')).toBe(ADMISSION.callerFull);
    expect(ask('someone else')).toBe(ADMISSION.queued);
  });

  it('starts another caller\'s page as soon as the running one ends, not behind the flood\'s queue or pause', () => {
    const { clock, started, ask } = turnWithPages(40);
    ask('flood');
    ask('flood');
    ask('flood');
    clock.advance(10);
    ask('victim');
    clock.advance(30);
    // The flood's first page ended at 40; the victim's starts then, before the flood's second.
    expect(started.map(({ caller, at }) => `${caller}@${at}`)).toEqual(['flood@0', 'victim@40']);
  });

  it('keeps one caller alone to a third of the time (its pause is twice its last page)', () => {
    const { clock, started, ask, turn } = turnWithPages(40, { perCallerLimit: 100 });
    for (let i = 0; i < 50; i++) ask('flood');
    clock.advance(1_200);
    expect(started.map(({ at }) => at).slice(0, 4)).toEqual([0, 120, 240, 360]);
    expect(turn.size).toBeGreaterThan(0);
  });

  it('holds a crowd of callers to its share of the window, serving them in rotation', () => {
    const { clock, started, ask } = turnWithPages(50, { perCallerLimit: 100 });
    for (let i = 0; i < 20; i++) for (const caller of ['a', 'b', 'c', 'd']) ask(caller);
    clock.advance(10_000);
    const inLastSecond = started.filter(({ at }) => at >= 9_000 && at < 10_000).length;
    // 40 % of a second is eight pages of 50 ms.
    expect(inLastSecond).toBeGreaterThanOrEqual(7);
    expect(inLastSecond).toBeLessThanOrEqual(9);
    expect(started.slice(0, 4).map(({ caller }) => caller)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives the turn up after maxHoldMs, and the page held so long pauses only its own caller', () => {
    const { clock, started, ask } = turnWithPages(5_000);
    ask('export');
    ask('export');
    ask('other');
    clock.advance(1_000);
    expect(started.map(({ caller, at }) => `${caller}@${at}`)).toEqual(['export@0', 'other@1000']);
    clock.advance(1_000);
    // The export's caller waits twice the hold, at most maxPauseMs (2 s).
    expect(started.map(({ caller }) => caller)).toEqual(['export', 'other']);
    clock.advance(1_000);
    expect(started.map(({ caller, at }) => `${caller}@${at}`)).toEqual(['export@0', 'other@1000', 'export@3000']);
  });

  it('refuses everyone once queueLimit requests wait', () => {
    const { ask } = turnWithPages(40, { queueLimit: 2 });
    expect(ask('a')).toBe(ADMISSION.queued); // running
    expect(ask('b')).toBe(ADMISSION.queued);
    expect(ask('c')).toBe(ADMISSION.queued);
    expect(ask('d')).toBe(ADMISSION.turnFull);
  });

  it('forgets callers once their pause is over (its memory does not grow with every session seen)', () => {
    const { clock, ask, turn } = turnWithPages(10);
    for (let i = 0; i < 500; i++) {
      ask(`session-${i}`);
      clock.advance(40);
    }
    clock.advance(5_000);
    ask('last');
    clock.advance(100);
    expect((turn as unknown as { callers: Map<string, unknown> }).callers.size).toBeLessThanOrEqual(1);
  });

  it('with minIntervalMs, starts even instant answers no more often than that, the newest caller first in line', () => {
    const { clock, started, ask } = turnWithPages(0, { minIntervalMs: 5, perCallerLimit: 100 });
    for (let i = 0; i < 100; i++) ask('crowd');
    clock.advance(12);
    ask('person');
    clock.advance(8);
    expect(started.map(({ caller, at }) => `${caller}@${at}`)).toEqual(['crowd@0', 'crowd@5', 'crowd@10', 'person@15', 'crowd@20']);
  });

  it('never pauses a person who reads one page after another, however fast', () => {
    const { clock, started, ask } = turnWithPages(40);
    for (let page = 0; page < 30; page++) {
      ask('person');
      clock.advance(41);
    }
    expect(started).toHaveLength(30);
    expect(started.at(-1)!.at).toBe(29 * 41);
  });

  it('forgets a waiting request whose client went away: it no longer counts against its caller', () => {
    const clock = handClock();
    const turn = new FairTurn({ ...OPTIONS, clock });
    const started: string[] = [];
    const page = (name: string) => (release: () => void) => {
      started.push(name);
      clock.setTimeout(release, 40);
    };
    const gone = page('gone');
    expect(turn.enter('browser', page('first'))).toBe(ADMISSION.queued);
    expect(turn.enter('browser', gone)).toBe(ADMISSION.queued);
    expect(turn.enter('browser', page('third'))).toBe(ADMISSION.queued);
    expect(turn.enter('browser', page('fourth'))).toBe(ADMISSION.callerFull);
    expect(turn.withdraw('browser', gone)).toBe(true);
    expect(turn.withdraw('browser', gone)).toBe(false);
    expect(turn.enter('browser', page('fourth'))).toBe(ADMISSION.queued);
    clock.advance(5_000);
    expect(started).toEqual(['first', 'third', 'fourth']);
  });

  it('with minIntervalMs, paces only a queue: a person alone is answered at once, page after page', () => {
    const { clock, started, ask } = turnWithPages(0, { minIntervalMs: 20 });
    for (let page = 0; page < 5; page++) {
      ask('person');
      clock.advance(3);
    }
    expect(started.map(({ at }) => at)).toEqual([0, 3, 6, 9, 12]);
  });
});
