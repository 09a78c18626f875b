// npm run bench [-- --seconds 5 --connections 1,50 --reps 3]
//   Each lookup against `node server.mjs` on PostgreSQL with the simulator at zero latency, in the
//   same run as (a) a bare route handler of the same app returning the same JSON and (b) the
//   gateway's own upstream client calling the simulator directly. The gateway's own cost is
//   gateway - bare - source. Each cell runs --reps times and shows the median. Database statements
//   per lookup are counted by PostgreSQL (pg_stat_statements); the instance's RSS is read from /proc.
//   And (c) the floor (bench/floor-server.ts): plain node:http doing the lookup's own I/O with the
//   same modules, no Next and no middleware; printed as the gateway's CPU per lookup over the
//   floor's and its throughput as a share of the floor's (issue 70: at most 1.2x, at least 80 %).
//   --floor-in-app runs the same floor a second time in a process that also carries the whole app
//   (Next prepared, its jobs started, its pages served) and splits the gateway's CPU over the floor
//   into what the process costs the floor's own lookups and what the gateway's duties cost beyond it
//   (with --profile, also by file against the floor in the app's process: the duties alone).
//   --lookups-alone runs the gateway's own lookups in a process without Next (bench/lookups-alone-server.ts:
//   the app's start, the lookup routes' modules, server.mjs's answer), set against the floor and the
//   gateway: what a process that answered only the lookups would cost them (with --profile, by file
//   against the floor's profile).
// npm run bench -- --profile
//   The same runs (one repetition) with the app under --cpu-prof; prints the functions with the
//   most self time and where the profiles are.
// npm run bench -- --soak 600
//   50 connections for that many seconds with a realistic mix (the five lookups, 5 % source
//   faults, 2 % wrong tokens): throughput, p50, p99 and RSS every minute.
// npm run bench -- --instances 2 [--source-latency-ms 200] [--seconds 5 --connections 50]
//   Throughput of one instance versus two on the same PostgreSQL and Redis, then a bulk job's items
//   per minute on one fresh instance and on two (--no-bulk leaves the job out), each against issue
//   70's bound (1.9x where the source is slow; 256 connections by default with a source latency).
// npm run bench -- --compare <git ref> [--connections 50 --seconds 5 --reps 3]
//   The working tree against that commit, interleaved A B A B, throughput and CPU per lookup of
//   both and their ratio (bench/compare.ts). In two rounds, each tree's instance started first in
//   one of them: the instance started second runs cheaper whatever its code, and so cancels.
// --lookups renap,rtu_nits,cui_nit,rtu,omisos runs only those. --warmup 5: before anything is measured, each
// lookup (and its bare route) runs that many seconds on the instance, so it is measured warm.
// Then, in the default run and with --compare (both trees), the bulk jobs' phase (bench/bulk.ts): a
// job's items per minute against the jobs' share of the catalog limit, and the cui_nit lookup alone
// and beside a running job. --bulk-items 2000 (the job's size), --bulk-seconds (each lookup run;
// --seconds by default), --bulk-limit 1000 (the catalog limit a minute of the run where the share
// binds; 0 leaves it out), --no-bulk leaves the phase out. The phase ends with the same job on one
// instance and then on two sharing the database and Redis (REDIS_URL, or a throwaway one as for
// --instances 2): items per minute of each, the speed-up, each instance's items; --no-bulk-instances
// leaves that part out.
// --heap: after the runs (or the soak) the instance writes a heap snapshot, and the bench prints
// its bytes by kind of object, the largest first (bench/heap.ts), and where the snapshot is.
// --app-flags='--trace-gc' gives the instance under test more node flags (with --stages its output
// is kept in the log the bench names; perf record -p wants --perf-basic-prof).
// --source-latency-ms N adds N ms to every answer of the simulator (0 by default: the gateway's own
// cost alone); --source-jitter-ms J up to J ms more at random (a real source's spread). A real
// source answers in a few hundred: with it, a job's slots wait on the source
// instead of the CPU, the case where a second instance's slots add throughput. (--compare keeps 0.)
// npm run bench -- --constancias [--connections 1,50 --seconds 5 --reps 3]
//   Each lookup with and without x-constancia: true on the same instance, interleaved A B A B:
//   p50 and p99 of both and their ratio, and the instance's CPU per lookup by thread (the garbage
//   collector's helpers are not in a profile). Twice: at zero latency, what a receipt costs the
//   gateway; then at the sources' latency (200 ms, up to 100 ms more at random past one connection),
//   where issue 68's bound is judged: receipts on within 5 % of receipts off (docs/decisions.md). With
//   --source-latency-ms or --source-jitter-ms, once, at that latency, judged. Then what a receipt
//   keeps on disk (its sealed text, on average, by lookup).
// Prints figures; asserts nothing.
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { benchArguments } from './arguments';
import { heapGroups, heapReport, heapSnapshotFlags, takeHeapSnapshot } from './heap';
import { benchAppEnv, cpuByThreadMs, cpuTimeMs, THREAD_KINDS, type ThreadCpu, memoryBreakdown, productionNodeFlags, productionStartEnv, residentMemory, startBenchApp, type BenchApp } from './app';
import { bulkPhase, bulkSettings, instancesPhase, machineTicks, type BulkOptions } from './bulk';
import { compare } from './compare';
import { runClosedLoop, runLoad, sendForAnswer, warmUp, type LoadResult, type LoadTarget } from './load';
import { benchLookups, type BenchLookup } from './taxpayers';
import { monotonicMicroseconds, selfTimeByFunction, selfTimeByOwner, topSelfTime, type TimeWindow } from './profile';
import { freePort } from '../scripts/free-port';
import { ensureBuild } from '../scripts/next-build';
import { startThrowawayPostgres } from './postgres';
import { startThrowawayRedis } from '../scripts/throwaway-redis';
import { median } from './stats';
import { STATEMENT_COUNTING_SETTINGS, statementCounter, type StatementCount, type StatementCounter } from './statements';

/**
 * How long the instance idles after the runs before its memory is read again: past its quiet minute
 * (IDLE_COLLECTION_AFTER_SECONDS, 60 by default) and the look that follows it, when it collects in
 * full and gives the memory back.
 */
const IDLE_SETTLE_MS = 75_000;
/** How often the idle instance's memory is read meanwhile. */
const IDLE_READ_EVERY_MS = 5_000;

const { values } = benchArguments('npm run bench', import.meta.filename, {
  // --no-bulk
  allowNegative: true,
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string' },
    instances: { type: 'string', default: '1' },
    lookups: { type: 'string' },
    reps: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
    soak: { type: 'string' },
    stages: { type: 'boolean', default: false },
    compare: { type: 'string' },
    bulk: { type: 'boolean', default: true },
    'bulk-items': { type: 'string', default: '2000' },
    'bulk-seconds': { type: 'string' },
    'bulk-limit': { type: 'string', default: '1000' },
    // --no-bulk-instances
    'bulk-instances': { type: 'boolean', default: true },
    // No default: --constancias tells a latency given (one pass, at it) from none (two passes).
    'source-latency-ms': { type: 'string' },
    // Up to this much more at random on each answer: fifty connections against a constant latency
    // stay in lockstep, each round's answers arriving together and queueing for the CPU.
    'source-jitter-ms': { type: 'string' },
    warmup: { type: 'string', default: '5' },
    // --app-flags='--trace-gc --perf-basic-prof': more node flags for the instance under test.
    'app-flags': { type: 'string', default: '' },
    constancias: { type: 'boolean', default: false },
    // After the runs (or the soak), the instance writes a heap snapshot and the bench prints what
    // kinds of object hold its heap (bench/heap.ts).
    heap: { type: 'boolean', default: false },
    // The floor again, in a process that carries the app too (bench/floor-server.ts, FLOOR_WITH_APP).
    'floor-in-app': { type: 'boolean', default: false },
    // The gateway's lookups in a process without Next (bench/lookups-alone-server.ts).
    'lookups-alone': { type: 'boolean', default: false },
  },
});
const HEAP = values.heap;
const CONSTANCIAS = values.constancias;
const SOURCE_LATENCY_GIVEN = values['source-latency-ms'] !== undefined || values['source-jitter-ms'] !== undefined;
const SOURCE_LATENCY_MS = Number(values['source-latency-ms'] ?? 0);
if (!Number.isInteger(SOURCE_LATENCY_MS) || SOURCE_LATENCY_MS < 0) throw new Error('--source-latency-ms takes a whole number of milliseconds, 0 or more');
const SOURCE_JITTER_MS = Number(values['source-jitter-ms'] ?? 0);
if (!Number.isInteger(SOURCE_JITTER_MS) || SOURCE_JITTER_MS < 0) throw new Error('--source-jitter-ms takes a whole number of milliseconds, 0 or more');
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = Number(values.warmup);
if (!(WARMUP_SECONDS >= 0)) throw new Error('--warmup takes a number of seconds, 0 or more');
const TWO_INSTANCES = values.instances === '2';
// With a slow source, one instance answers LOOKUP_CONCURRENCY (64) lookups at once and queues the
// rest: two show their sum only under more connections than both run at once.
const TWO_INSTANCE_CONNECTIONS = SOURCE_LATENCY_MS > 0 ? '256' : '50';
const CONNECTIONS = (values.connections ?? (TWO_INSTANCES ? TWO_INSTANCE_CONNECTIONS : values.compare ? '50' : '1,50')).split(',').map(Number);
const SELECTED_LOOKUPS = values.lookups?.split(',');
const PROFILE = values.profile;
const FLOOR_IN_APP = values['floor-in-app'];
const LOOKUPS_ALONE = values['lookups-alone'];
const REPS = PROFILE ? 1 : Number(values.reps);
const SOAK_SECONDS = values.soak ? Number(values.soak) : undefined;
const STAGES = values.stages;
const BULK: BulkOptions | undefined = values.bulk
  ? {
      items: Number(values['bulk-items']),
      seconds: Number(values['bulk-seconds'] ?? values.seconds),
      reps: REPS,
      connections: CONNECTIONS,
      shareLimit: Number(values['bulk-limit']),
      twoInstances: values['bulk-instances'],
    }
  : undefined;

