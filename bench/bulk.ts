// The bulk jobs' phase of `npm run bench` (issue 35, "done when"): how fast a job runs against the
// limit that applies to it, and what it costs the integration's interactive lookups beside it.
//   1. A job of --bulk-items valid NITs of the simulator (cui-nit) sent through POST /api/lotes and
//      followed through GET /api/lotes/{id} to its end: items per minute next to the jobs' share of
//      the catalog limit (lib/flows/bulk/pacing.ts, bulkItemsPerMinute). The bench's limits are unlimited,
//      so the share does not bind there; the table says what did: the runner's concurrency (items in
//      flight, from the app's per-item log lines, against BULK_CONCURRENCY) and the CPU.
//   2. The cui_nit lookup alone, then beside a fresh job of the same list, in turn --reps times:
//      throughput, p50, p99 and app CPU per lookup of both (medians). Each job beside is cancelled
//      once measured (what did not run is never charged).
//   3. Unless --bulk-limit 0: an instance whose catalog limit is --bulk-limit a minute, so the share
//      binds. A job of one and a half shares runs one share, waits out the share's minute, then runs
//      the rest; once the first share has run, single lookups show what the minute left the
//      integration's own requests (the catalog limit minus the share).
//   4. Unless --no-bulk-instances: the job of part 1 again, on one fresh instance and then on two
//      fresh instances of the same build sharing the database and a Redis (the rate limit store, as
//      `--instances 2` shares it and production would): items per minute of one and of two, the
//      speed-up, and how many items each instance answered (each instance's own log) and when its
//      first one started. The limits are the bench's unlimited ones, so the share does not bind.
// Each phase runs on a fresh instance of the tree's build with its log kept (the per-item lines),
// one tree at a time, so an idle instance's runner does not share the machine with a measured one.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { cpuTimeMs, type BenchApp } from './app';
import { runLoad, send, type LoadResult } from './load';
import { median } from './stats';

export interface BulkOptions {
  /** The job's size (valid NITs the simulator knows). */
  items: number;
  /** Seconds of each interactive run (after 1 s of warm-up). */
  seconds: number;
  /** Interactive runs alone and beside a job, in turn, this many times each; medians shown. */
  reps: number;
  connections: number[];
  /** The catalog limit a minute of the share-bound run; 0 leaves that run out. */
  shareLimit: number;
  /** Part 4, one instance against two on the same job (--no-bulk-instances leaves it out). */
  twoInstances: boolean;
  /** The Redis both instances of part 4 share (and its one instance uses): the bench's, or a throwaway one. */
  redisUrl?: string;
}

/** One checkout's app, as the bench starts it (main's build, or each tree of --compare). */
export interface BulkTree {
  name: string;
  /** Starts a fresh instance with the bench's environment plus `env`, its stdout (the log) appended to `logFile`. */
  start(env: Record<string, string>, logFile: string): Promise<BenchApp>;
  headers: Record<string, string>;
  /** Where this tree's log files go. */
  scratch: string;
}

/** The app's settings the tables quote (the working tree's: a --compare ref might differ). */
export interface BulkSettings {
  concurrency: number;
  sharePercent: number;
  /** bulkItemsPerMinute for a catalog limit. */
  itemsPerMinute(catalogLimitPerMinute: number): number;
  /** The catalog limit a minute every bench instance runs with. */
  benchCatalogLimit: number;
}

interface JobBody {
  id: string;
  estado: string;
  conteos: { total: number; procesados: number; pendientes: number };
}

/** A job's progress seen at one moment, ms since it was sent. */
export interface ProgressSample {
  atMs: number;
  processed: number;
}

const CATALOG = 'cui-nit';
const LOOKUP_PATH = '/api/catalogos/cui-nit';
const POLL_MS = 250;
const FINISHED = new Set(['completado', 'cancelado']);

/** The settings of an instance started with the bench's environment `appEnv`, read as the app reads them. */
export async function bulkSettings(appEnv: Record<string, string>): Promise<BulkSettings> {
  const { parseEnv } = await import('@/lib/root/settings');
  const { bulkItemsPerMinute } = await import('@/lib/flows/bulk/pacing');
  const settings = parseEnv({ ...process.env, ...appEnv });
  return {
    concurrency: settings.BULK_CONCURRENCY,
    sharePercent: settings.BULK_LIMIT_SHARE_PERCENT,
    benchCatalogLimit: settings.RATE_LIMIT_CATALOG_PER_MINUTE,
    itemsPerMinute: (limit) => bulkItemsPerMinute({ ...settings, RATE_LIMIT_CATALOG_PER_MINUTE: limit }),
  };
}

