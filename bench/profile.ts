// Reads V8 CPU profiles (node --cpu-prof) and sums each function's self time: the time samples
// were taken while that function itself ran, not its callees. Functions in Next's bundled chunks
// are named through the chunks' source maps (the app's own files and line numbers, not minified
// names), and only samples inside the given time windows count (the gateway's runs, not the
// bare handler's).
import fs from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the system's monotonic clock, as process.hrtime reads it. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  location: string;
  selfMs: number;
  share: number;
}

/** A span of the monotonic clock, in microseconds (process.hrtime.bigint() / 1000n). */
export interface TimeWindow {
  fromUs: number;
  toUs: number;
}

/** Now on the clock CPU profiles use, in microseconds. */
export function monotonicMicroseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * The functions with the most self time across every profile in `directory`, counting only the
 * samples inside `windows` (all of them without); totalMs is the sampled time counted, idle
 * included.
 */
export function topSelfTime(directory: string, count: number, windows?: TimeWindow[]): { totalMs: number; top: SelfTime[] } {
  const byFunction = new Map<string, SelfTime>();
  let totalMs = 0;
  forEachSample(directory, windows, (name, location, ms) => {
    totalMs += ms;
    const key = `${name}@${location}`;
    const entry = byFunction.get(key) ?? { name, location, selfMs: 0, share: 0 };
    entry.selfMs += ms;
    byFunction.set(key, entry);
  });
  const top = [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, count);
  for (const entry of top) entry.share = entry.selfMs / totalMs;
  return { totalMs, top };
}

/**
 * Self time by who owns the code that ran (OWNERS below: Next.js, Node's HTTP and web streams,
 * async hooks, the gateway's own files, each library...), summed from selfTimeByFunction, in ms.
 * Idle time is left out: this is where the CPU went.
 */
export function selfTimeByOwner(byFunction: ReturnType<typeof selfTimeByFunction>): Map<string, number> {
  const byOwner = new Map<string, number>();
  for (const { owner, selfMs } of byFunction.values()) byOwner.set(owner, (byOwner.get(owner) ?? 0) + selfMs);
  return byOwner;
}

/** Self time per function (`name@location`) over the samples inside `windows`, in ms; idle left out. */
export function selfTimeByFunction(directory: string, windows: TimeWindow[]): Map<string, { name: string; location: string; owner: string; selfMs: number }> {
  const byFunction = new Map<string, { name: string; location: string; owner: string; selfMs: number }>();
  forEachSample(directory, windows, (name, location, ms) => {
    const owner = ownerOf(name, location);
    if (owner === undefined) return;
    const key = `${name}@${location}`;
    const entry = byFunction.get(key) ?? { name, location, owner, selfMs: 0 };
    entry.selfMs += ms;
    byFunction.set(key, entry);
  });
  return byFunction;
}

/**
 * Who owns a sampled function, by where it was loaded from (after source maps). The order
 * matters: the first match wins. Next's web adapters are Node's undici and web streams, counted
 * apart from the node:http they sit on because the bare handler shows what Next spends on them.
 */