/** CPU ms per call on each kind of thread between two readings. */
function threadCpuPerCall(before: ThreadCpu, after: ThreadCpu, calls: number): ThreadCpu {
  return Object.fromEntries(THREAD_KINDS.map((kind) => [kind, (after[kind] - before[kind]) / calls])) as ThreadCpu;
}

const cleanups: Array<() => Promise<void> | void> = [];

async function startInstance(env: Record<string, string>, nodeArgs: string[] = [], logFile?: string): Promise<BenchApp> {
  const app = await startBenchApp(env, nodeArgs, logFile);
  cleanups.push(() => app.stop());
  return app;
}

/** The instance's heap by kind of object, from a snapshot it writes now (the bench's --heap). */
async function printHeap(pid: number, directory: string): Promise<void> {
  const file = await takeHeapSnapshot(pid, directory);
  for (const line of heapReport(heapGroups(file))) console.log(`  ${line}`);
  console.log(`  (the snapshot: ${file}; open it in Chrome's DevTools, Memory, for what retains each)`);
}

function format(result: LoadResult): string {
  return `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2).padStart(6)} ms  p99 ${result.p99Ms.toFixed(2).padStart(7)} ms${result.errors ? `  (${result.errors} errors)` : ''}`;
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    const postgres = startThrowawayPostgres(await freePort(), { settings: STATEMENT_COUNTING_SETTINGS });
    cleanups.push(() => postgres.stop());
    process.env.DATABASE_URL = postgres.url;
    console.log(`[bench] throwaway PostgreSQL 15 at ${postgres.url}`);
  }
  if (TWO_INSTANCES && !process.env.REDIS_URL) {
    const redis = await startThrowawayRedis(await freePort());
    cleanups.push(() => redis.stop());
    process.env.REDIS_URL = redis.url;
    console.log(`[bench] throwaway Redis at ${redis.url}`);
  }
  // The bulk phase's two instances share a Redis as production's would; only they use it (the
  // lookup tables keep the in-memory store, unless REDIS_URL is set for the whole bench).
  if (BULK?.twoInstances && !TWO_INSTANCES && !SOAK_SECONDS) {
    if (process.env.REDIS_URL) BULK.redisUrl = process.env.REDIS_URL;
    else {
      const redis = await startThrowawayRedis(await freePort());
      cleanups.push(() => redis.stop());
      BULK.redisUrl = redis.url;
      console.log(`[bench] throwaway Redis for the bulk phase's two instances at ${redis.url}`);
    }
  }
  if (values.compare) {
    await compare({
      ref: values.compare,
      lookups: SELECTED_LOOKUPS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      reps: REPS,
      warmupSeconds: WARMUP_SECONDS,
      bulk: BULK,
      databaseUrl: process.env.DATABASE_URL,
      cleanup: (step) => cleanups.push(step),
    });
    return;
  }
  // The servers this script starts inherit it, so they run the benchmark's own build.
  process.env.NEXT_DIST_DIR = '.next-bench';
  await ensureBuild({ distDir: '.next-bench', label: '[bench]' });

  const { database, closeDatabase } = await import('@/db/client');
  const { applyMigrations } = await import('@/db/migrate');
  const { createIntegration } = await import('@/lib/flows/integration-management/service');
  const { topUp } = await import('@/lib/core/billing/ledger');
  const { FLAG_NAMES } = await import('@/lib/core/integrations/flags');
  await applyMigrations(await database());
  const actor = { kind: 'system', name: 'bench' } as const;
  const created = await createIntegration(actor, {
    nombre: `bench-${Date.now()}`,
    tariffCentavos: 1,
    flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, true])),
  });
  if (!created.ok) throw new Error(created.error.message);
  await topUp(actor, created.value.integration.id, 10_000_000_000, 'Saldo para el benchmark');
  if (CONSTANCIAS) {
    const { setConstancias } = await import('@/lib/flows/integration-management/service');
    await setConstancias(actor, created.value.integration.id, true);
  }
  await closeDatabase();

  const { startSimulator, samplePopulation, DEFAULT_SIMULATOR_SEED, FAULT_IDENTIFIERS } = await import('../simulator/index');
  const simulator = await startSimulator({ port: 0, latencyMs: SOURCE_LATENCY_MS, latencyJitterMs: SOURCE_JITTER_MS, onlineLatencyMs: 0 });
  if (SOURCE_LATENCY_MS > 0 || SOURCE_JITTER_MS > 0) {
    console.log(`the simulator adds ${SOURCE_LATENCY_MS} ms${SOURCE_JITTER_MS ? ` and up to ${SOURCE_JITTER_MS} ms more at random` : ''} to every answer (--source-latency-ms, --source-jitter-ms)`);
  }
  cleanups.push(() => simulator.close());
  const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });

  const bareResponsesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-')), 'bare-responses.json');
  const appEnv: Record<string, string> = {
    ...benchAppEnv(simulator.url, process.env.DATABASE_URL!, path.dirname(bareResponsesFile)),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
  const profileDirectory = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-profile-')) : undefined;
  const heapDirectory = HEAP ? fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-heap-')) : undefined;
  const nodeArgs = [
    ...(profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : []),
    ...(heapDirectory ? heapSnapshotFlags(heapDirectory) : []),
    ...values['app-flags'].split(/\s+/).filter(Boolean),
  ];
  // The log is kept for --stages (its stage timings) and for the soak (the log line of any
  // unexpected answer says what the gateway saw: the upstream's result, the outcome).
  const appLog = STAGES || SOAK_SECONDS ? path.join(path.dirname(bareResponsesFile), 'app.log') : undefined;
  if (appLog) console.log(`[bench] the instance's output: ${appLog}`);
  // Each instance its own journal directory, as production gives each (a directory is one instance's).
  const apps = await Promise.all(
    Array.from({ length: TWO_INSTANCES ? 2 : 1 }, (_, index) =>
      startInstance(index === 0 ? appEnv : { ...appEnv, RECORD_JOURNAL_DIR: `${appEnv.RECORD_JOURNAL_DIR}-${index + 1}` }, nodeArgs, appLog),
    ),
  );
  const instances = apps.map((app) => app.baseUrl);

  const headers = {
    'content-type': 'application/json',
    'x-integracion-login': created.value.integration.nombre,
    'x-integracion-token': created.value.token,
  };
  const nit = sample.individual.nit;
  const nits = [nit, sample.legalEntity.nit, sample.omiso.nit];
  const { createCatalogClient } = await import('@/lib/sources/catalog-client');
  const { createRenapClient } = await import('@/lib/sources/renap-client');
  const { createRtuClient } = await import('@/lib/sources/rtu-client');
  const { SIMULATOR_DEV_CREDENTIALS } = await import('@/lib/sources/settings');
  // The gateway's own clients, built as lib/sources/index.ts builds them, against the same simulator.
  const timeoutMs = 30_000;
  const renapClient = createRenapClient({ baseUrl: `${simulator.url}/renap`, apiKey: SIMULATOR_DEV_CREDENTIALS.renapApiKey, timeoutMs });
  const rtuClient = createRtuClient({ baseUrl: `${simulator.url}/rtu`, apiKey: SIMULATOR_DEV_CREDENTIALS.rtuApiKey, timeoutMs });
  const catalogClient = createCatalogClient({
    baseUrl: `${simulator.url}/catalog`,
    clientId: SIMULATOR_DEV_CREDENTIALS.catalogClientId,
    clientSecret: SIMULATOR_DEV_CREDENTIALS.catalogClientSecret,
    timeoutMs,
  });
  // faultBody: an identifier the simulator always answers with a server error (the soak's source faults).
  const failing = FAULT_IDENTIFIERS.server_error;
  // Each request of a run names another taxpayer (bench/taxpayers.ts).
  const load = benchLookups(DEFAULT_SIMULATOR_SEED);
  const allLookups: Record<string, BenchLookup & { faultBody: unknown; source: () => Promise<boolean> }> = {
    renap: { ...load.renap, faultBody: { cui: failing.cui }, source: async () => (await renapClient.searchByCui(sample.individual.cui!)).ok },
    rtu_nits: { ...load.rtu_nits, faultBody: { nits: [failing.nit] }, source: async () => (await rtuClient.searchByNits(nits)).ok },
    cui_nit: { ...load.cui_nit, faultBody: { nit: failing.nit }, source: async () => (await catalogClient.lookupCuiNit({ nit, actualizado: false })).ok },
    rtu: { ...load.rtu, faultBody: { nit: failing.nit }, source: async () => (await catalogClient.lookupRtu({ nit, actualizado: false })).ok },
    omisos: { ...load.omisos, faultBody: { nit: failing.nit }, source: async () => (await catalogClient.lookupOmisos({ nit, actualizado: false })).ok },
  };
  const lookups = Object.fromEntries(Object.entries(allLookups).filter(([name]) => !SELECTED_LOOKUPS || SELECTED_LOOKUPS.includes(name)));
  const target = (urls: string[], lookup: BenchLookup): LoadTarget => ({ urls, headers, body: lookup.bodies[0]!, bodies: lookup.bodies, expectedStatus: 200 });

  console.log(`\n[bench] ${SECONDS} s per run after 1 s of warm-up; ${os.cpus().length} cores shared by the load generator, the app, the simulator and PostgreSQL\n`);
  if (TWO_INSTANCES) {
    console.log(`one instance versus two, on the same PostgreSQL and Redis (${process.env.REDIS_URL})`);
    console.log(`lookup     conns  one instance                             two instances                            speed-up (bound ${TWO_INSTANCE_BOUND}x${SOURCE_LATENCY_MS > 0 ? '' : ', with --source-latency-ms 200'})  machine busy one two`);
    for (const [name, lookup] of Object.entries(lookups)) {
      for (const connections of CONNECTIONS) {
        const oneBefore = machineTicks();
        const one = await runLoad(target([`${instances[0]}${lookup.path}`], lookup), connections, SECONDS * 1000, 1000);
        const twoBefore = machineTicks();
        const two = await runLoad(target(instances.map((base) => `${base}${lookup.path}`), lookup), connections, SECONDS * 1000, 1000);
        const twoAfter = machineTicks();
        const busy = (from: typeof oneBefore, to: typeof oneBefore) => `${(((to.busy - from.busy) / (to.total - from.total)) * 100).toFixed(0).padStart(3)} %`;
        const speedUp = two.requestsPerSecond / one.requestsPerSecond;
        console.log(
          `${name.padEnd(10)} ${String(connections).padStart(5)}  ${format(one).padEnd(40)} ${format(two).padEnd(40)} ${speedUp.toFixed(2).padStart(6)}x  ${speedUp >= TWO_INSTANCE_BOUND ? 'within' : 'under '}  ${busy(oneBefore, twoBefore)}  ${busy(twoBefore, twoAfter)}`,
        );
      }
    }
    if (BULK) {
      // The same for a bulk job: one fresh instance, then two, on the same Redis (bench/bulk.ts, part 4).
      for (const app of apps) await app.stop();
      const scratch = path.dirname(bareResponsesFile);
      const tree = { name: 'gateway', start: (env: Record<string, string>, logFile: string) => startInstance({ ...appEnv, ...env }, [], logFile), headers, scratch };
      await instancesPhase(tree, BULK.items, process.env.REDIS_URL!, TWO_INSTANCE_BOUND);
    }
    return;
  }

  const [app] = apps as [BenchApp];
  if (CONSTANCIAS) {
    await constanciasPhase(app, simulator, lookups, headers, profileDirectory);
    return;
  }
  if (SOAK_SECONDS) {
    await soak(app, lookups, headers, appLog!, heapDirectory);
    return;
  }

  // The bare route answers with exactly what each lookup answered.
  const bareResponses: Record<string, unknown> = {};
  for (const [name, lookup] of Object.entries(lookups)) {
    const response = await fetch(`${app.baseUrl}${lookup.path}`, { method: 'POST', headers, body: lookup.bodies[0] });
    if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${await response.text()}`);
    bareResponses[name] = await response.json();
  }
  fs.writeFileSync(bareResponsesFile, JSON.stringify(bareResponses));
  const plainServer = await startPlainNodeServer(bareResponsesFile);
  cleanups.push(() => plainServer.stop());
  // Under --profile the floor is profiled too: what the gateway spends beyond it, by owner (issue 70, point 2).
  const floorProfileDirectory = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-floor-profile-')) : undefined;
  const floor = await startFloorServer(
    { ...appEnv, RECORD_JOURNAL_DIR: path.join(path.dirname(bareResponsesFile), 'floor-record-journal') },
    floorProfileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${floorProfileDirectory}`] : [],
  );
  cleanups.push(() => floor.stop());
  // Under --profile too: set against the gateway's, the same process on both sides leaves the duties alone.
  const floorInApp = FLOOR_IN_APP
    ? await startComparedServer('floor-server.ts', "the floor in the app's process", 'floor-in-app', {
        ...appEnv,
        RECORD_JOURNAL_DIR: path.join(path.dirname(bareResponsesFile), 'floor-in-app-record-journal'),
        FLOOR_WITH_APP: '1',
      })
    : undefined;
  if (floorInApp) cleanups.push(() => floorInApp.server.stop());
  const lookupsAlone = LOOKUPS_ALONE
    ? await startComparedServer('lookups-alone-server.ts', 'the lookups without Next', 'lookups-alone', {
        ...appEnv,
        RECORD_JOURNAL_DIR: path.join(path.dirname(bareResponsesFile), 'lookups-alone-record-journal'),
      })
    : undefined;
  if (lookupsAlone) cleanups.push(() => lookupsAlone.server.stop());

  // Measured warm, as production runs: each lookup and its bare route for --warmup seconds first.
  // On a fresh instance the first lookup measured paid for V8 compiling the gateway's code (cui_nit's
  // first two runs of six: 2.1-2.2 ms of CPU a lookup, 2.5x the bare handler; its last: 1.3-1.6, 2.0-2.2x),
  // and the order of the lookups decided which one.
  await warmUp(
    Object.entries(lookups).flatMap(([name, lookup]) => [
      target([`${app.baseUrl}${lookup.path}`], lookup),
      target([`${app.baseUrl}/api/bench/bare?lookup=${name}`], lookup),
      target([`${floor.baseUrl}${lookup.path}`], lookup),
      ...[floorInApp, lookupsAlone].flatMap((compared) => (compared ? [target([`${compared.server.baseUrl}${lookup.path}`], lookup)] : [])),
    ]),
    Math.max(...CONNECTIONS),
    WARMUP_SECONDS,
  );
  if (WARMUP_SECONDS > 0) console.log(`[bench] the instance warmed first: ${WARMUP_SECONDS} s of each lookup, of its bare route and of the floor's, at ${Math.max(...CONNECTIONS)} connections`);

  const counter = await statementCounter(process.env.DATABASE_URL!);
  if ('unavailable' in counter) console.log(`[bench] database statements not counted: ${counter.unavailable}`);
  else cleanups.push(() => counter.close());

  const header = 'lookup     conns   gateway req/s p50 p99     bare req/s p50 p99    source p50 p99    own p50 own p99  throughput  db/lookup  app CPU ms gw bare';
  console.log(header);
  const rows: string[] = [];
  const statementBreakdowns: string[] = [];
  const stageRows: string[] = [];
  const nextRows: string[] = [];
  const floorRows: string[] = [];
  const floorInAppRows: string[] = [];
  const lookupsAloneRows: string[] = [];
  const threadRows: string[] = [];
  // When the gateway ran (the profile counts only these spans) and how many lookups it answered then.
  const gatewayWindows: TimeWindow[] = [];
  let gatewayCalls = 0;
  // The same for the bare handler's runs: its profile is what Next costs a request with no gateway work.
  const bareWindows: TimeWindow[] = [];
  let bareCalls = 0;
  // And the floor's runs.
  const floorWindows: TimeWindow[] = [];
  let floorCalls = 0;
  for (const [name, lookup] of Object.entries(lookups)) {
    for (const connections of CONNECTIONS) {
      const runs: Array<{
        gateway: LoadResult;
        bare: LoadResult;
        plain: LoadResult;
        source: LoadResult;
        floor: LoadResult;
        statements?: StatementCount;
        gatewayCpuMs: number;
        bareCpuMs: number;
        floorCpuMs: number;
        floorInAppCpuMs: number;
        lookupsAloneCpuMs: number;
        lookupsAloneRps: number;
        gatewayThreads: ThreadCpu;
        floorThreads: ThreadCpu;
      }> = [];
      for (let rep = 0; rep < REPS; rep++) {
        const counting = 'unavailable' in counter ? undefined : (counter as StatementCounter);
        await counting?.reset();
        const logOffset = appLog ? fs.statSync(appLog).size : 0;
        const gatewayCpuBefore = cpuTimeMs(app.pid);
        const gatewayThreadsBefore = cpuByThreadMs(app.pid);
        const gatewayStartedUs = monotonicMicroseconds();
        const gateway = await runLoad(target([`${app.baseUrl}${lookup.path}`], lookup), connections, SECONDS * 1000, 1000);
        gatewayWindows.push({ fromUs: gatewayStartedUs, toUs: monotonicMicroseconds() });
        gatewayCalls += gateway.calls;
        const gatewayCpuMs = (cpuTimeMs(app.pid) - gatewayCpuBefore) / gateway.calls;
        const gatewayThreads = threadCpuPerCall(gatewayThreadsBefore, cpuByThreadMs(app.pid), gateway.calls);
        const statements = await counting?.read();
        const bareCpuBefore = cpuTimeMs(app.pid);
        const bareStartedUs = monotonicMicroseconds();
        const bare = await runLoad(target([`${app.baseUrl}/api/bench/bare?lookup=${name}`], lookup), connections, SECONDS * 1000, 1000);
        bareWindows.push({ fromUs: bareStartedUs, toUs: monotonicMicroseconds() });
        bareCalls += bare.calls;
        const bareCpuMs = (cpuTimeMs(app.pid) - bareCpuBefore) / bare.calls;
        const plain = await runLoad(target([`${plainServer.baseUrl}/?lookup=${name}`], lookup), connections, SECONDS * 1000, 1000);
        const source = await runClosedLoop(lookup.source, connections, SECONDS * 1000, 1000);
        const floorCpuBefore = cpuTimeMs(floor.pid);
        const floorThreadsBefore = cpuByThreadMs(floor.pid);
        const floorStartedUs = monotonicMicroseconds();
        const floorRun = await runLoad(target([`${floor.baseUrl}${lookup.path}`], lookup), connections, SECONDS * 1000, 1000);
        floorWindows.push({ fromUs: floorStartedUs, toUs: monotonicMicroseconds() });
        floorCalls += floorRun.calls;
        const floorCpuMs = (cpuTimeMs(floor.pid) - floorCpuBefore) / floorRun.calls;
        const floorThreads = threadCpuPerCall(floorThreadsBefore, cpuByThreadMs(floor.pid), floorRun.calls);
        const comparedRun = (compared: ComparedServer | undefined) => (compared ? measureCompared(compared, target([`${compared.server.baseUrl}${lookup.path}`], lookup), connections) : undefined);
        const floorInAppRun = await comparedRun(floorInApp);
        const lookupsAloneRun = await comparedRun(lookupsAlone);
        runs.push({
          gateway,
          bare,
          plain,
          source,
          floor: floorRun,
          statements,
          gatewayCpuMs,
          bareCpuMs,
          floorCpuMs,
          floorInAppCpuMs: floorInAppRun?.cpuMs ?? Number.NaN,
          lookupsAloneCpuMs: lookupsAloneRun?.cpuMs ?? Number.NaN,
          lookupsAloneRps: lookupsAloneRun?.requestsPerSecond ?? Number.NaN,
          gatewayThreads,
          floorThreads,
        });
        if (appLog && rep === REPS - 1) stageRows.push(stageRow(name, connections, gateway, readLookupLines(appLog, logOffset)));
      }
      const m = (pick: (run: (typeof runs)[number]) => number) => median(runs.map(pick));
      const gateway = { rps: m((r) => r.gateway.requestsPerSecond), p50: m((r) => r.gateway.p50Ms), p99: m((r) => r.gateway.p99Ms), errors: m((r) => r.gateway.errors) };
      const bare = { rps: m((r) => r.bare.requestsPerSecond), p50: m((r) => r.bare.p50Ms), p99: m((r) => r.bare.p99Ms) };
      const source = { p50: m((r) => r.source.p50Ms), p99: m((r) => r.source.p99Ms), errors: m((r) => r.source.errors) };
      // Statements during the gateway run (warm-up included) over the lookups sent in it.
      const perLookup = runs[0]!.statements ? m((r) => r.statements!.total / r.gateway.calls) : Number.NaN;
      const ownP50 = gateway.p50 - bare.p50 - source.p50;
      const ownP99 = gateway.p99 - bare.p99 - source.p99;
      rows.push(
        [
          name.padEnd(9),
          String(connections).padStart(5),
          `${gateway.rps.toFixed(0).padStart(6)} ${gateway.p50.toFixed(2).padStart(6)} ${gateway.p99.toFixed(2).padStart(7)}`,
          `${bare.rps.toFixed(0).padStart(6)} ${bare.p50.toFixed(2).padStart(6)} ${bare.p99.toFixed(2).padStart(7)}`,
          `${source.p50.toFixed(2).padStart(6)} ${source.p99.toFixed(2).padStart(7)}`,
          `${ownP50.toFixed(2).padStart(7)} ${ownP99.toFixed(2).padStart(7)}`,
          `${((gateway.rps / bare.rps) * 100).toFixed(0).padStart(5)} %`,
          Number.isNaN(perLookup) ? '    -' : perLookup.toFixed(2).padStart(5),
          `${m((r) => r.gatewayCpuMs).toFixed(2).padStart(6)} ${m((r) => r.bareCpuMs).toFixed(2).padStart(5)}`,
          gateway.errors || source.errors ? `  (errors: gateway ${gateway.errors}, source ${source.errors})` : '',
        ].join('  '),
      );
      console.log(rows.at(-1));
      const plain = { rps: m((r) => r.plain.requestsPerSecond), p50: m((r) => r.plain.p50Ms), p99: m((r) => r.plain.p99Ms) };
      nextRows.push(
        [
          name.padEnd(9),
          String(connections).padStart(5),
          `${plain.rps.toFixed(0).padStart(6)} ${plain.p50.toFixed(2).padStart(6)} ${plain.p99.toFixed(2).padStart(7)}`,
          `${bare.rps.toFixed(0).padStart(6)} ${bare.p50.toFixed(2).padStart(6)} ${bare.p99.toFixed(2).padStart(7)}`,
          `${(bare.p50 - plain.p50).toFixed(2).padStart(7)} ${(bare.p99 - plain.p99).toFixed(2).padStart(7)}`,
          `${((bare.rps / plain.rps) * 100).toFixed(0).padStart(5)} %`,
        ].join('  '),
      );
      const floorCells = { rps: m((r) => r.floor.requestsPerSecond), p50: m((r) => r.floor.p50Ms), p99: m((r) => r.floor.p99Ms), errors: m((r) => r.floor.errors) };
      const cpuRatio = m((r) => r.gatewayCpuMs / r.floorCpuMs);
      const throughputShare = m((r) => r.gateway.requestsPerSecond / r.floor.requestsPerSecond);
      floorRows.push(
        [
          name.padEnd(9),
          String(connections).padStart(5),
          `${floorCells.rps.toFixed(0).padStart(6)} ${floorCells.p50.toFixed(2).padStart(6)} ${floorCells.p99.toFixed(2).padStart(7)}`,
          `${m((r) => r.gatewayCpuMs).toFixed(2).padStart(7)} ${m((r) => r.floorCpuMs).toFixed(2).padStart(6)}`,
          `${cpuRatio.toFixed(2).padStart(7)}x`,
          `${(throughputShare * 100).toFixed(0).padStart(8)} %`,
          `  ${cpuRatio <= FLOOR_CPU_BOUND ? 'within' : 'over'} ${connections >= 50 ? (throughputShare >= FLOOR_THROUGHPUT_BOUND ? 'within' : 'under') : '-'}`,
          floorCells.errors ? `  (floor errors: ${floorCells.errors})` : '',
        ].join('  '),
      );
      if (floorInApp) {
        floorInAppRows.push(
          [
            name.padEnd(9),
            String(connections).padStart(5),
            `${m((r) => r.floorCpuMs).toFixed(2).padStart(9)} ${m((r) => r.floorInAppCpuMs).toFixed(2).padStart(7)} ${m((r) => r.gatewayCpuMs).toFixed(2).padStart(8)}`,
            `${m((r) => r.floorInAppCpuMs / r.floorCpuMs).toFixed(2).padStart(22)}x`,
            `${m((r) => r.gatewayCpuMs / r.floorInAppCpuMs).toFixed(2).padStart(26)}x`,
          ].join('  '),
        );
      }
      if (lookupsAlone) {
        const aloneRatio = m((r) => r.lookupsAloneCpuMs / r.floorCpuMs);
        const aloneShare = m((r) => r.lookupsAloneRps / r.floor.requestsPerSecond);
        lookupsAloneRows.push(
          [
            name.padEnd(9),
            String(connections).padStart(5),
            `${m((r) => r.floorCpuMs).toFixed(2).padStart(9)} ${m((r) => r.lookupsAloneCpuMs).toFixed(2).padStart(6)} ${m((r) => r.gatewayCpuMs).toFixed(2).padStart(8)}`,
            `${aloneRatio.toFixed(2).padStart(14)}x`,
            `${(aloneShare * 100).toFixed(0).padStart(12)} %`,
            `${m((r) => r.gatewayCpuMs / r.lookupsAloneCpuMs).toFixed(2).padStart(22)}x`,
            `  ${aloneRatio <= FLOOR_CPU_BOUND ? 'within' : 'over'} ${connections >= 50 ? (aloneShare >= FLOOR_THROUGHPUT_BOUND ? 'within' : 'under') : '-'}`,
          ].join('  '),
        );
      }
      threadRows.push(
        [
          name.padEnd(9),
          String(connections).padStart(5),
          ...THREAD_KINDS.map((kind) => `${m((r) => r.gatewayThreads[kind]).toFixed(3).padStart(6)} ${m((r) => r.floorThreads[kind]).toFixed(3).padStart(6)}`.padStart(22)),
        ].join('  '),
      );
      const last = runs.at(-1)!;
      if (connections === CONNECTIONS[0] && last.statements) {
        const answered = last.gateway.calls;
        statementBreakdowns.push(
          `${name} (c=${connections}, ${answered} lookups):\n` +
            last.statements.statements
              .slice(0, 8)
              .map((statement) => `  ${(statement.calls / answered).toFixed(3).padStart(7)}  ${statement.meanMs.toFixed(3).padStart(7)} ms  ${statement.query}`)
              .join('\n'),
        );
      }
    }
  }
  const memory = residentMemory(app.pid);
  const memoryParts = await memoryBreakdown(app.pid, app.baseUrl);
  // Right after the load V8 still holds what the last runs allocated (a full young generation, old
  // space not yet given back): the figure moved by tens of MiB with when the last collection ran.
  // Once the load stops V8's memory reducer and the instance's idle collection give back what they
  // can; an idle instance is read too, every IDLE_READ_EVERY_MS.
  const idleReads: number[] = [];
  for (let waited = IDLE_READ_EVERY_MS; waited <= IDLE_SETTLE_MS; waited += IDLE_READ_EVERY_MS) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_READ_EVERY_MS));
    idleReads.push(residentMemory(app.pid).rssMiB);
  }
  const idleMemory = residentMemory(app.pid);
  const idleMemoryParts = await memoryBreakdown(app.pid, app.baseUrl);
  console.log(`\n${REPS} repetition(s) per cell, median shown; times in ms.`);
  console.log(header);
  for (const row of rows) console.log(row);
  console.log('\nown = gateway - bare handler - source (the same client against the same simulator); throughput = gateway req/s as a share of the bare handler\'s;');
  console.log('db/lookup = statements PostgreSQL executed per lookup during the gateway runs (pg_stat_statements; one round trip each; background jobs included).');
  console.log('app CPU = the instance\'s CPU time (user + system, /proc) per request, gateway and bare handler: the work behind the latency, barely disturbed by other load.');
  console.log(`instance RSS after the runs: ${memory.rssMiB.toFixed(0)} MiB (peak ${memory.peakMiB.toFixed(0)} MiB)`);
  console.log(`  ${memoryParts}`);
  console.log(`instance RSS ${IDLE_SETTLE_MS / 1000} s later, idle: ${idleMemory.rssMiB.toFixed(0)} MiB (every ${IDLE_READ_EVERY_MS / 1000} s: ${idleReads.map((mib) => mib.toFixed(0)).join(' ')})`);
  console.log(`  ${idleMemoryParts}`);
  console.log(`  bound (RSS <= ${RSS_BOUND_MIB} MiB after the bench, once quiet): ${idleMemory.rssMiB <= RSS_BOUND_MIB ? 'within' : 'over'}`);
  if (heapDirectory) await printHeap(app.pid, heapDirectory);
  console.log('\nThe floor (bench/floor-server.ts): plain node:http running a lookup\'s own work with the same modules (token check, hold, source call, settlement and record), no Next and no middleware');
  console.log(`lookup     conns    floor req/s p50 p99   CPU ms gw floor  gw/floor  gw/floor req/s  bounds (CPU <= ${FLOOR_CPU_BOUND}x; req/s >= ${FLOOR_THROUGHPUT_BOUND * 100} % at 50)`);
  for (const row of floorRows) console.log(row);
  console.log('\nCPU ms per lookup by thread, gateway and floor (/proc/<pid>/task: the main thread runs the JavaScript; V8\'s workers collect garbage beside it; libuv\'s pool runs file writes, crypto and zlib handed to it)');
  console.log(`lookup     conns  ${THREAD_KINDS.map((kind) => `${kind} gw floor`.padStart(22)).join('  ')}`);
  for (const row of threadRows) console.log(row);
  console.log(`floor RSS after the runs: ${residentMemory(floor.pid).rssMiB.toFixed(0)} MiB`);
  if (floorInApp) {
    console.log("\nThe floor in the app's process (--floor-in-app): the floor's own lookups, in a process that also carries the app (Next prepared, its jobs started, its pages served)");
    console.log('lookup     conns   CPU ms floor  in app  gateway   in app / floor (the process)   gateway / in app (its duties)');
    for (const row of floorInAppRows) console.log(row);
    console.log(`floor in the app's process: RSS after the runs ${residentMemory(floorInApp.server.pid).rssMiB.toFixed(0)} MiB`);
  }
  if (lookupsAlone) {
    console.log("\nThe lookups without Next (--lookups-alone): the gateway's own lookup code, in a process started as the app starts (its settings, jobs, directory and limits) with no Next in it");
    console.log(`lookup     conns   CPU ms floor  alone  gateway   alone / floor   alone/floor req/s   gateway / alone (Next)  bounds (CPU <= ${FLOOR_CPU_BOUND}x; req/s >= ${FLOOR_THROUGHPUT_BOUND * 100} % at 50)`);
    for (const row of lookupsAloneRows) console.log(row);
    console.log(`lookups without Next: RSS after the runs ${residentMemory(lookupsAlone.server.pid).rssMiB.toFixed(0)} MiB`);
  }
  console.log('\nNext.js itself: the same answer from a plain node:http server and from the bare route handler (times in ms)');
  console.log('lookup     conns     plain req/s p50 p99    bare req/s p50 p99    Next p50 Next p99  bare/plain');
  for (const row of nextRows) console.log(row);
  if (statementBreakdowns.length) console.log(`\nstatements per lookup (and PostgreSQL's mean execution time of each), most frequent first:\n${statementBreakdowns.join('\n')}`);
  if (stageRows.length) {
    console.log('\nwhere a lookup\'s time goes (p50 ms, from the app\'s log lines of the last repetition; handler = inside lookupRoute, outside = gateway p50 - handler p50):');
    console.log(`lookup     conns  ${['gateway', 'outside', 'handler', ...STAGE_NAMES, 'rest'].map((column) => column.padStart(8)).join('')}`);
    for (const row of stageRows) console.log(row);
  }

  if (profileDirectory) {
    await app.stop();
    const { totalMs, top } = topSelfTime(profileDirectory, 40, gatewayWindows);
    console.log(
      `\nCPU profile of the app during the gateway runs only (${(totalMs / 1000).toFixed(1)} s sampled, ${gatewayCalls} lookups; files in ${profileDirectory}), top functions by self time, bundled code named through its source maps:`,
    );
    console.log('share   total ms  µs/lookup  function');
    for (const entry of top) {
      console.log(`${(entry.share * 100).toFixed(1).padStart(5)} %  ${entry.selfMs.toFixed(0).padStart(7)}  ${((entry.selfMs * 1000) / gatewayCalls).toFixed(1).padStart(9)}  ${entry.name}  ${entry.location}`);
    }
    const gatewayFunctions = selfTimeByFunction(profileDirectory, gatewayWindows);
    const bareFunctions = selfTimeByFunction(profileDirectory, bareWindows);
    printCpuByOwner(selfTimeByOwner(gatewayFunctions), gatewayCalls, selfTimeByOwner(bareFunctions), bareCalls);
    printAddedFunctions(gatewayFunctions, gatewayCalls, bareFunctions, bareCalls);
    if (floorProfileDirectory) await floor.stopped();
    const floorFunctions = floorProfileDirectory ? selfTimeByFunction(floorProfileDirectory, floorWindows) : undefined;
    if (floorFunctions) {
      console.log("\nbeyond the floor: the same profile against the floor's (µs of self time per lookup, by owner)");
      printCpuByOwner(selfTimeByOwner(gatewayFunctions), gatewayCalls, selfTimeByOwner(floorFunctions), floorCalls, 'floor');
      printAddedFunctions(gatewayFunctions, gatewayCalls, floorFunctions, floorCalls, 'floor');
      printFilesBeyondFloor(gatewayFunctions, gatewayCalls, floorFunctions, floorCalls);
    }
    if (floorInApp?.profileDirectory) {
      await floorInApp.server.stopped();
      const floorInAppFunctions = selfTimeByFunction(floorInApp.profileDirectory, floorInApp.windows);
      console.log("\nbeyond the floor in the app's process: the duties alone (µs of self time per lookup, by owner)");
      printCpuByOwner(selfTimeByOwner(gatewayFunctions), gatewayCalls, selfTimeByOwner(floorInAppFunctions), floorInApp.calls, 'in app');
      printFilesBeyondFloor(gatewayFunctions, gatewayCalls, floorInAppFunctions, floorInApp.calls, "the floor in the app's process");
    }
    if (lookupsAlone?.profileDirectory && floorFunctions) {
      await lookupsAlone.server.stopped();
      const aloneFunctions = selfTimeByFunction(lookupsAlone.profileDirectory, lookupsAlone.windows);
      console.log("\nthe lookups without Next beyond the floor: the gateway's duties in a process of the floor's kind (µs of self time per lookup, by owner; both run from their sources under tsx)");
      printCpuByOwner(selfTimeByOwner(aloneFunctions), lookupsAlone.calls, selfTimeByOwner(floorFunctions), floorCalls, 'floor', 'alone');
      printAddedFunctions(aloneFunctions, lookupsAlone.calls, floorFunctions, floorCalls, 'floor');
      printFilesBeyondFloor(aloneFunctions, lookupsAlone.calls, floorFunctions, floorCalls);
    }
  }

  if (BULK) {
    // Its own instances, with their logs kept: this one's runner (and the floor in the app's
    // process's) would otherwise claim their jobs' items too.
    await app.stop();
    await floorInApp?.server.stopped();
    await lookupsAlone?.server.stopped();
    const tree = { name: 'gateway', start: (env: Record<string, string>, logFile: string) => startInstance({ ...appEnv, ...env }, [], logFile), headers, scratch: path.dirname(bareResponsesFile) };
    await bulkPhase([tree], BULK, await bulkSettings(appEnv));
  }
}

