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
  const sourceMaps = new SourceMaps();
  let totalMs = 0;
  for (const file of fs.readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    let atUs = profile.startTime;
    profile.samples.forEach((nodeId, index) => {
      atUs += profile.timeDeltas[index] ?? 0;
      if (windows && !windows.some((window) => atUs >= window.fromUs && atUs < window.toUs)) return;
      const node = nodes.get(nodeId)!;
      const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
      totalMs += ms;
      const { name, location } = sourceMaps.describe(node.callFrame);
      const key = `${name}@${location}`;
      const entry = byFunction.get(key) ?? { name, location, selfMs: 0, share: 0 };
      entry.selfMs += ms;
      byFunction.set(key, entry);
    });
  }
  const top = [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, count);
  for (const entry of top) entry.share = entry.selfMs / totalMs;
  return { totalMs, top };
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