/** The first `count` classic NITs of the simulator's population: each one is found. */
export async function simulatorNits(count: number): Promise<string[]> {
  const { createPopulation, DEFAULT_SIMULATOR_SEED } = await import('../simulator/index');
  const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
  const nits: string[] = [];
  for (let index = 0; index < population.size && nits.length < count; index++) {
    const nit = population.member(index).classicNit;
    if (nit) nits.push(nit);
  }
  if (nits.length < count) throw new Error(`the simulator's population has ${nits.length} classic NITs; --bulk-items asks for ${count}`);
  return nits;
}

/** Items a minute: `items` over `ms`. */
export function itemsPerMinute(items: number, ms: number): number {
  return ms > 0 ? (items * 60_000) / ms : Number.NaN;
}

/**
 * A share-bound job's course from its progress samples: the first share ran in a burst, then the
 * job stood still until the share's window ended. `burstItems` is what ran before the first pause of
 * at least `pauseMs`, `burstEndMs` when the last of them was seen, `resumedAtMs` when the next item
 * was seen (null when there was no such pause: the share did not stop the job).
 */
export function shareCourse(samples: ProgressSample[], pauseMs: number): { burstItems: number; burstEndMs: number; resumedAtMs: number | null } {
  let last = samples[0] ?? { atMs: 0, processed: 0 };
  for (const sample of samples) {
    if (sample.processed === last.processed) continue;
    if (last.processed > 0 && sample.atMs - last.atMs >= pauseMs) {
      // The previous change was the burst's last item; this sample is the first after the pause.
      return { burstItems: last.processed, burstEndMs: last.atMs, resumedAtMs: sample.atMs };
    }
    last = sample;
  }
  return { burstItems: last.processed, burstEndMs: last.atMs, resumedAtMs: null };
}

/** The machine's busy and total CPU ticks so far (/proc/stat's first line), to say how busy it was. */
export function machineTicks(stat = fs.readFileSync('/proc/stat', 'utf8')): { busy: number; total: number } {
  // cpu user nice system idle iowait irq softirq steal …: idle and iowait are the idle part.
  const fields = stat.split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3]! - fields[4]!, total };
}

/** The per-item log lines (lib/flows/bulk/runner.ts, 'bulk item') written since `offset`: each item's time. */
export function itemDurations(logText: string): number[] {
  const durations: number[] = [];
  for (const line of logText.split('\n')) {
    if (!line.includes('"msg":"bulk item"')) continue;
    durations.push((JSON.parse(line) as { durationMs: number }).durationMs);
  }
  return durations;
}

/** An item as an instance's log tells it: when its lookup started and ended (epoch ms). */
export interface LoggedItem {
  startMs: number;
  endMs: number;
}

/**
 * The per-item log lines, each item's start and end: pino's `time` is when the line was written, at
 * the item's end, and `durationMs` how long its lookup took. Part 4's instances are fresh and run one
 * job (the lines name the job by its internal id, not the public one), so every line is that job's.
 */
export function loggedItems(logText: string): LoggedItem[] {
  const items: LoggedItem[] = [];
  for (const line of logText.split('\n')) {
    if (!line.includes('"msg":"bulk item"')) continue;
    const entry = JSON.parse(line) as { time: number; durationMs: number };
    items.push({ startMs: entry.time - entry.durationMs, endMs: entry.time });
  }
  return items;
}

/** A job run on one or more instances at once (part 4). */
export interface InstancesRun {
  /** Items the job processed (GET /api/lotes/{id}) and the time from its POST to completado. */
  items: number;
  ms: number;
  /** Each instance's items, from its own log; times in ms since the POST. */
  perInstance: LoggedItem[][];
  machineBusyPercent: number;
}

/**
 * Items a minute while every instance was at work: the items that ended after the last instance's
 * first item started, over the time from then to the last item's end (an idle runner joins a job
 * submitted to another instance at its next look at the database, up to BULK_IDLE_MAX_MS later).
 */
