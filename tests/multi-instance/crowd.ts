// A crowd for the flood tests: connections that each keep one request in flight, asking again as
// soon as they are answered, in a process of their own (as a crowd of browsers would be: in the
// test's process, its callbacks would delay the measured requests' own).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

export interface CrowdOptions {
  /** The URLs asked, connection i asking urls[i % urls.length] (several instances, as a balancer spreads them). */
  urls: string[];
  connections: number;
  /** Sent by every connection (a session's cookie), if any. */
  cookie?: string;
  /** Connection i also sends headers[i % headers.length] (credentials, right or wrong), if any. */
  headers?: Array<Record<string, string>>;
  /** Counts the answers by status and text as well (short answers only: an API's refusals). */
  countTexts?: boolean;
  /** Each connection's X-Forwarded-For: `${prefix}${i in hex}::1` (one address each), or one for all. */
  addresses: { perConnection: string } | { all: string };
}

export interface CrowdCounts {
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Connections that had at least one answer. */
  answered: number;
  /** The first refusal's Retry-After and text, if any was refused. */
  refusal?: { status: number; retryAfter: string | null; text: string };
  /** Answers by `${status} ${text}`, when countTexts was asked. */
  texts?: Record<string, number>;
}

const CROWD_SCRIPT = `
import http from 'node:http';
const options = JSON.parse(process.argv[1]);
// node:http rather than fetch: a third of fetch's CPU per request, so the crowd takes less of the
// cores it shares with what is measured.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
function ask(url, headers) {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'] ?? null, text: Buffer.concat(chunks).toString() }));
      response.on('error', () => resolve(undefined));
    });
    request.on('error', () => resolve(undefined));
  });
}
let running = true;
const statuses = {};
let answered = 0;
let refusal;
const texts = options.countTexts ? {} : undefined;
process.on('message', () => { running = false; });
// A test that failed before stopping it, or died, leaves no crowd behind loading the machine.
process.on('disconnect', () => process.exit(0));
await Promise.all(Array.from({ length: options.connections }, async (_, index) => {
  const address = options.addresses.all ?? options.addresses.perConnection + index.toString(16) + '::1';
  const headers = { 'x-forwarded-for': address, ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.headers ? options.headers[index % options.headers.length] : {}) };
  const url = options.urls[index % options.urls.length];
  let mine = 0;
  while (running || mine === 0) {
    const response = await ask(url, headers);
    if (!response) continue;
    const text = response.text;
    if (response.status >= 400) refusal ??= { status: response.status, retryAfter: response.retryAfter, text };
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if (texts) texts[response.status + ' ' + text] = (texts[response.status + ' ' + text] ?? 0) + 1;
    if (mine++ === 0) answered++;
  }
}));
process.send({ statuses, answered, refusal, texts }, () => process.exit(0));
`;

/** How far the crowd's process yields the cores (0 is the default, 19 the most). */
const CROWD_NICENESS = 10;

/** Starts the crowd; `stop()` ends it once every connection has had an answer, and says how it fared. */
export function crowd(options: CrowdOptions): { stop(): Promise<CrowdCounts> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CROWD_SCRIPT, JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // A real crowd runs on its own machines and costs the app only the app's work. Here it shares the
  // two cores, so it yields them to the instances and to the measured requests: otherwise the
  // scheduler, not the app, decides the measured medians (a lookup went 2.2 -> 4.7 ms in CI so).
  if (child.pid) setPriority(child.pid, CROWD_NICENESS);
  const result = new Promise<CrowdCounts>((resolve, reject) => {
    child.once('message', (counts) => resolve(counts as CrowdCounts));
    child.once('exit', (code) => reject(new Error(`the crowd exited (${code}) without its counts`)));
  });
  return {
    async stop() {
      child.send('stop');
      return result;
    },
  };
}

/** The median of `samples` runs of `once` (milliseconds), one after another. */
export async function medianMs(samples: number, once: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * A request's time alone, from its medians measured just before and just after the crowds: the
 * machine's own drift over a test (one median alone moved 2.2-2.7 ms between a file's tests) is
 * then not taken for the crowd's doing.
 */
export function aloneAround(beforeMs: number, afterMs: number): number {
  return (beforeMs + afterMs) / 2;
}

/** Lets the crowd's connections all be under way before measuring. */
export const CROWD_SETTLE_MS = 1_000;