/**
 * Self time by source file, gateway against floor: the gateway's bundle is minified and the
 * floor's is not, so their functions' names differ where their files (after source maps) do not.
 */
function printFilesBeyondFloor(gateway: ReturnType<typeof selfTimeByFunction>, gatewayCalls: number, floor: ReturnType<typeof selfTimeByFunction>, floorCalls: number, baseline = 'the floor'): void {
  const byFile = (functions: ReturnType<typeof selfTimeByFunction>, calls: number) => {
    const files = new Map<string, number>();
    for (const { name, location, selfMs } of functions.values()) {
      const file = location ? location.replace(/:\d+(:\d+)?$/, '') : name;
      files.set(file, (files.get(file) ?? 0) + (selfMs * 1000) / calls);
    }
    return files;
  };
  const gatewayFiles = byFile(gateway, gatewayCalls);
  const floorFiles = byFile(floor, floorCalls);
  const rows = [...new Set([...gatewayFiles.keys(), ...floorFiles.keys()])]
    .map((file) => ({ file, gateway: gatewayFiles.get(file) ?? 0, floor: floorFiles.get(file) ?? 0 }))
    .sort((a, b) => b.gateway - b.floor - (a.gateway - a.floor))
    .slice(0, 30);
  console.log(`\nfiles the gateway spends most in beyond ${baseline} (µs of self time per lookup; builtins by name):`);
  console.log(' gateway   floor   added  file');
  for (const row of rows) console.log(`${row.gateway.toFixed(1).padStart(8)}${row.floor.toFixed(1).padStart(8)}${(row.gateway - row.floor).toFixed(1).padStart(8)}  ${row.file}`);
}

