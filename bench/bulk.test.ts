// The bulk phase's reading of what it measured (bench/bulk.ts): a share-bound job's course from its
// progress samples, the items' times from the app's log, the machine's busy share, the rates the
// tables print, and one instance against two on the same job. The phase itself runs only in `npm run bench`.
import { describe, expect, it } from 'vitest';
import { allRunningRate, instancesTable, itemDurations, itemsPerMinute, loggedItems, machineTicks, shareBoundRate, shareCourse, shareTable, simulatorNits, type BulkSettings, type InstancesRun } from './bulk';

const settings: BulkSettings = { concurrency: 4, sharePercent: 50, benchCatalogLimit: 1_000_000_000, itemsPerMinute: (limit) => Math.floor(limit / 2) };

describe("a share-bound job's course", () => {
  // 500 items in 2.5 s, nothing until the share's window ends a minute later, then the rest.
  const samples = [
    { atMs: 0, processed: 0 },
    { atMs: 1_000, processed: 180 },
    { atMs: 2_500, processed: 500 },
    { atMs: 30_000, processed: 500 },
    { atMs: 60_000, processed: 500 },
    { atMs: 61_500, processed: 640 },
    { atMs: 62_000, processed: 750 },
  ];

  it('is the first share, when it ended and when the next began', () => {
    expect(shareCourse(samples, 5_000)).toEqual({ burstItems: 500, burstEndMs: 2_500, resumedAtMs: 61_500 });
  });

  it('gives a long job one share per cycle, from the POST to the next share', () => {
    const course = shareCourse(samples, 5_000);
    expect(shareBoundRate({ course })).toBeCloseTo((500 * 60) / 61.5, 5);
  });

  it('says there was no pause when the job never stood still that long', () => {
    const steady = [0, 1, 2, 3].map((second) => ({ atMs: second * 1_000, processed: second * 100 }));
    expect(shareCourse(steady, 5_000)).toEqual({ burstItems: 300, burstEndMs: 3_000, resumedAtMs: null });
    expect(shareBoundRate({ course: shareCourse(steady, 5_000) })).toBeNaN();
  });

  it('prints the single lookups left beside the share, and the refusal that ended them', () => {
    const [, , row] = shareTable([{ tree: 'gateway', run: { limit: 1_000, share: 500, items: 750, ms: 62_000, course: shareCourse(samples, 5_000), interactiveLeft: 500, refusal: 429 } }], settings);
    expect(row).toMatch(/^gateway\s+488\s+500\s+500\s+2\.5\s+61\.5\s+62\.0\s+500 of 500 \(then 429\)$/);
  });
});

describe('what the phase reads', () => {
  it("takes each item's time from the runner's log lines and nothing else", () => {
    const log = [
      '{"level":30,"msg":"lookup","durationMs":3.5}',
      '{"level":30,"integration":"bench","lookup":"cui-nit","msg":"bulk item","durationMs":12.5}',
      'not json',
      '{"level":30,"msg":"bulk item","durationMs":7}',
    ].join('\n');
    expect(itemDurations(log)).toEqual([12.5, 7]);
  });

  it("counts idle and iowait as the machine's idle time", () => {
    expect(machineTicks('cpu  100 5 45 800 50 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n')).toEqual({ busy: 150, total: 1_000 });
  });

  it('gives items a minute, and none for no time', () => {
    expect(itemsPerMinute(2_000, 13_300)).toBeCloseTo(9_022.6, 1);
    expect(itemsPerMinute(10, 0)).toBeNaN();
  });

  it("draws distinct NITs the simulator knows, as many as asked", async () => {
    const nits = await simulatorNits(2_000);
    expect(nits).toHaveLength(2_000);
    expect(new Set(nits).size).toBe(2_000);
    await expect(simulatorNits(1_000_000)).rejects.toThrow(/--bulk-items asks for 1000000/);
  });
});

describe('one instance against two on the same job', () => {
  it("reads the items from an instance's log, each item's start and end", () => {
    const log = [
      '{"level":30,"time":1000050,"msg":"bulk item","bulkJob":6,"durationMs":12.5}',
      '{"level":30,"time":1000070,"msg":"lookup","durationMs":3}',
      '{"level":30,"time":1000090,"msg":"bulk item","bulkJob":6,"durationMs":10}',
    ].join('\n');
    expect(loggedItems(log)).toEqual([
      { startMs: 1_000_037.5, endMs: 1_000_050 },
      { startMs: 1_000_080, endMs: 1_000_090 },
    ]);
  });

  it('counts the rate from when the last instance joined, over the items that ended since', () => {
    // An item every 20 ms on each: the first instance runs alone for a second, the second joins at 1 s; both run until 2 s.
    const steady = (from: number, to: number, every: number) => Array.from({ length: (to - from) / every }, (_, index) => ({ startMs: from + index * every, endMs: from + (index + 1) * every }));
    const first = steady(0, 2_000, 20);
    const second = steady(1_000, 2_000, 20);
    expect(allRunningRate([first])).toBe(3_000);
    expect(allRunningRate([first, second])).toBe(6_000);
    expect(allRunningRate([first, []])).toBeNaN();
  });

  it('prints both rows, the speed-up on the second, and each instance\'s items and first item', () => {
    const items = (count: number, fromMs: number, toMs: number) => Array.from({ length: count }, (_, index) => ({ startMs: fromMs + ((toMs - fromMs) * index) / count, endMs: fromMs + ((toMs - fromMs) * (index + 1)) / count }));
    const one: InstancesRun = { items: 2_000, ms: 12_000, perInstance: [items(2_000, 100, 12_000)], machineBusyPercent: 71 };
    const two: InstancesRun = { items: 2_000, ms: 8_000, perInstance: [items(1_200, 100, 8_000), items(800, 3_000, 8_000)], machineBusyPercent: 99 };
    const [, header, oneRow, twoRow] = instancesTable([{ tree: 'gateway', one, two }], 2_000, 'redis://127.0.0.1:6379');
    expect(header).toMatch(/instances\s+items\/min\s+seconds\s+speed-up/);
    expect(oneRow).toMatch(/^gateway\s+1\s+10,000\s+12\.0\s+10,084\s+2000\s+0\.1\s+71$/);
    expect(twoRow).toMatch(/^gateway\s+2\s+15,000\s+8\.0\s+1\.50x\s+\d{2},\d{3}\s+\d\.\d{2}x\s+1200 \+ 800\s+0\.1, 3\.0\s+99$/);
  });
});