const OWNERS: Array<[owner: string, matches: (name: string, location: string) => boolean]> = [
  ['Next.js (its server, router, tracing; React)', (_name, at) => /^(next|react|react-dom|scheduler|@opentelemetry|%40opentelemetry)\//.test(at) || at.startsWith('.next')],
  ['the gateway (lib/, app/, db/, server.mjs)', (_name, at) => /^(lib|app|db|simulator)\//.test(at) || /^(server\.mjs|proxy\.ts|instrumentation\.ts)/.test(at)],
  ['Node: async hooks (AsyncLocalStorage, promise hooks)', (_name, at) => /^node:(internal\/)?async_hooks/.test(at) || at.startsWith('node:internal/async_local_storage')],
  // wasm: undici's HTTP parser (llhttp).
  ['Node: web Request/Response, streams, fetch (undici)', (_name, at) => /^node:internal\/(webstreams|deps|abort_controller|event_target|url|encoding|blob|webidl)/.test(at) || /^(node:url|wasm:)/.test(at)],
  ['Node: http, sockets, streams, timers, events', (name, at) => at.startsWith('node:') || ['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'shutdown', 'onStreamRead'].includes(name)],
  ['garbage collector', (name) => name === '(garbage collector)'],
  ['V8: builtins, microtasks, (program)', (_name, at) => at === ''],
  // Bundled into Next's chunks with a source map that names the library's own files (drizzle-orm).
  ['a library bundled by Next (mapped to its src/)', (_name, at) => at.startsWith('src/')],
];

function ownerOf(name: string, location: string): string | undefined {
  if (name === '(idle)') return undefined;
  for (const [owner, matches] of OWNERS) if (matches(name, location)) return owner;
  // A library from node_modules: its package name.
  return `library ${/^(@[^/]+\/[^/]+|[^/:]+)/.exec(location)?.[1] ?? location}`;
}

/** Calls `visit` for each sample inside `windows` (every sample without) with its function's name, location and duration. */
function forEachSample(directory: string, windows: TimeWindow[] | undefined, visit: (name: string, location: string, ms: number) => void): void {
  const sourceMaps = new SourceMaps();
  for (const file of fs.readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const onCpuCeilingUs = samplingIntervalUs(profile);
    let atUs = profile.startTime;
    profile.samples.forEach((nodeId, index) => {
      atUs += profile.timeDeltas[index] ?? 0;
      if (windows && !windows.some((window) => atUs >= window.fromUs && atUs < window.toUs)) return;
      const node = nodes.get(nodeId)!;
      const ms = Math.min(profile.timeDeltas[index + 1] ?? 0, onCpuCeilingUs) / 1000;
      const { name, location } = sourceMaps.describe(node.callFrame);
      visit(name, location, ms);
    });
  }
}

/**
 * V8 samples on a wall-clock timer and a sample's time runs until the next one, so a thread that
 * lost the CPU (another process woken by its write, on this 2-core machine: PostgreSQL, the
 * simulator) would charge the whole wait to the function it resumed in, the socket write above
 * all. Each sample counts at most one sampling interval (the profile's median gap): on-CPU time.
 */
function samplingIntervalUs(profile: CpuProfile): number {
  const gaps = profile.timeDeltas.filter((gap) => gap > 0).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}

/** Source maps of the bundled chunks, read once each. */
class SourceMaps {
  private readonly byFile = new Map<string, SourceMap | undefined>();

  describe(callFrame: ProfileNode['callFrame']): { name: string; location: string } {
    const { functionName, url, lineNumber, columnNumber } = callFrame;
    const minified = { name: functionName || '(anonymous)', location: url ? `${shorten(url)}:${lineNumber + 1}` : '' };
    const file = url.replace(/^file:\/\//, '');
    if (!file.includes('/.next') || lineNumber < 0) return minified;
    const map = this.load(file);
    const entry = map?.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number; name?: string } | undefined;
    if (!entry?.originalSource) return minified;
    const source = shorten(path.resolve(path.dirname(file), entry.originalSource.replace(/^file:\/\//, '')));
    return { name: entry.name ?? functionName ?? '(anonymous)', location: `${source}:${(entry.originalLine ?? 0) + 1}` };
  }

  private load(file: string): SourceMap | undefined {
    if (!this.byFile.has(file)) {
      let map: SourceMap | undefined;
      try {
        map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
      } catch {
        map = undefined;
      }
      this.byFile.set(file, map);
    }
    return this.byFile.get(file);
  }
}

/** file:///work/app/node_modules/next/dist/x.js → next/dist/x.js; the app's own files from the repository root. */
function shorten(url: string): string {
  const withoutScheme = url.replace(/^file:\/\//, '');
  const modules = withoutScheme.lastIndexOf('/node_modules/');
  if (modules >= 0) return withoutScheme.slice(modules + '/node_modules/'.length);
  return path.relative(process.cwd(), withoutScheme) || withoutScheme;
}
