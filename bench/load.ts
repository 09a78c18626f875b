// A small closed-loop load generator: `connections` workers, each sending its next request as soon
// as the previous answer is fully read, for a fixed time. runLoad sends HTTP requests over
// keep-alive connections; runClosedLoop drives any async call the same way (the benchmark times
// the upstream clients directly with it).
import http from 'node:http';
import { percentile } from './stats';

export interface LoadTarget {
  /** One URL per instance; the workers are spread over them evenly. */
  urls: string[];
  headers: Record<string, string>;
  body: string;
  /** When given, the bodies runLoad sends in turn instead of `body` (each request another taxpayer). */
  bodies?: readonly string[];
  /** The status every answer must have; anything else is counted as an error. */
  expectedStatus: number;
}

export interface LoadResult {
  /** Calls timed (after the warm-up). */
  requests: number;
  /** Every call made, the warm-up's included (what a server-side counter saw). */
  calls: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** One POST over `agent`, its answer read to the end; resolves with the status. */
export async function send(agent: http.Agent, url: string, target: Pick<LoadTarget, 'headers' | 'body'>): Promise<number> {
  return (await sendForAnswer(agent, url, target)).status;
}

/** Same, with the request id the gateway gave the answer (to find its log line). */
export function sendForAnswer(agent: http.Agent, url: string, target: Pick<LoadTarget, 'headers' | 'body'>): Promise<{ status: number; requestId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { ...target.headers, 'content-length': Buffer.byteLength(target.body) } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, requestId: response.headers['x-request-id'] as string | undefined }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(target.body);
  });
}

/**
 * Runs `call` from `connections` workers in a closed loop: warm-up first (not counted), then
 * `durationMs` of timed calls. A call that resolves false or throws counts as an error.
 */
export async function runClosedLoop(call: (worker: number) => Promise<boolean>, connections: number, durationMs: number, warmupMs: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let calls = 0;
  const warmupEndsAt = performance.now() + warmupMs;
  const endsAt = warmupEndsAt + durationMs;
  const worker = async (index: number) => {
    while (performance.now() < endsAt) {
      const started = performance.now();
      let ok = false;
      try {
        ok = await call(index);
      } catch {
        ok = false;
      }
      calls++;
      if (started < warmupEndsAt) continue;
      if (!ok) errors++;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, index) => worker(index)));
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    calls,
    errors,
    requestsPerSecond: latencies.length / (durationMs / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

export async function runLoad(target: LoadTarget, connections: number, durationMs: number, warmupMs: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const bodies = target.bodies;
  let sent = 0;
  const request = (): Pick<LoadTarget, 'headers' | 'body'> => (bodies?.length ? { headers: target.headers, body: bodies[sent++ % bodies.length]! } : target);
  try {
    return await runClosedLoop(
      async (worker) => (await send(agent, target.urls[worker % target.urls.length]!, request())) === target.expectedStatus,
      connections,
      durationMs,
      warmupMs,
    );
  } finally {
    agent.destroy();
  }
}

/** Runs each target for `seconds`, one after the other, nothing measured: an instance warmed before it is measured. */
export async function warmUp(targets: LoadTarget[], connections: number, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  for (const each of targets) await runLoad(each, connections, seconds * 1000, 0);
}
