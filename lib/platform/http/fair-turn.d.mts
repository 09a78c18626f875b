/** How a request fared on arriving at a FairTurn. */
export declare const ADMISSION: {
  readonly queued: 'queued';
  readonly callerFull: 'caller-full';
  readonly turnFull: 'turn-full';
};
export type Admission = (typeof ADMISSION)[keyof typeof ADMISSION];

export interface TurnClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface FairTurnOptions {
  /** Requests one caller may have running or waiting; more are refused at once. */
  perCallerLimit: number;
  /** A caller's next page waits this multiple of its last page's time. */
  pauseFactor: number;
  /** The longest such pause. */
  maxPauseMs: number;
  /** The share of the last window all pages together may hold (0 to 1). */
  busyShare: number;
  windowMs: number;
  /** The longest a page holds the turn; a slower one finishes on its own. */
  maxHoldMs: number;
  /** The least time between two starts, whatever they cost (default 0). */
  minIntervalMs?: number;
  /** Requests that may wait at once; more are refused. */
  queueLimit: number;
  clock?: TurnClock;
}

/** One page at a time, a bounded share of the event loop, each caller behind itself (fair-turn.mjs). */
export declare class FairTurn {
  constructor(options: FairTurnOptions);
  enter(callerKey: string, onStart: (release: () => void) => void): Admission;
  /** Takes back a waiting request whose client went away; false if it is not waiting. */
  withdraw(callerKey: string, onStart: (release: () => void) => void): boolean;
  readonly size: number;
}