export function allRunningRate(perInstance: LoggedItem[][]): number {
  if (perInstance.length === 0 || perInstance.some((items) => items.length === 0)) return Number.NaN;
  const from = Math.max(...perInstance.map((items) => Math.min(...items.map((item) => item.startMs))));
  const all = perInstance.flat();
  const to = Math.max(...all.map((item) => item.endMs));
  return itemsPerMinute(all.filter((item) => item.endMs > from).length, to - from);
}

async function submitJob(app: BenchApp, headers: Record<string, string>, identifiers: string[], key: string): Promise<JobBody | { unavailable: string }> {
  const response = await fetch(`${app.baseUrl}/api/lotes`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': key },
    body: JSON.stringify({ catalogo: CATALOG, identificadores: identifiers }),
  });
  // A --compare ref from before issue 35 has no /api/lotes.
  if (response.status === 404) return { unavailable: 'no /api/lotes at this commit' };
  if (response.status !== 202) throw new Error(`POST /api/lotes answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as JobBody;
}

async function readJob(app: BenchApp, headers: Record<string, string>, id: string): Promise<JobBody> {
  const response = await fetch(`${app.baseUrl}/api/lotes/${id}`, { headers });
  if (response.status !== 200) throw new Error(`GET /api/lotes/{id} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as JobBody;
}

/**
 * Follows a job to its end, a sample every POLL_MS; `during` runs once, when `when` first holds of
 * a sample (the share-bound run's single lookups).
 */