/** The functions that a lookup runs most beyond a bare request: gateway µs per lookup minus bare µs per request. */
function printAddedFunctions(gateway: ReturnType<typeof selfTimeByFunction>, gatewayCalls: number, bare: ReturnType<typeof selfTimeByFunction>, bareCalls: number, baseline = 'bare'): void {
  const added = [...gateway].map(([key, entry]) => ({ ...entry, addedUs: (entry.selfMs * 1000) / gatewayCalls - ((bare.get(key)?.selfMs ?? 0) * 1000) / bareCalls }));
  console.log(
    baseline === 'bare'
      ? '\nfunctions a lookup adds most to a bare request (µs of self time per request, gateway minus bare):'
      : `\nfunctions the gateway runs most beyond the ${baseline} (µs of self time per lookup, gateway minus ${baseline}):`,
  );
  for (const entry of added.sort((a, b) => b.addedUs - a.addedUs).slice(0, 30)) {
    console.log(`${entry.addedUs.toFixed(0).padStart(6)}  ${entry.name}  ${entry.location}  (${entry.owner})`);
  }
}

/**
 * The profile's CPU by owner, per gateway lookup and per bare request: the bare column is what
 * Next (and Node under it) costs a request that does no gateway work, and the difference is what
 * the lookup adds, including what the lookup's own code makes Next and Node do.
 */
