// A circuit breaker and a bulkhead per upstream source (cockatiel), around each HTTP exchange.
// After SOURCE_BREAKER_FAILURES failures in a row (no answer, a timeout, a 5xx) the breaker opens:
// for SOURCE_BREAKER_COOLDOWN_MS every call fails at once without reaching the source, then one
// probe goes through (half-open) and closes it again if it succeeds. The bulkhead lets at most
// SOURCE_BULKHEAD_LIMIT calls run at once per source and queues SOURCE_BULKHEAD_QUEUE more; past
// that a call fails at once too. A call that failed fast never reached the source: the clients
// mark it `notSent`, and the lookups neither charge nor record it (docs/decisions.md).
import { BrokenCircuitError, BulkheadRejectedError, CircuitState, type BulkheadPolicy, type CircuitBreakerPolicy, ConsecutiveBreaker, bulkhead, circuitBreaker, handleWhenResult } from 'cockatiel';
import { logger } from '@/lib/platform/logging/logger';
import { noteLookup } from '@/lib/platform/http/lookup-trace';
import { metrics } from '@/lib/platform/metrics/registry';
import type { HttpExchange } from './http';

export type SourceName = 'renap' | 'rtu' | 'catalog';
export const SOURCE_NAMES: readonly SourceName[] = ['renap', 'rtu', 'catalog'];

export function isSourceName(value: string): value is SourceName {
  return (SOURCE_NAMES as readonly string[]).includes(value);
}

export type BreakerState = 'closed' | 'open' | 'half_open';

/** How a call ended, as metrics and logs name it. */
export type CallResult = 'ok' | 'client_error' | 'server_error' | 'timeout' | 'connection_error' | 'circuit_open' | 'bulkhead_full';

export type GuardedExchange = HttpExchange | { ok: false; detail: string; notSent: true; fault: { kind: 'not_sent' } };

export interface GuardSettings {
  failureThreshold: number;
  cooldownMs: number;
  bulkheadLimit: number;
  bulkheadQueue: number;
}

export interface SourceHealth {
  source: SourceName;
  state: BreakerState;
  /** Calls that reached the source over the last hour, their failures and mean duration. */
  callsLastHour: number;
  failuresLastHour: number;
  meanMsLastHour: number | null;
  /** Calls refused without reaching the source (breaker open or bulkhead full) over the last hour. */
  fastFailuresLastHour: number;
  lastError: { at: Date; result: CallResult; detail: string } | null;
}

const MINUTE_MS = 60_000;
const log = logger('sources');

interface MinuteBucket {
  minute: number;
  calls: number;
  failures: number;
  fastFailures: number;
  totalMs: number;
}

export class SourceGuard {
  /** None when SOURCE_BREAKER_FAILURES is 0 (the development default: see settings.ts). */
  private readonly breaker: CircuitBreakerPolicy | undefined;
  private openedAt = 0;
  private readonly bulkhead: BulkheadPolicy;
  private readonly minutes: MinuteBucket[] = [];
  private lastError: SourceHealth['lastError'] = null;
  private readonly stateListeners: Array<(state: BreakerState) => void> = [];

  private readonly cooldownMs: number;

  constructor(
    readonly source: SourceName,
    settings: GuardSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.cooldownMs = settings.cooldownMs;
    this.bulkhead = bulkhead(settings.bulkheadLimit, settings.bulkheadQueue);
    if (settings.failureThreshold === 0) return;
    this.breaker = circuitBreaker(handleWhenResult((result) => isFailure(result as HttpExchange)), {
      halfOpenAfter: settings.cooldownMs,
      breaker: new ConsecutiveBreaker(settings.failureThreshold),
    });
    this.breaker.onStateChange((state) => {
      const named = stateName(state);
      if (named === 'open') {
        this.openedAt = this.now();
        metrics().breakerOpenings.inc({ source });
      }
      log.warn({ source, state: named }, `upstream breaker ${named}`);
      for (const listener of this.stateListeners) listener(named);
    });
  }

  /**
   * The breaker as readiness, the Fuentes page and the metrics should see it. cockatiel moves an
   * open breaker to half-open only when the next call arrives; past the cool-down that call will
   * be let through as the probe, so the breaker is reported half-open then, not still open (with no
   * traffic it would otherwise read "open" for ever, and /api/ready answer 503 for ever).
   */
  get state(): BreakerState {
    if (!this.breaker) return 'closed';
    const state = stateName(this.breaker.state);
    if (state === 'open' && this.now() - this.openedAt >= this.cooldownMs) return 'half_open';
    return state;
  }

  /** While the breaker is open: when it will read half-open (its cool-down ends). */
  get halfOpensAt(): number | undefined {
    if (!this.breaker || stateName(this.breaker.state) !== 'open') return undefined;
    return this.openedAt + this.cooldownMs;
  }

