// What an instance's V8 heap holds, from a heap snapshot it writes on a signal
// (`--heapsnapshot-signal`): the bytes by kind of object (code, strings, arrays, objects by their
// constructor), the largest first. Self sizes, summed: a Map's entries count under the Map's
// backing array, not under what the Map belongs to, so a name here says what kind of object holds
// the memory, and the largest few say where to look.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapGroup {
  kind: string;
  bytes: number;
  count: number;
}

/** The node flags that make an instance write a snapshot into `directory` on SIGUSR2. */
export function heapSnapshotFlags(directory: string): string[] {
  return ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${directory}`];
}

/** Signals the instance, waits for the snapshot it writes into `directory`, and gives its path. */
export async function takeHeapSnapshot(pid: number, directory: string, timeoutMs = 120_000): Promise<string> {
  const before = new Set(fs.readdirSync(directory));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(500);
    const written = fs.readdirSync(directory).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (!written) continue;
    const file = path.join(directory, written);
    // V8 writes the file in pieces: it is whole once its size stops changing and it parses.
    const size = fs.statSync(file).size;
    await sleep(1_000);
    if (fs.statSync(file).size === size && size > 0) return file;
  }
  throw new Error(`no heap snapshot from pid ${pid} within ${timeoutMs} ms`);
}

/** The snapshot's bytes grouped by kind of object, the largest first. */
export function heapGroups(file: string): HeapGroup[] {
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as HeapSnapshotFile;
  const fields = parsed.snapshot.meta.node_fields;
  const types = parsed.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  for (let offset = 0; offset < parsed.nodes.length; offset += width) {
    const type = types[parsed.nodes[offset + typeAt]!] ?? 'unknown';
    const name = parsed.strings[parsed.nodes[offset + nameAt]!] ?? '';
    const kind = kindOf(type, name);
    const group = groups.get(kind) ?? { kind, bytes: 0, count: 0 };
    group.bytes += parsed.nodes[offset + sizeAt]!;
    group.count += 1;
    groups.set(kind, group);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
}

function kindOf(type: string, name: string): string {
  switch (type) {
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return 'strings';
    case 'code':
      return `code: ${name.startsWith('(') ? name : 'compiled functions'}`;
    case 'closure':
      return 'functions (closures)';
    case 'regexp':
      return 'regular expressions';
    case 'number':
    case 'bigint':
      return 'numbers';
    case 'object':
      return `objects: ${name || '(anonymous)'}`;
    case 'native':
      return `native: ${name.replace(/ \/ .*$/, '')}`;
    default:
      return `${type}: ${name.replace(/ \/ .*$/, '').slice(0, 60) || '(unnamed)'}`;
  }
}

/** The largest groups as lines for the bench's report, with the total. */
export function heapReport(groups: HeapGroup[], top = 15): string[] {
  const total = groups.reduce((sum, group) => sum + group.bytes, 0);
  const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1).padStart(6);
  return [
    `heap snapshot: ${mib(total).trim()} MiB in ${groups.reduce((sum, group) => sum + group.count, 0).toLocaleString('en')} objects; the largest kinds:`,
    ...groups.slice(0, top).map((group) => `  ${mib(group.bytes)} MiB  ${String(group.count).padStart(8)}  ${group.kind}`),
  ];
}