function printCpuByOwner(gateway: Map<string, number>, gatewayCalls: number, bare: Map<string, number>, bareCalls: number, baseline = 'bare', subject = 'gateway'): void {
  const owners = [...new Set([...gateway.keys(), ...bare.keys()])].sort((a, b) => (gateway.get(b) ?? 0) - (gateway.get(a) ?? 0));
  const perCall = (ms: number | undefined, calls: number) => ((ms ?? 0) * 1000) / calls;
  console.log('\nCPU by owner (profile, µs of self time per request; idle left out):');
  console.log(`${'owner'.padEnd(56)} ${subject.padStart(8)} ${baseline.padStart(8)} ${'added'.padStart(8)}`);
  let totals = [0, 0];
  for (const owner of owners) {
    const [g, b] = [perCall(gateway.get(owner), gatewayCalls), perCall(bare.get(owner), bareCalls)];
    totals = [totals[0]! + g, totals[1]! + b];
    if (g < 1 && b < 1) continue;
    console.log(`${owner.padEnd(56)} ${g.toFixed(0).padStart(8)} ${b.toFixed(0).padStart(8)} ${(g - b).toFixed(0).padStart(8)}`);
  }
  console.log(`${'total'.padEnd(56)} ${totals[0]!.toFixed(0).padStart(8)} ${totals[1]!.toFixed(0).padStart(8)} ${(totals[0]! - totals[1]!).toFixed(0).padStart(8)}`);
}