  /** Called on every change of the breaker's state (alerts, readiness, tests). */
  onStateChange(listener: (state: BreakerState) => void): void {
    this.stateListeners.push(listener);
  }

  /**
   * True while the breaker is open (not half-open): the caller answers the fast failure itself,
   * before any other work, and the refusal is counted here like one the breaker made.
   */
  refusesNow(): boolean {
    // Past the cool-down the next call must reach execute(), which makes it the half-open probe.
    if (this.breaker?.state !== CircuitState.Open || this.now() - this.openedAt >= this.cooldownMs) return false;
    this.count({ ok: false, notSent: true, detail: `${this.source} breaker open: not sent`, fault: { kind: 'not_sent' } }, 0);
    return true;
  }

  async exchange(send: () => Promise<HttpExchange>): Promise<GuardedExchange> {
    const startedAt = performance.now();
    let exchange: GuardedExchange;
    try {
      exchange = await (this.breaker ? this.breaker.execute(() => this.bulkhead.execute(send)) : this.bulkhead.execute(send));
    } catch (error) {
      if (error instanceof BrokenCircuitError) exchange = { ok: false, notSent: true, detail: `${this.source} breaker open: not sent`, fault: { kind: 'not_sent' } };
      else if (error instanceof BulkheadRejectedError) exchange = { ok: false, notSent: true, detail: `${this.source} bulkhead full: not sent`, fault: { kind: 'not_sent' } };
      else throw error;
    }
    this.count(exchange, performance.now() - startedAt);
    return exchange;
  }

  health(): SourceHealth {
    const since = this.minuteOf(this.now()) - 59;
    const recent = this.minutes.filter((bucket) => bucket.minute >= since);
    const calls = recent.reduce((sum, bucket) => sum + bucket.calls, 0);
    const totalMs = recent.reduce((sum, bucket) => sum + bucket.totalMs, 0);
    return {
      source: this.source,
      state: this.state,
      callsLastHour: calls,
      failuresLastHour: recent.reduce((sum, bucket) => sum + bucket.failures, 0),
      meanMsLastHour: calls === 0 ? null : totalMs / calls,
      fastFailuresLastHour: recent.reduce((sum, bucket) => sum + bucket.fastFailures, 0),
      lastError: this.lastError,
    };
  }

  private count(exchange: GuardedExchange, elapsedMs: number): void {
    const result = classify(exchange);
    metrics().upstreamCalls.inc({ source: this.source, result });
    noteLookup({ upstream: result });
    const bucket = this.bucket();
    if ('notSent' in exchange) {
      bucket.fastFailures++;
      return;
    }
    metrics().upstreamSeconds.observe({ source: this.source }, elapsedMs / 1000);
    bucket.calls++;
    bucket.totalMs += elapsedMs;
    if (result !== 'ok' && result !== 'client_error') {
      bucket.failures++;
      this.lastError = { at: new Date(this.now()), result, detail: exchange.ok ? `HTTP ${exchange.status}` : exchange.detail };
    }
  }

  private bucket(): MinuteBucket {
    const minute = this.minuteOf(this.now());
    let last = this.minutes.at(-1);
    if (last?.minute !== minute) {
      last = { minute, calls: 0, failures: 0, fastFailures: 0, totalMs: 0 };
      this.minutes.push(last);
      while (this.minutes.length > 60) this.minutes.shift();
    }
    return last;
  }

  private minuteOf(ms: number): number {
    return Math.floor(ms / MINUTE_MS);
  }
}

/** No answer, a timeout or a 5xx: the source is failing (a 4xx is an answer about the query). */
function isFailure(exchange: HttpExchange): boolean {
  return !exchange.ok || exchange.status >= 500;
}

function classify(exchange: GuardedExchange): CallResult {
  if ('notSent' in exchange) return exchange.detail.includes('bulkhead') ? 'bulkhead_full' : 'circuit_open';
  if (!exchange.ok) return exchange.detail.startsWith('no answer within') ? 'timeout' : 'connection_error';
  if (exchange.status >= 500) return 'server_error';
  if (exchange.status >= 400) return 'client_error';
  return 'ok';
}

function stateName(state: CircuitState): BreakerState {
  if (state === CircuitState.Closed) return 'closed';
  if (state === CircuitState.HalfOpen) return 'half_open';
  return 'open';
}

export const BREAKER_STATE_VALUE: Record<BreakerState, number> = { closed: 0, open: 1, half_open: 2 };

/** Sends through the source's guard when it has one. */
export function guarded(guard: SourceGuard | undefined, send: () => Promise<HttpExchange>): Promise<GuardedExchange> {
  return guard ? guard.exchange(send) : send();
}
