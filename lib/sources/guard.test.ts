// The per-source breaker and bulkhead (lib/sources/guard.ts) on fake exchanges: what opens it,
// what a fast failure looks like, the half-open probe, and the bulkhead's refusal.
import { describe, expect, it } from 'vitest';
import { SourceGuard } from './guard';
import type { HttpExchange } from './http';

const settings = { failureThreshold: 3, cooldownMs: 200, bulkheadLimit: 1, bulkheadQueue: 0 };
const answer = (status: number): (() => Promise<HttpExchange>) => async () => ({ ok: true, status, bodyText: '{}' });
const noAnswer: () => Promise<HttpExchange> = async () => ({ ok: false, detail: 'no answer within 1500 ms', fault: { kind: 'timeout', afterMs: 1500 } });

describe('SourceGuard', () => {
  it('opens after the threshold of failures in a row (5xx, no answer), not on 4xx answers', async () => {
    const guard = new SourceGuard('catalog', settings);
    for (let i = 0; i < 5; i++) await guard.exchange(answer(404));
    await guard.exchange(answer(503));
    await guard.exchange(noAnswer);
    expect(guard.state).toBe('closed');
    await guard.exchange(answer(502));
    expect(guard.state).toBe('open');

    let sent = false;
    const fast = await guard.exchange(async () => {
      sent = true;
      return { ok: true, status: 200, bodyText: '{}' };
    });
    expect(sent).toBe(false);
    expect(fast).toEqual({ ok: false, notSent: true, detail: 'catalog breaker open: not sent', fault: { kind: 'not_sent' } });
    const health = guard.health();
    expect(health).toMatchObject({ state: 'open', callsLastHour: 8, failuresLastHour: 3, fastFailuresLastHour: 1 });
    expect(health.lastError).toMatchObject({ result: 'server_error', detail: 'HTTP 502' });
  });

  it('lets one probe through after the cool-down and closes on its success, or reopens on its failure', async () => {
    const guard = new SourceGuard('renap', settings);
    for (let i = 0; i < 3; i++) await guard.exchange(noAnswer);
    expect(guard.state).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, settings.cooldownMs + 20));
    await guard.exchange(noAnswer);
    expect(guard.state).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, settings.cooldownMs + 20));
    expect(await guard.exchange(answer(200))).toEqual({ ok: true, status: 200, bodyText: '{}' });
    expect(guard.state).toBe('closed');
  });

  it('refuses a call beyond the bulkhead without sending it, and does not count it as a source failure', async () => {
    const guard = new SourceGuard('rtu', settings);
    let release: () => void = () => {};
    const first = guard.exchange(() => new Promise<HttpExchange>((resolve) => (release = () => resolve({ ok: true, status: 200, bodyText: '{}' }))));
    const second = await guard.exchange(answer(200));
    expect(second).toEqual({ ok: false, notSent: true, detail: 'rtu bulkhead full: not sent', fault: { kind: 'not_sent' } });
    release();
    expect((await first).ok).toBe(true);
    expect(guard.state).toBe('closed');
  });

  it('reports a breaker past its cool-down as half-open even when no call has come since', async () => {
    let now = 1_000_000;
    const guard = new SourceGuard('catalog', settings, () => now);
    for (let i = 0; i < 3; i++) await guard.exchange(noAnswer);
    expect(guard.state).toBe('open');
    now += settings.cooldownMs - 1;
    expect(guard.state).toBe('open');
    now += 1;
    expect(guard.state).toBe('half_open');
    expect(guard.health().state).toBe('half_open');
  });
});