const STAGE_NAMES = ['auth', 'hold', 'source', 'settle'] as const;

interface LookupLine {
  durationMs: number;
  stagesMs: Partial<Record<(typeof STAGE_NAMES)[number], number>>;
}

/** The per-lookup log lines (lib/surfaces/api/route.ts, reportLookup) written since `offset`. */
function readLookupLines(file: string, offset: number): LookupLine[] {
  const text = fs.readFileSync(file).subarray(offset).toString('utf8');
  const lines: LookupLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('"msg":"lookup"')) continue;
    const entry = JSON.parse(line) as LookupLine;
    lines.push({ durationMs: entry.durationMs, stagesMs: entry.stagesMs ?? {} });
  }
  return lines;
}

/** Medians of the handler's time and of each stage; "rest" is the handler's time outside the stages. */
function stageRow(name: string, connections: number, gateway: LoadResult, lines: LookupLine[]): string {
  const handler = median(lines.map((line) => line.durationMs));
  const stages = STAGE_NAMES.map((stage) => median(lines.map((line) => line.stagesMs[stage] ?? 0)));
  const rest = median(lines.map((line) => line.durationMs - STAGE_NAMES.reduce((sum, stage) => sum + (line.stagesMs[stage] ?? 0), 0)));
  const cells = [gateway.p50Ms, gateway.p50Ms - handler, handler, ...stages, rest];
  return `${name.padEnd(9)}  ${String(connections).padStart(5)}  ${cells.map((ms) => ms.toFixed(2).padStart(8)).join('')}`;
}

/** bench/plain-node-server.mjs on a free port, answering what the bare handler answers. */
function startPlainNodeServer(responsesFile: string): Promise<ChildServer> {
  return startChildServer([path.join(import.meta.dirname, 'plain-node-server.mjs')], { BENCH_BARE_RESPONSES_FILE: responsesFile }, 'the plain node server');
}

interface ChildServer {
  baseUrl: string;
  pid: number;
  stop: () => void;
  /** SIGTERM, resolved once the process exited (a profiled one has written its profile). */
  stopped: () => Promise<void>;
}

/**
 * A bench server (`node ...args`) on a free port of 127.0.0.1, ready once it printed "listening"
 * on a line of its own (the floor with the app has the app's log lines on stdout too, read and
 * dropped so that a full pipe never stops it).
 */
async function startChildServer(args: string[], env: Record<string, string>, name: string): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    let listening = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (listening) return;
      output += chunk.toString('utf8');
      listening = /^listening$/m.test(output);
      if (listening) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => child.kill('SIGTERM'),
    stopped: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Issue 70's bound on an instance's resident memory after the bench (once quiet) and through the soak. */
const RSS_BOUND_MIB = 200;

/** Issue 70's bound for two instances against one, where the source is slow (--source-latency-ms 200). */
const TWO_INSTANCE_BOUND = 1.9;

/** Issue 70's bounds: the gateway's CPU per lookup against the floor's, and its throughput as a share of the floor's at 50 connections. */
const FLOOR_CPU_BOUND = 1.2;
const FLOOR_THROUGHPUT_BOUND = 0.8;

/**
 * bench/floor-server.ts on a free port, with the instance's environment and node flags (as `npm
 * start` gives them), under tsx so that it imports the product's modules from their sources.
 */
function startFloorServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<ChildServer> {
  return startBenchServer('floor-server.ts', 'the floor server', env, nodeArgs);
}

/** A bench/ server script (the floor's kind) on a free port, under tsx with the instance's environment and node flags. */
function startBenchServer(script: string, name: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<ChildServer> {
  return startChildServer([...productionNodeFlags(), ...nodeArgs, '--import', 'tsx', path.join(import.meta.dirname, script)], { ...productionStartEnv(), ...env }, name);
}

/**
 * A process measured beside the gateway and the floor (--floor-in-app, --lookups-alone): its server,
 * where its profile goes under --profile, and the spans and lookups of its runs (what the profile counts).
 */
interface ComparedServer {
  server: ChildServer;
  profileDirectory?: string;
  windows: TimeWindow[];
  calls: number;
}

async function startComparedServer(script: string, name: string, profileName: string, env: Record<string, string>): Promise<ComparedServer> {
  const profileDirectory = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), `gateway-bench-${profileName}-profile-`)) : undefined;
  const server = await startBenchServer(script, name, env, profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : []);
  return { server, profileDirectory, windows: [], calls: 0 };
}

