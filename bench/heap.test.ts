import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heapGroups, heapReport, heapSnapshotFlags, takeHeapSnapshot } from './heap';

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe("the bench's heap report (--heap)", () => {
  it('names what holds a process heap: 8 MiB of strings and 20,000 objects of one class', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'heap-test-'));
    const program = `
      class HeldEntry { constructor(i) { this.i = i; this.label = 'entry'; } }
      globalThis.held = Array.from({ length: 20000 }, (_, i) => new HeldEntry(i));
      globalThis.text = Array.from({ length: 8 }, (_, i) => Buffer.alloc(1 << 20, 48 + i).toString('latin1'));
      console.log('ready');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, [...heapSnapshotFlags(directory), '-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));

    const file = await takeHeapSnapshot(child.pid!, directory);
    const groups = heapGroups(file);

    const strings = groups.find((group) => group.kind === 'strings')!;
    expect(strings.bytes).toBeGreaterThanOrEqual(8 * 1_048_576);
    expect(groups.find((group) => group.kind === 'objects: HeldEntry')?.count).toBe(20_000);
    const report = heapReport(groups, 3);
    expect(report[0]).toMatch(/^heap snapshot: \d+\.\d MiB in [\d,]+ objects; the largest kinds:$/);
    expect(report[1]).toContain('strings');
  }, 60_000);
});
