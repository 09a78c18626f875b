// A small closed-loop load generator: `connections` workers, each sending its next request as soon
// as the previous answer is fully read, over keep-alive connections, for a fixed time.
import http from 'node:http';
import { percentile } from './stats';

export interface LoadTarget {
  /** One URL per instance; the workers are spread over them evenly. */
  urls: string[];
  headers: Record<string, string>;
  body: string;
  /** The status every answer must have; anything else is counted as an error. */
  expectedStatus: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function send(agent: http.Agent, url: string, target: LoadTarget): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { ...target.headers, 'content-length': Buffer.byteLength(target.body) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(target.body);
  });
}

export async function runLoad(target: LoadTarget, connections: number, durationMs: number, warmupMs: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const warmupEndsAt = performance.now() + warmupMs;
  const endsAt = warmupEndsAt + durationMs;
  const worker = async (index: number) => {
    const url = target.urls[index % target.urls.length]!;
    while (performance.now() < endsAt) {
      const started = performance.now();
      let status = 0;
      try {
        status = await send(agent, url, target);
      } catch {
        status = 0;
      }
      if (started < warmupEndsAt) continue;
      if (status !== target.expectedStatus) errors++;
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, index) => worker(index)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    requestsPerSecond: latencies.length / (durationMs / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}