/** One run against a compared process: its result, and the process's CPU (/proc) per lookup answered. */
async function measureCompared(compared: ComparedServer, load: LoadTarget, connections: number): Promise<LoadResult & { cpuMs: number }> {
  const cpuBefore = cpuTimeMs(compared.server.pid);
  const fromUs = monotonicMicroseconds();
  const run = await runLoad(load, connections, SECONDS * 1000, 1000);
  if (run.errors > 0) throw new Error(`${compared.server.baseUrl} answered ${run.errors} of its lookups with errors`);
  compared.windows.push({ fromUs, toUs: monotonicMicroseconds() });
  compared.calls += run.calls;
  return { ...run, cpuMs: (cpuTimeMs(compared.server.pid) - cpuBefore) / run.calls };
}

interface SoakRequest {
  kind: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The soak's mix, the way integrators call: the five lookups in turn, 5 % of them for an
 * identifier the simulator answers with a server error (a source fault, answered 502 or 500 and
 * never charged), 2 % with a wrong token (refused before the source). Each kind's status is
 * learned from its first answer; any other status later is an error.
 */
function soakMix(lookups: Record<string, { path: string; bodies: string[]; faultBody: unknown }>, headers: Record<string, string>): () => SoakRequest {
  const entries = Object.entries(lookups);
  const wrongToken = { ...headers, 'x-integracion-token': `${headers['x-integracion-token']}-wrong` };
  let turn = 0;
  return () => {
    const [name, lookup] = entries[turn++ % entries.length]!;
    const draw = Math.random();
    // Another taxpayer each time, as for the runs (bench/taxpayers.ts).
    const body = lookup.bodies[Math.floor(Math.random() * lookup.bodies.length)]!;
    if (draw < 0.02) return { kind: `${name} wrong token`, path: lookup.path, headers: wrongToken, body };
    if (draw < 0.07) return { kind: `${name} source fault`, path: lookup.path, headers, body: JSON.stringify(lookup.faultBody) };
    return { kind: name, path: lookup.path, headers, body };
  };
}

/**
 * SOAK_SECONDS at 50 connections with the realistic mix; throughput, p99 and the instance's RSS
 * every minute, and whether RSS or p99 still grow over the last five minutes.
 */
async function soak(app: BenchApp, lookups: Record<string, { path: string; bodies: string[]; faultBody: unknown }>, headers: Record<string, string>, appLog: string, heapDirectory: string | undefined): Promise<void> {
  const connections = 50;
  const next = soakMix(lookups, headers);
  const expected = new Map<string, number>();
  const statusCounts = new Map<string, number>();
  const unexpected: Array<{ kind: string; status: number; requestId: string | undefined }> = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const call = async () => {
    const request = next();
    const { status, requestId } = await sendForAnswer(agent, `${app.baseUrl}${request.path}`, request);
    const key = `${request.kind} ${status}`;
    statusCounts.set(key, (statusCounts.get(key) ?? 0) + 1);
    if (!expected.has(request.kind)) expected.set(request.kind, status);
    if (expected.get(request.kind) === status) return true;
    unexpected.push({ kind: request.kind, status, requestId });
    return false;
  };
  console.log(`soak: ${Object.keys(lookups).join(', ')} in turn, 5 % source faults, 2 % wrong tokens; ${connections} connections for ${SOAK_SECONDS} s`);
  console.log(' min   req/s   p50 ms   p99 ms   RSS MiB   errors');
  const minutes: Array<{ minute: number; p99Ms: number; rssMiB: number }> = [];
  let answered = 0;
  let errors = 0;
  try {
    for (let minute = 1; minute * 60 <= SOAK_SECONDS!; minute++) {
      const result = await runClosedLoop(call, connections, 60_000, 0);
      answered += result.requests;
      errors += result.errors;
      const rssMiB = residentMemory(app.pid).rssMiB;
      minutes.push({ minute, p99Ms: result.p99Ms, rssMiB });
      console.log(
        `${String(minute).padStart(4)}  ${result.requestsPerSecond.toFixed(0).padStart(6)}  ${result.p50Ms.toFixed(1).padStart(7)}  ${result.p99Ms.toFixed(1).padStart(7)}  ${rssMiB.toFixed(0).padStart(8)}  ${String(result.errors).padStart(7)}`,
      );
    }
  } finally {
    agent.destroy();
  }
  const memory = residentMemory(app.pid);
  console.log(`
${answered} lookups, ${errors} answers other than their kind's; RSS at the end ${memory.rssMiB.toFixed(0)} MiB, peak ${memory.peakMiB.toFixed(0)} MiB`);
  const soakWithin = memory.peakMiB <= RSS_BOUND_MIB && unexpected.length === 0;
  console.log(`  bound (RSS <= ${RSS_BOUND_MIB} MiB through the soak, its peak included, and no unexpected answer): ${soakWithin ? 'within' : 'over'}`);
  console.log(`  ${await memoryBreakdown(app.pid, app.baseUrl)}`);
  if (heapDirectory) await printHeap(app.pid, heapDirectory);
  const lastFive = minutes.slice(-5);
  const signed = (value: number, digits: number) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
  if (lastFive.length >= 2) {
    const rssChange = lastFive.at(-1)!.rssMiB - lastFive[0]!.rssMiB;
    const p99Change = lastFive.at(-1)!.p99Ms - lastFive[0]!.p99Ms;
    console.log(
      `over the last ${lastFive.length} minutes: RSS ${signed(rssChange, 0)} MiB, p99 ${signed(p99Change, 1)} ms (minute ${lastFive[0]!.minute} to ${lastFive.at(-1)!.minute}); trend ${signed(slopePerMinute(lastFive.map((m) => m.rssMiB)), 1)} MiB and ${signed(slopePerMinute(lastFive.map((m) => m.p99Ms)), 1)} ms a minute`,
    );
  }
  // One minute's p99 moves by tens of ms on a shared machine: the means of the last five minutes
  // against the five before say whether it grows, where two single minutes cannot.
  const beforeFive = minutes.slice(-10, -5);
  if (beforeFive.length === 5) {
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const [rssBefore, rssLast] = [mean(beforeFive.map((m) => m.rssMiB)), mean(lastFive.map((m) => m.rssMiB))];
    const [p99Before, p99Last] = [mean(beforeFive.map((m) => m.p99Ms)), mean(lastFive.map((m) => m.p99Ms))];
    console.log(
      `mean of minutes ${lastFive[0]!.minute}-${lastFive.at(-1)!.minute} against ${beforeFive[0]!.minute}-${beforeFive.at(-1)!.minute}: RSS ${rssLast.toFixed(0)} MiB (${signed(rssLast - rssBefore, 1)}), p99 ${p99Last.toFixed(1)} ms (${signed(p99Last - p99Before, 1)})`,
    );
  }
  console.log('answers by kind and status:');
  for (const [key, count] of [...statusCounts].sort()) console.log(`  ${key.padEnd(32)} ${count}`);
  if (unexpected.length > 0) printUnexpected(unexpected, appLog);
}

/** The least-squares slope of one value a minute apart. */
function slopePerMinute(values: number[]): number {
  const meanX = (values.length - 1) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / values.length;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, x) => {
    covariance += (x - meanX) * (value - meanY);
    variance += (x - meanX) ** 2;
  });
  return covariance / variance;
}

/** What the gateway logged for the first unexpected answers: the upstream's result and the outcome. */
function printUnexpected(unexpected: Array<{ kind: string; status: number; requestId: string | undefined }>, appLog: string): void {
  const shown = unexpected.slice(0, 20);
  const wanted = new Set(shown.map((answer) => answer.requestId).filter((id): id is string => id !== undefined));
  const lines = new Map<string, Record<string, unknown>>();
  for (const line of fs.readFileSync(appLog, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    if (typeof entry.requestId === 'string' && wanted.has(entry.requestId)) lines.set(entry.requestId, entry);
  }
  console.log(`unexpected answers (${shown.length} of ${unexpected.length}), with the gateway's log line:`);
  for (const answer of shown) {
    const entry = answer.requestId ? lines.get(answer.requestId) : undefined;
    const logged = entry ? `upstream ${String(entry.upstream)}, outcome ${String(entry.outcome)}` : 'no log line';
    console.log(`  ${answer.kind} ${answer.status} ${answer.requestId ?? '(no request id)'}: ${logged}`);
  }
}

main()
  .then(
    () => 0,
    (error: unknown) => {
      console.error('[bench] failed:', error);
      return 1;
    },
  )
  .then(async (code) => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    process.exit(code);
  });

/** Issue 68: receipts on within 5 % of receipts off, p50 and p99, where the sources answer as they do (docs/decisions.md). */
const RECEIPT_BOUND = 1.05;

/**
 * The sources' latency the bound is judged at when none is given: a registry answers in a few
 * hundred milliseconds. Past one connection, up to 100 ms more at random: fifty connections against
 * a constant latency stay in lockstep, each round's answers arriving together and queueing for the
 * CPU (docs/performance.md, "Constancias"). At one connection nothing queues, and a constant latency
 * keeps the p99 of a few dozen answers comparable between A and B.
 */
const SOURCES_LATENCY_MS = 200;
const SOURCES_JITTER_MS = 100;

/** One run of a lookup with receipts off or on; its times and the threads' CPU are per lookup. */
interface ReceiptRun {
  result: LoadResult;
  databaseMs: number;
  cpuMs: number;
  threads: ThreadCpu;
}