async function followJob(
  app: BenchApp,
  headers: Record<string, string>,
  id: string,
  sentAt: number,
  timeoutMs: number,
  during?: { when: (sample: ProgressSample, samples: ProgressSample[]) => boolean; run: () => Promise<void> },
): Promise<{ samples: ProgressSample[]; body: JobBody }> {
  const samples: ProgressSample[] = [];
  let pending = during;
  for (;;) {
    const body = await readJob(app, headers, id);
    const sample = { atMs: performance.now() - sentAt, processed: body.conteos.procesados };
    samples.push(sample);
    if (FINISHED.has(body.estado)) return { samples, body };
    if (pending?.when(sample, samples)) {
      await pending.run();
      pending = undefined;
      continue;
    }
    if (sample.atMs > timeoutMs) throw new Error(`the job had not ended after ${timeoutMs / 1000} s (${JSON.stringify(body.conteos)})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function logTail(logFile: string, offset: number): string {
  return fs.readFileSync(logFile).subarray(offset).toString('utf8');
}

const fileSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

interface JobRun {
  items: number;
  ms: number;
  cpuMsPerItem: number;
  appCorePercent: number;
  machineBusyPercent: number;
  inFlight: number;
  itemP50Ms: number;
}

/** A load run's figures, the medians of the repetitions. */
interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The app's CPU per lookup, ms. */
  cpuMs: number;
}

interface LookupRun {
  connections: number;
  alone: LoadFigures;
  beside: LoadFigures;
  /** The job's items answered during the runs beside (warm-up included), a minute's worth. */
  jobItemsPerMinute: number;
  /** A job ended before its run beside did: that run was partly alone. */
  jobEndedEarly: boolean;
}

interface ShareRun {
  limit: number;
  share: number;
  items: number;
  ms: number;
  course: ReturnType<typeof shareCourse>;
  /** Single lookups answered 200 after the first share ran, before the first refusal, and that refusal's status. */
  interactiveLeft: number;
  refusal: number | null;
}

type TreeResult = { tree: string; unavailable: string } | { tree: string; job: JobRun; lookups: LookupRun[]; share?: ShareRun };

const unlimitedLookup = (app: BenchApp, headers: Record<string, string>, body: string) => ({ urls: [`${app.baseUrl}${LOOKUP_PATH}`], headers, body, expectedStatus: 200 });

function figures(runs: Array<{ result: LoadResult; cpuMs: number }>): LoadFigures {
  return {
    rps: median(runs.map((run) => run.result.requestsPerSecond)),
    p50: median(runs.map((run) => run.result.p50Ms)),
    p99: median(runs.map((run) => run.result.p99Ms)),
    errors: median(runs.map((run) => run.result.errors)),
    cpuMs: median(runs.map((run) => run.cpuMs)),
  };
}

async function measuredLoad(app: BenchApp, headers: Record<string, string>, lookupBody: string, connections: number, seconds: number): Promise<{ result: LoadResult; cpuMs: number }> {
  const before = cpuTimeMs(app.pid);
  const result = await runLoad(unlimitedLookup(app, headers, lookupBody), connections, seconds * 1000, 1000);
  return { result, cpuMs: (cpuTimeMs(app.pid) - before) / result.calls };
}

/** Phases 1 and 2 on a fresh instance of one tree. */
async function jobAndLookups(tree: BulkTree, options: BulkOptions, identifiers: string[], lookupBody: string): Promise<TreeResult> {
  const logFile = path.join(tree.scratch, 'bulk.log');
  const app = await tree.start({}, logFile);
  try {
    const stamp = Date.now();
    const logOffset = fileSize(logFile);
    const cpuBefore = cpuTimeMs(app.pid);
    const machineBefore = machineTicks();
    const sentAt = performance.now();
    const submitted = await submitJob(app, tree.headers, identifiers, `bench-${stamp}-alone`);
    if ('unavailable' in submitted) return { tree: tree.name, unavailable: submitted.unavailable };
    const { samples, body } = await followJob(app, tree.headers, submitted.id, sentAt, 30 * 60_000);
    const ms = samples.at(-1)!.atMs;
    const cpuMs = cpuTimeMs(app.pid) - cpuBefore;
    const machineAfter = machineTicks();
    const durations = itemDurations(logTail(logFile, logOffset));
    const job: JobRun = {
      items: body.conteos.procesados,
      ms,
      cpuMsPerItem: cpuMs / body.conteos.procesados,
      appCorePercent: (cpuMs / ms) * 100,
      machineBusyPercent: ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100,
      // Little's law: the items' summed time over the job's time is how many ran at once on average.
      inFlight: durations.reduce((sum, duration) => sum + duration, 0) / ms,
      itemP50Ms: median(durations),
    };

    // Alone, then beside a fresh job of the same list (cancelled once measured), in turn: a
    // neighbour's load that comes and goes weighs on both alike.
    const lookups: LookupRun[] = [];
    for (const connections of options.connections) {
      const alone: Array<{ result: LoadResult; cpuMs: number }> = [];
      const beside: Array<{ result: LoadResult; cpuMs: number }> = [];
      let jobItems = 0;
      let besideMs = 0;
      let jobEndedEarly = false;
      for (let rep = 0; rep < options.reps; rep++) {
        alone.push(await measuredLoad(app, tree.headers, lookupBody, connections, options.seconds));
        const running = await submitJob(app, tree.headers, identifiers, `bench-${stamp}-beside-${connections}-${rep}`);
        if ('unavailable' in running) throw new Error(running.unavailable);
        const startedAt = performance.now();
        beside.push(await measuredLoad(app, tree.headers, lookupBody, connections, options.seconds));
        const end = await readJob(app, tree.headers, running.id);
        besideMs += performance.now() - startedAt;
        jobItems += end.conteos.procesados;
        jobEndedEarly ||= FINISHED.has(end.estado);
        const cancelled = await fetch(`${app.baseUrl}/api/lotes/${running.id}/cancelar`, { method: 'POST', headers: tree.headers });
        await cancelled.arrayBuffer();
        // 409: it had completed (jobEndedEarly says so).
        if (cancelled.status !== 200 && cancelled.status !== 409) throw new Error(`POST /api/lotes/{id}/cancelar answered ${cancelled.status}`);
      }
      lookups.push({ connections, alone: figures(alone), beside: figures(beside), jobItemsPerMinute: itemsPerMinute(jobItems, besideMs), jobEndedEarly });
    }
    return { tree: tree.name, job, lookups };
  } finally {
    await app.stop();
  }
}

/** Phase 3 on a fresh instance of one tree whose catalog limit is options.shareLimit a minute. */
async function shareBound(tree: BulkTree, options: BulkOptions, settings: BulkSettings, lookupBody: string): Promise<ShareRun> {
  const share = settings.itemsPerMinute(options.shareLimit);
  const identifiers = await simulatorNits(share + Math.ceil(share / 2));
  const app = await tree.start({ RATE_LIMIT_CATALOG_PER_MINUTE: String(options.shareLimit) }, path.join(tree.scratch, 'bulk-share.log'));
  try {
    let interactiveLeft = 0;
    let refusal: number | null = null;
    const sentAt = performance.now();
    const submitted = await submitJob(app, tree.headers, identifiers, `bench-${Date.now()}-share`);
    if ('unavailable' in submitted) throw new Error(submitted.unavailable);
    const { samples, body } = await followJob(app, tree.headers, submitted.id, sentAt, 10 * 60_000, {
      // Once the first share has run (or the job has stood still for 2 s): the same minute's room
      // for the integration's own lookups, one at a time until the first refusal.
      when: (sample, all) => sample.processed >= share || (sample.processed > 0 && all.some((earlier) => earlier.processed === sample.processed && sample.atMs - earlier.atMs >= 2_000)),
      run: async () => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (let attempt = 0; attempt <= options.shareLimit; attempt++) {
            const status = await send(agent, `${app.baseUrl}${LOOKUP_PATH}`, { headers: tree.headers, body: lookupBody });
            if (status !== 200) {
              refusal = status;
              break;
            }
            interactiveLeft++;
          }
        } finally {
          agent.destroy();
        }
      },
    });
    return { limit: options.shareLimit, share, items: body.conteos.procesados, ms: samples.at(-1)!.atMs, course: shareCourse(samples, 5_000), interactiveLeft, refusal };
  } finally {
    await app.stop();
  }
}

/**
 * Part 4: the job on `count` fresh instances of one tree started with the shared Redis, each with
 * its own log; sent to and followed on the first (a submission wakes only its own instance's runner).
 */
async function jobOnInstances(tree: BulkTree, count: number, identifiers: string[], redisUrl: string): Promise<InstancesRun> {
  const logFiles = Array.from({ length: count }, (_, index) => path.join(tree.scratch, `bulk-instances-${count}-${index + 1}.log`));
  const apps: BenchApp[] = [];
  try {
    // Each its own journal directory, as production gives each instance durable storage of its own.
    for (const [index, logFile] of logFiles.entries()) {
      apps.push(await tree.start({ REDIS_URL: redisUrl, RECORD_JOURNAL_DIR: path.join(tree.scratch, `record-journal-${count}-${index + 1}`) }, logFile));
    }
    const offsets = logFiles.map(fileSize);
    const machineBefore = machineTicks();
    const sentEpochMs = Date.now();
    const sentAt = performance.now();
    const submitted = await submitJob(apps[0]!, tree.headers, identifiers, `bench-${sentEpochMs}-instances-${count}`);
    if ('unavailable' in submitted) throw new Error(submitted.unavailable);
    const { samples, body } = await followJob(apps[0]!, tree.headers, submitted.id, sentAt, 30 * 60_000);
    const machineAfter = machineTicks();
    const sinceSent = (item: LoggedItem) => ({ startMs: item.startMs - sentEpochMs, endMs: item.endMs - sentEpochMs });
    return {
      items: body.conteos.procesados,
      ms: samples.at(-1)!.atMs,
      perInstance: logFiles.map((logFile, index) => loggedItems(logTail(logFile, offsets[index]!)).map(sinceSent)),
      machineBusyPercent: ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100,
    };
  } finally {
    for (const app of apps) await app.stop();
  }
}

const fixed = (value: number, digits: number, width: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-').padStart(width);
const grouped = (value: number, width: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '-').padStart(width);

export function jobTable(results: TreeResult[], settings: BulkSettings, items: number): string[] {
  const limit = settings.itemsPerMinute(settings.benchCatalogLimit);
  const lines = [
    `a job of ${items} cui-nit NITs of the simulator (POST /api/lotes, followed to its end); the jobs' share: ${settings.sharePercent} % of the bench's catalog limit (${grouped(settings.benchCatalogLimit, 0)} a minute) = ${grouped(limit, 0)} items a minute`,
    'tree              items/min  share/min        items   seconds  app CPU ms/item  app CPU % core  machine busy %  in flight  item p50 ms',
  ];
  for (const result of results) {
    if ('unavailable' in result) {
      lines.push(`${result.tree.padEnd(16)}  (${result.unavailable})`);
      continue;
    }
    const { job } = result;
    lines.push(
      [
        result.tree.padEnd(16),
        grouped(itemsPerMinute(job.items, job.ms), 9),
        grouped(limit, 14),
        String(job.items).padStart(7),
        fixed(job.ms / 1000, 1, 9),
        fixed(job.cpuMsPerItem, 2, 16),
        fixed(job.appCorePercent, 0, 15),
        fixed(job.machineBusyPercent, 0, 15),
        `${fixed(job.inFlight, 1, 5)} of ${settings.concurrency}`,
        fixed(job.itemP50Ms, 1, 12),
      ].join(' '),
    );
  }
  return lines;
}

export function lookupTable(results: TreeResult[], seconds: number, reps: number): string[] {
  const lines = [
    `cui_nit lookups alone and beside a running job (${seconds} s after 1 s of warm-up, alone and beside in turn, ${reps} time(s), medians; CPU ms = the app's CPU per lookup, the job's work included beside)`,
    'tree              conns   alone req/s p50 p99     beside req/s p50 p99   req/s b/a  p99 b/a   CPU ms alone beside  b/a   job items/min beside',
  ];
  for (const result of results) {
    if ('unavailable' in result) continue;
    for (const run of result.lookups) {
      lines.push(
        [
          result.tree.padEnd(16),
          String(run.connections).padStart(6),
          `${fixed(run.alone.rps, 0, 10)} ${fixed(run.alone.p50, 2, 6)} ${fixed(run.alone.p99, 2, 7)}`,
          `${fixed(run.beside.rps, 0, 10)} ${fixed(run.beside.p50, 2, 6)} ${fixed(run.beside.p99, 2, 7)}`,
          `${fixed(run.beside.rps / run.alone.rps, 2, 9)}x`,
          `${fixed(run.beside.p99 / run.alone.p99, 2, 7)}x`,
          `${fixed(run.alone.cpuMs, 2, 12)} ${fixed(run.beside.cpuMs, 2, 6)}`,
          `${fixed(run.beside.cpuMs / run.alone.cpuMs, 2, 5)}x`,
          grouped(run.jobItemsPerMinute, 12),
          run.jobEndedEarly ? '  (a job ended during its run: raise --bulk-items)' : '',
          run.alone.errors || run.beside.errors ? `  (errors: alone ${run.alone.errors}, beside ${run.beside.errors})` : '',
        ].join(' '),
      );
    }
  }
  return lines;
}

/**
 * The items a minute a long share-bound job gets: one share each cycle, a cycle being from the POST
 * (the share's window opens with the first item) to when the next share's first item was seen.
 */
export function shareBoundRate(run: Pick<ShareRun, 'course'>): number {
  return run.course.resumedAtMs === null ? Number.NaN : itemsPerMinute(run.course.burstItems, run.course.resumedAtMs);
}

export function shareTable(rows: Array<{ tree: string; run: ShareRun }>, settings: BulkSettings): string[] {
  if (rows.length === 0) return [];
  const first = rows[0]!.run;
  const lines = [
    `with the share binding: catalog limit ${grouped(first.limit, 0)} a minute, share ${settings.sharePercent} % = ${grouped(first.share, 0)} items a minute; a job of ${first.items}`,
    'tree              items/min  share/min   first share: items  in s   next share at s  job done at s   single lookups left that minute',
  ];
  for (const { tree, run } of rows) {
    lines.push(
      [
        tree.padEnd(16),
        grouped(shareBoundRate(run), 9),
        grouped(run.share, 10),
        String(run.course.burstItems).padStart(20),
        fixed(run.course.burstEndMs / 1000, 1, 5),
        run.course.resumedAtMs === null ? '       (no pause)' : fixed(run.course.resumedAtMs / 1000, 1, 16),
        fixed(run.ms / 1000, 1, 14),
        `${String(run.interactiveLeft).padStart(10)} of ${run.limit - run.share} (then ${run.refusal ?? 'no refusal'})`,
      ].join(' '),
    );
  }
  return lines;
}

export function instancesTable(rows: Array<{ tree: string; one: InstancesRun; two: InstancesRun }>, items: number, redisUrl: string): string[] {
  if (rows.length === 0) return [];
  const lines = [
    `one instance against two of the same build on the same PostgreSQL and Redis (${redisUrl}): a job of ${items} cui-nit NITs each time, sent to the first instance, on fresh instances`,
    'tree              instances  items/min  seconds  speed-up  all running items/min  speed-up  items by instance  first item at s  machine busy %',
  ];
  for (const { tree, one, two } of rows) {
    const oneRate = itemsPerMinute(one.items, one.ms);
    const oneRunning = allRunningRate(one.perInstance);
    for (const run of [one, two]) {
      const rate = itemsPerMinute(run.items, run.ms);
      const running = allRunningRate(run.perInstance);
      const firsts = run.perInstance.map((logged) => (logged.length ? fixed(Math.min(...logged.map((item) => item.startMs)) / 1000, 1, 0) : '-'));
      lines.push(
        [
          tree.padEnd(16),
          String(run.perInstance.length).padStart(10),
          grouped(rate, 10),
          fixed(run.ms / 1000, 1, 8),
          run === one ? ''.padStart(9) : `${fixed(rate / oneRate, 2, 8)}x`,
          grouped(running, 22),
          run === one ? ''.padStart(9) : `${fixed(running / oneRunning, 2, 8)}x`,
          run.perInstance.map((logged) => String(logged.length)).join(' + ').padStart(18),
          firsts.join(', ').padStart(16),
          fixed(run.machineBusyPercent, 0, 15),
        ].join(' '),
      );
    }
  }
  return lines;
}

/**
 * Part 4 alone (npm run bench -- --instances 2): the job on one fresh instance, then on two, and the
 * speed-up against `bound`.
 */
export async function instancesPhase(tree: BulkTree, items: number, redisUrl: string, bound: number): Promise<void> {
  const identifiers = await simulatorNits(items);
  const one = await jobOnInstances(tree, 1, identifiers, redisUrl);
  const two = await jobOnInstances(tree, 2, identifiers, redisUrl);
  console.log();
  for (const line of instancesTable([{ tree: tree.name, one, two }], items, redisUrl)) console.log(line);
  const speedUp = itemsPerMinute(two.items, two.ms) / itemsPerMinute(one.items, one.ms);
  console.log(`bulk job, two instances against one (POST to completado): ${speedUp.toFixed(2)}x, ${speedUp >= bound ? 'within' : 'under'} the bound of ${bound}x`);
}

/** Runs the phase for each tree in turn and prints its tables. */
export async function bulkPhase(trees: BulkTree[], options: BulkOptions, settings: BulkSettings): Promise<void> {
  const { samplePopulation, DEFAULT_SIMULATOR_SEED } = await import('../simulator/index');
  const lookupBody = JSON.stringify({ nit: samplePopulation({ seed: DEFAULT_SIMULATOR_SEED }).individual.nit });
  const identifiers = await simulatorNits(options.items);
  console.log(`\n[bench] bulk jobs: a fresh instance per tree and part, one at a time (--no-bulk leaves this out)`);
  const results: TreeResult[] = [];
  for (const tree of trees) results.push(await jobAndLookups(tree, options, identifiers, lookupBody));
  console.log();
  for (const line of jobTable(results, settings, options.items)) console.log(line);
  console.log('items/min = the job\'s items over the time from POST to completado; in flight = the items\' summed time (app log) over the job\'s time, of BULK_CONCURRENCY.');
  console.log();
  for (const line of lookupTable(results, options.seconds, options.reps)) console.log(line);
  if (options.shareLimit > 0) {
    const rows: Array<{ tree: string; run: ShareRun }> = [];
    for (const result of results) {
      if ('unavailable' in result) continue;
      rows.push({ tree: result.tree, run: await shareBound(trees.find((tree) => tree.name === result.tree)!, options, settings, lookupBody) });
    }
    console.log();
    for (const line of shareTable(rows, settings)) console.log(line);
    console.log('first share = the items run before the job stood still (5 s or more); next share = when its next item was seen (the share\'s window, a minute');
    console.log('from its first item, had ended); items/min = a share per cycle (POST to next share), what a long job gets; single lookups = the');
    console.log('integration\'s own cui_nit lookups answered 200 after the first share, one at a time until refused: the catalog limit minus the share.');
  }
  if (options.twoInstances) {
    if (!options.redisUrl) throw new Error('one instance against two needs the Redis they share (options.redisUrl)');
    const rows: Array<{ tree: string; one: InstancesRun; two: InstancesRun }> = [];
    for (const result of results) {
      if ('unavailable' in result) continue;
      const tree = trees.find((each) => each.name === result.tree)!;
      const one = await jobOnInstances(tree, 1, identifiers, options.redisUrl);
      const two = await jobOnInstances(tree, 2, identifiers, options.redisUrl);
      rows.push({ tree: result.tree, one, two });
    }
    console.log();
    for (const line of instancesTable(rows, options.items, options.redisUrl)) console.log(line);
    console.log('items/min = POST to completado; all running = the items that ended after the last instance\'s first item started, over the time from then to');
    console.log('the last item\'s end (an idle runner joins a job sent to another instance at its next look, up to 10 s later); items by instance and');
    console.log('first item = each instance\'s own log (bulk item lines), s after the POST; --no-bulk-instances leaves this out.');
  }
}
