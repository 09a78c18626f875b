// Reads a V8 CPU profile (node --cpu-prof) and sums each function's self time: the time samples
// were taken while that function itself ran, not its callees.
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  location: string;
  selfMs: number;
  share: number;
}

/** The functions with the most self time, across every profile in `directory`. */
export function topSelfTime(directory: string, count: number): { totalMs: number; top: SelfTime[] } {
  const byFunction = new Map<string, SelfTime>();
  let totalMs = 0;
  for (const file of fs.readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((nodeId, index) => {
      const node = nodes.get(nodeId)!;
      const ms = (profile.timeDeltas[index] ?? 0) / 1000;
      totalMs += ms;
      const { functionName, url, lineNumber } = node.callFrame;
      const location = url ? `${shorten(url)}:${lineNumber + 1}` : '';
      const key = `${functionName}@${location}`;
      const entry = byFunction.get(key) ?? { name: functionName || '(anonymous)', location, selfMs: 0, share: 0 };
      entry.selfMs += ms;
      byFunction.set(key, entry);
    });
  }
  const top = [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, count);
  for (const entry of top) entry.share = entry.selfMs / totalMs;
  return { totalMs, top };
}

/** file:///work/app/node_modules/next/dist/x.js → next/dist/x.js; the app's own files from the repository root. */
function shorten(url: string): string {
  const withoutScheme = url.replace(/^file:\/\//, '');
  const modules = withoutScheme.lastIndexOf('/node_modules/');
  if (modules >= 0) return withoutScheme.slice(modules + '/node_modules/'.length);
  return path.relative(process.cwd(), withoutScheme) || withoutScheme;
}