interface ReceiptPass {
  title: string;
  /** The simulator's latency for a number of connections, or none: whatever the run was given. */
  latency?: (connections: number) => { latencyMs: number; latencyJitterMs: number };
  /** Whether rows are judged against RECEIPT_BOUND, or show what a receipt costs the gateway. */
  judged: boolean;
}

/**
 * Receipts on against receipts off, on the same instance, interleaved so that drift hits both alike.
 * Without a latency given: first at zero latency, what a receipt costs the gateway (its CPU, its
 * statement's time), then at the sources' latency, where the bound is judged. With one: at it alone.
 */
async function constanciasPhase(
  app: BenchApp,
  simulator: { setLatency(latency: { latencyMs: number; latencyJitterMs?: number }): void },
  lookups: Record<string, { path: string; bodies: string[] }>,
  headers: Record<string, string>,
  profileDirectory: string | undefined,
): Promise<void> {
  const windows = { off: [] as TimeWindow[], on: [] as TimeWindow[] };
  const calls = { off: 0, on: 0 };
  const asking = { ...headers, 'x-constancia': 'true' };
  const targetOf = (lookup: { path: string; bodies: string[] }, withReceipt: boolean): LoadTarget => ({
    urls: [`${app.baseUrl}${lookup.path}`],
    headers: withReceipt ? asking : headers,
    body: lookup.bodies[0]!,
    bodies: lookup.bodies,
    expectedStatus: 200,
  });
  await warmUp(
    Object.values(lookups).flatMap((lookup) => [targetOf(lookup, false), targetOf(lookup, true)]),
    Math.max(...CONNECTIONS),
    WARMUP_SECONDS,
  );
  const { database } = await import('@/db/client');
  const { sql } = await import('drizzle-orm');
  const receiptsIssued = async () => Number((await (await database()).rows<{ n: string }>(sql`select count(*) as n from constancias`))[0]!.n);
  const issuedBefore = await receiptsIssued();
  const phaseStarted = new Date();
  // PostgreSQL's own time per lookup (pg_stat_statements' execution time), beside the app's CPU.
  const counter = await statementCounter(process.env.DATABASE_URL!);
  if ('unavailable' in counter) console.log(`[bench] database time not measured: ${counter.unavailable}`);
  const databaseMs = async (): Promise<number> => ('unavailable' in counter ? NaN : (await counter.read()).statements.reduce((sum, each) => sum + each.calls * each.meanMs, 0));
  const timed = async (run: () => Promise<LoadResult>): Promise<{ result: LoadResult; databaseMs: number }> => {
    if (!('unavailable' in counter)) await counter.reset();
    const result = await run();
    return { result, databaseMs: (await databaseMs()) / result.calls };
  };
  /** One run with receipts off or on: its load, and the instance's CPU (whole and by thread) and PostgreSQL's time per lookup. */
  const measured = async (lookup: { path: string; bodies: string[] }, connections: number, withReceipt: boolean): Promise<ReceiptRun> => {
    const side = withReceipt ? 'on' : 'off';
    const threadsBefore = cpuByThreadMs(app.pid);
    const cpuBefore = cpuTimeMs(app.pid);
    const startedUs = monotonicMicroseconds();
    const { result, databaseMs } = await timed(() => runLoad(targetOf(lookup, withReceipt), connections, SECONDS * 1000, 1000));
    windows[side].push({ fromUs: startedUs, toUs: monotonicMicroseconds() });
    calls[side] += result.calls;
    // The counter's reads fall inside the CPU readings: the instance does nothing for them.
    return { result, databaseMs, cpuMs: (cpuTimeMs(app.pid) - cpuBefore) / result.calls, threads: threadCpuPerCall(threadsBefore, cpuByThreadMs(app.pid), result.calls) };
  };
  const givenTitle = SOURCE_LATENCY_MS || SOURCE_JITTER_MS ? `the simulator's latency as given (${SOURCE_LATENCY_MS} ms${SOURCE_JITTER_MS ? `, up to ${SOURCE_JITTER_MS} ms more` : ''})` : 'the simulator at zero latency, as given';
  const passes: ReceiptPass[] = SOURCE_LATENCY_GIVEN
    ? [{ title: givenTitle, judged: true }]
    : [
        { title: 'the simulator at zero latency: what a receipt costs the gateway (not judged: 5 % of a lookup here is less than its signature)', latency: () => ({ latencyMs: 0, latencyJitterMs: 0 }), judged: false },
        {
          title: `at the sources' latency (${SOURCES_LATENCY_MS} ms; past one connection up to ${SOURCES_JITTER_MS} ms more at random): issue 68's bound`,
          latency: (connections) => ({ latencyMs: SOURCES_LATENCY_MS, latencyJitterMs: connections > 1 ? SOURCES_JITTER_MS : 0 }),
          judged: true,
        },
      ];
  for (const pass of passes) {
    const threadRows: string[] = [];
    console.log(`\nreceipts off (A) and on (B, x-constancia: true), interleaved A B, the median of --reps each; ${pass.title}`);
    console.log(`lookup     conns  off req/s p50 p99              on req/s p50 p99               on/off p50  p99   CPU ms off on  db ms off on${pass.judged ? '  bound (p50 and p99 on <= 1.05x off)' : ''}`);
    for (const [name, lookup] of Object.entries(lookups)) {
      for (const connections of CONNECTIONS) {
        if (pass.latency) simulator.setLatency(pass.latency(connections));
        const runs: Array<{ off: ReceiptRun; on: ReceiptRun }> = [];
        for (let rep = 0; rep < REPS; rep++) runs.push({ off: await measured(lookup, connections, false), on: await measured(lookup, connections, true) });
        const m = (pick: (run: (typeof runs)[number]) => number) => median(runs.map(pick));
        const p50Ratio = m((r) => r.on.result.p50Ms) / m((r) => r.off.result.p50Ms);
        const p99Ratio = m((r) => r.on.result.p99Ms) / m((r) => r.off.result.p99Ms);
        const cell = (rps: number, p50: number, p99: number) => `${rps.toFixed(0).padStart(6)} ${p50.toFixed(2).padStart(6)} ${p99.toFixed(2).padStart(7)}`;
        console.log(
          [
            name.padEnd(9),
            String(connections).padStart(5),
            cell(m((r) => r.off.result.requestsPerSecond), m((r) => r.off.result.p50Ms), m((r) => r.off.result.p99Ms)).padEnd(30),
            cell(m((r) => r.on.result.requestsPerSecond), m((r) => r.on.result.p50Ms), m((r) => r.on.result.p99Ms)).padEnd(30),
            `${p50Ratio.toFixed(3).padStart(6)} ${p99Ratio.toFixed(3).padStart(6)}`,
            `${m((r) => r.off.cpuMs).toFixed(2).padStart(6)} ${m((r) => r.on.cpuMs).toFixed(2).padStart(5)}`,
            `${m((r) => r.off.databaseMs).toFixed(2).padStart(8)} ${m((r) => r.on.databaseMs).toFixed(2).padStart(5)}`,
            pass.judged ? (p50Ratio <= RECEIPT_BOUND && p99Ratio <= RECEIPT_BOUND ? 'within' : 'over').padStart(7) : '',
            m((r) => r.off.result.errors + r.on.result.errors) ? `  (errors: ${m((r) => r.off.result.errors)} off, ${m((r) => r.on.result.errors)} on)` : '',
          ].join('  ').trimEnd(),
        );
        threadRows.push(
          [name.padEnd(9), String(connections).padStart(5), ...THREAD_KINDS.map((kind) => `${m((r) => r.off.threads[kind]).toFixed(3).padStart(6)} ${m((r) => r.on.threads[kind]).toFixed(3).padStart(6)}`.padStart(22))].join('  '),
        );
      }
    }
    // The app's CPU by thread: the garbage collector's helpers and libuv's pool are not in a profile.
    console.log(`\nthe instance's CPU ms per lookup by thread, receipts off and on\nlookup     conns  ${THREAD_KINDS.map((kind) => `${kind} off on`.padStart(22)).join('  ')}`);
    for (const row of threadRows) console.log(row);
  }
  // The warm-up's receipts count too: at least every measured lookup that asked for one got it.
  console.log(`receipts written: ${(await receiptsIssued()) - issuedBefore} (${calls.on} measured lookups asked for one)`);
  // What each receipt of this run keeps on disk (the database may hold earlier runs'): its sealed
  // text (in TOAST past about 2 KB), by lookup.
  const kept = await (await database()).rows<{ lookup: string; bytes: number }>(
    sql`select lookup::text as lookup, avg(octet_length(receipt_sealed))::int as bytes from constancias where receipt_sealed is not null and issued_at >= ${phaseStarted.toISOString()}::timestamptz group by lookup order by lookup`,
  );
  console.log(`a receipt's sealed text, on average: ${kept.map((row) => `${row.lookup} ${(Number(row.bytes) / 1024).toFixed(1)} KB`).join(', ')}`);
  if (!('unavailable' in counter)) await counter.close();
  if (profileDirectory) {
    await app.stop();
    console.log('\nwhat a receipt adds to a lookup (CPU profile, receipts on against off):');
    printAddedFunctions(selfTimeByFunction(profileDirectory, windows.on), calls.on, selfTimeByFunction(profileDirectory, windows.off), calls.off);
  }
}
