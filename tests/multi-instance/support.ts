// Shared pieces of the multi-instance suite: it needs a real PostgreSQL and a real Redis, which
// `npm run test:multi-instance` is given by .ci/run (DATABASE_URL, REDIS_URL).
import { expect } from 'vitest';
import type { Actor } from '@/lib/core/audit/audit';
import { topUp } from '@/lib/core/billing/ledger';
import { FLAG_NAMES } from '@/lib/core/integrations/flags';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { SHOWCASE_MEMBER } from '@/simulator/population';
import type { TestDatabase } from '../support/test-database';

export const TEST_ACTOR: Actor = { kind: 'system', name: 'multi-instance-test' };

/** The three upstream base URLs of an instance, pointed at the simulator. */
export function sourceUrls(simulator: { url: string }): Record<'RENAP_BASE_URL' | 'RTU_BASE_URL' | 'CATALOG_BASE_URL', string> {
  return { RENAP_BASE_URL: `${simulator.url}/renap`, RTU_BASE_URL: `${simulator.url}/rtu`, CATALOG_BASE_URL: `${simulator.url}/catalog` };
}

/** The periodic reload of the credentials an instance holds: long, so that only a pushed change reaches an instance within a second. */
export const PERIODIC_RELOAD_MS = 10_000;

/**
 * The settings of two instances sharing this file's PostgreSQL database and Redis, in front of the
 * simulator: people come from addresses of their own behind one proxy (the sign-in limit counts
 * each), the tests poll without meeting the per-address or per-integration limits, and a credential
 * change reaches the other instance by its announcement, not the periodic reload. `extra` adds or
 * overrides settings (an SMTP server, a webhook target).
 */
export function twoInstanceEnv(
  testDatabase: Pick<TestDatabase, 'env'>,
  simulator: { url: string },
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    ...testDatabase.env,
    ...sourceUrls(simulator),
    REDIS_URL: requiredEnv('REDIS_URL'),
    TRUSTED_PROXY_HOPS: '1',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '100',
    RATE_LIMIT_GLOBAL_MAX: '100000',
    RATE_LIMIT_RENAP_PER_MINUTE: '100000',
    RATE_LIMIT_CATALOG_PER_MINUTE: '100000',
    INTEGRATION_CACHE_REFRESH_MS: String(PERIODIC_RELOAD_MS),
    INTEGRATION_CACHE_MAX_AGE_MS: String(6 * PERIODIC_RELOAD_MS),
    ...extra,
  };
}

export function requiredEnv(name: 'DATABASE_URL' | 'REDIS_URL'): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: the multi-instance suite runs against real PostgreSQL and Redis servers (see .ci/run)`);
  }
  return value;
}

export interface TestIntegration {
  id: number;
  headers: Record<string, string>;
}

let counter = 0;

/** A fresh integration with every lookup enabled; `balanceCentavos` 0 leaves it without money. */
export async function newIntegration(tariffCentavos: number, balanceCentavos: number): Promise<TestIntegration> {
  const created = await createIntegration(TEST_ACTOR, {
    nombre: `multi-${process.pid}-${Date.now()}-${++counter}`,
    tariffCentavos,
    flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, true])),
  });
  if (!created.ok) throw new Error(created.error.message);
  if (balanceCentavos > 0) {
    const topped = await topUp(TEST_ACTOR, created.value.integration.id, balanceCentavos, 'Saldo de prueba');
    if (!topped.ok) throw new Error(topped.error.message);
  }
  return {
    id: created.value.integration.id,
    headers: {
      'content-type': 'application/json',
      'x-integracion-login': created.value.integration.nombre,
      'x-integracion-token': created.value.token,
    },
  };
}

export async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** A person-registry (RENAP) lookup of the simulator's showcase member through `app`, with `headers`: its status. */
export async function renapStatus(app: { baseUrl: string }, headers: Record<string, string>): Promise<number> {
  return (await postJson(`${app.baseUrl}/api/renap/buscar-cui`, headers, { cui: SHOWCASE_MEMBER.cui })).status;
}

/** A compliance (omisos) catalog lookup of the simulator's showcase member through `app`, with `headers`: its status. */
export async function omisosStatus(app: { baseUrl: string }, headers: Record<string, string>): Promise<number> {
  return (await postJson(`${app.baseUrl}/api/catalogos/omisos`, headers, { nit: SHOWCASE_MEMBER.nit })).status;
}

/**
 * Polls `ask` until it answers `wanted`, allowing only the `allowed` statuses before and for at
 * most `limitMs`; returns how long that took since `since` (a change's instant).
 */
export async function answersAfter(ask: () => Promise<number>, wanted: number, since: number, allowed: number[], limitMs: number): Promise<number> {
  for (;;) {
    const status = await ask();
    if (status === wanted) return Date.now() - since;
    expect(allowed).toContain(status);
    if (Date.now() - since > limitMs) throw new Error(`still answering ${status} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function countBy<T>(items: T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/**
 * Waits until every instance serves `integration` (a RENAP lookup answers 200; 403 until then).
 * An instance hears of an integration created after its start by an announcement and a reload, a
 * few milliseconds after the creation commits: a test that counts answers from the first lookup on
 * waits for that first, or counts a 403 it is not about. RENAP lookups are not billed and have
 * their own limit, so the catalog limits and balances a test counts are untouched.
 */
export async function servedBy(instances: Array<{ baseUrl: string }>, integration: TestIntegration, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const instance of instances) {
    for (;;) {
      const answer = await postJson(`${instance.baseUrl}/api/renap/buscar-cui`, integration.headers, { cui: SHOWCASE_MEMBER.cui });
      if (answer.status === 200) break;
      if (answer.status !== 403) throw new Error(`${instance.baseUrl} answered ${answer.status} to a new integration's lookup: ${JSON.stringify(answer.body)}`);
      if (Date.now() > deadline) throw new Error(`${instance.baseUrl} still refuses a new integration after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Waits, if needed, until the current minute has `neededMs` left. The per-minute limits kept in
 * Redis are @upstash/ratelimit's fixed windows, aligned on the clock's minutes: a test that counts
 * exactly N answers of 200 and the rest 429 must not straddle a minute's end, or the next minute's
 * fresh allowance lets more through (a 0.7 s run failed that way, about one run in a hundred).
 */
export async function withinOneLimitMinute(neededMs: number): Promise<void> {
  const leftMs = 60_000 - (Date.now() % 60_000);
  if (leftMs < neededMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
}

/** How many lookups a median is taken over in the flood tests. */
const LOOKUP_SAMPLES = 60;

/**
 * A valid lookup's median time, one after another, as the flood tests measure it alone and beside
 * a crowd (public-pages-flood, portal-pages-flood): each answer read whole and checked 200.
 */
export async function medianLookupMs(app: { baseUrl: string }, integration: TestIntegration): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < LOOKUP_SAMPLES; index++) {
    const started = performance.now();
    const response = await fetch(`${app.baseUrl}/api/renap/buscar-cui`, {
      method: 'POST',
      headers: { ...integration.headers, 'x-forwarded-for': '192.0.2.1' },
      body: JSON.stringify({ cui: SHOWCASE_MEMBER.cui }),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
