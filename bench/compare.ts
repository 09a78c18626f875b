// npm run bench -- --compare <git ref> [--lookups …] [--connections 50] [--seconds 5] [--reps 3]
//   The working tree against another commit in one run (issue 31, point 1): the commit is checked
//   out beside this one (a git worktree in the system's temporary directory, its own .next-bench),
//   both are started as production starts them, each on its own database of the same PostgreSQL
//   server, against the same simulator, and each lookup runs on one, then the other, A B A B…, so
//   a slower machine or a neighbour's load weighs on both alike. All of it twice: A's instance
//   started first, then B's (the instance started second runs cheaper, whatever its code).
//   Prints, per lookup, throughput and app CPU per lookup of both and their ratio. Prints figures;
//   asserts nothing. The worktree stays for the next run (its build is reused); `git worktree
//   remove <its directory>` drops it.
//   Then the bulk jobs' phase (bench/bulk.ts) for A and for B, each on its own database, one after
//   the other.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAppEnv, cpuTimeMs, startBenchApp, type BenchApp } from './app';
import { bulkPhase, bulkSettings, type BulkOptions, type BulkTree } from './bulk';
import { runLoad, warmUp, type LoadResult, type LoadTarget } from './load';
import { benchLookups, type BenchLookup } from './taxpayers';
import { median } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface CompareOptions {
  ref: string;
  lookups?: string[];
  connections: number[];
  seconds: number;
  reps: number;
  /** Each tree runs every lookup this long before the interleaved runs (nothing measured): both are measured warm. */
  warmupSeconds: number;
  /** The bulk jobs' phase, unless --no-bulk. */
  bulk?: BulkOptions;
  /** The PostgreSQL server both trees' databases live on (the benchmark's throwaway one). */
  databaseUrl: string;
  /** Called with what to stop or remove once the run ends. */
  cleanup: (step: () => Promise<void> | void) => void;
}

interface Tree {
  /** How the table names it: the ref as given, or "working tree". */
  name: string;
  directory: string;
}

function git(args: string[], cwd = ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${code}`))));
  });
}

/**
 * The commit checked out in a worktree of its own (kept between runs, so its build is reused),
 * with this tree's node_modules hard-linked in when both lock files agree, else `npm ci` (or
 * `npm install` where the registry lacks other platforms' optional packages).
 */
async function checkOut(ref: string): Promise<Tree> {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const directory = path.join(os.tmpdir(), `gateway-bench-${commit.slice(0, 12)}`);
  if (!fs.existsSync(path.join(directory, '.git'))) {
    fs.rmSync(directory, { recursive: true, force: true });
    git(['worktree', 'prune']);
    git(['worktree', 'add', '--detach', directory, commit]);
  }
  if (!fs.existsSync(path.join(directory, 'node_modules'))) {
    const sameLock = fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8') === fs.readFileSync(path.join(directory, 'package-lock.json'), 'utf8');
    console.log(`[bench] ${ref} (${commit.slice(0, 12)}) in ${directory}: ${sameLock ? 'node_modules hard-linked from this tree' : 'npm ci (its lock file differs)'}`);
    // Hard links, not a symbolic link: Next's bundler follows a linked node_modules out of the project.
    if (sameLock) await run('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(directory, 'node_modules')], ROOT);
    else {
      // This workplace's registry does not serve every platform's optional packages, so npm ci
      // calls a lock file that lists them out of sync (as .ci/run says); npm install then installs
      // what the lock names for this platform, in this throwaway worktree.
      await run('npm', ['ci', '--no-audit', '--no-fund'], directory).catch(async (error: unknown) => {
        console.log(`[bench] npm ci refused ${ref}'s lock file (${error instanceof Error ? error.message : String(error)}); npm install instead`);
        await run('npm', ['install', '--no-audit', '--no-fund'], directory);
      });
    }
  }
  return { name: ref, directory };
}

/** The tree's own build into its .next-bench (reused while its inputs are unchanged), by its own script. */
async function build(tree: Tree): Promise<void> {
  const script = "import('./scripts/next-build.ts').then((m) => m.ensureBuild({ distDir: '.next-bench', label: '[bench " + tree.name.replace(/'/g, '') + "]' }))";
  await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], tree.directory);
}

/** A fresh database on the server for one tree, migrated and given an integration by that tree's own CLI. */
async function prepareDatabase(tree: Tree, serverUrl: string, index: number): Promise<{ url: string; headers: Record<string, string> }> {
  const name = `bench_compare_${index}_${Date.now()}`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const cli = fs.existsSync(path.join(tree.directory, 'cli', 'run.mjs')) ? ['cli/run.mjs'] : ['--import', 'tsx', 'cli/main.ts'];
  const created = JSON.parse(
    await run(process.execPath, [...cli, 'integrations:create', `bench-${index}`, '--tariff', '0.01', '--balance', '100000000', '--enable', 'all', '--json'], tree.directory, {
      DATABASE_URL: url.toString(),
      APP_ENV: 'development',
    }),
  ) as { nombre: string; token: string };
  return {
    url: url.toString(),
    headers: {
      'content-type': 'application/json',
      // What most integrators' HTTP clients send unasked (Python's requests, .NET and Java with
      // decompression on): an answer the app compresses costs its CPU, and the comparison sees it.
      'accept-encoding': 'gzip, deflate',
      'x-integracion-login': created.nombre,
      'x-integracion-token': created.token,
    },
  };
}

export async function compare(options: CompareOptions): Promise<void> {
  const baseline = await checkOut(options.ref);
  const working: Tree = { name: 'working tree', directory: ROOT };
  // One at a time: two builds at once on two cores take longer than one after the other.
  await build(baseline);
  await build(working);

  const { startSimulator, DEFAULT_SIMULATOR_SEED } = await import('../simulator/index');
  const simulator = await startSimulator({ port: 0, latencyMs: 0, onlineLatencyMs: 0 });
  options.cleanup(() => simulator.close());
  // Each request names another taxpayer, as in `npm run bench` (bench/taxpayers.ts).
  const allLookups = benchLookups(DEFAULT_SIMULATOR_SEED);
  const lookups = Object.entries(allLookups).filter(([name]) => !options.lookups || options.lookups.includes(name));

  // One lookup sent to one tree's instance, with that tree's integration.
  const lookupTarget = ({ app, headers }: { app: BenchApp; headers: Record<string, string> }, lookup: BenchLookup): LoadTarget => ({
    urls: [`${app.baseUrl}${lookup.path}`],
    headers,
    body: lookup.bodies[0]!,
    bodies: lookup.bodies,
    expectedStatus: 200,
  });

  // Two rounds, the trees' instances and their databases started in one order and then in the
  // other: with the same commit on both sides, the instance started second read 6 to 19 % cheaper in
  // CPU a lookup, whichever tree it ran and whichever was measured first (docs/performance.md,
  // "--compare against itself"). Each round's runs count for their tree, so the position cancels.
  type Started = { tree: Tree; app: BenchApp; headers: Record<string, string>; appEnv: Record<string, string>; scratch: string };
  const trees = [baseline, working];
  const runs = new Map<string, Array<Array<{ result: LoadResult; cpuMs: number }>>>();
  let secondRound: Started[] = [];
  for (const [round, order] of [[0, 1], [1, 0]].entries()) {
    const started: Started[] = [];
    for (const index of order) {
      const tree = trees[index]!;
      const { url, headers } = await prepareDatabase(tree, options.databaseUrl, round * 2 + started.length);
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-compare-'));
      options.cleanup(() => fs.rmSync(scratch, { recursive: true, force: true }));
      const appEnv = { ...benchAppEnv(simulator.url, url, scratch), NEXT_DIST_DIR: '.next-bench' };
      const app = await startBenchApp(appEnv, [], undefined, tree.directory);
      options.cleanup(() => app.stop());
      started.push({ tree, app, headers, appEnv, scratch });
    }
    for (const each of started) {
      await warmUp(
        lookups.map(([, lookup]) => lookupTarget(each, lookup)),
        Math.max(...options.connections),
        options.warmupSeconds,
      );
    }
    console.log(`[bench] round ${round + 1} of 2: ${started.map(({ tree }) => (tree === baseline ? 'A' : 'B')).join(' started, warmed and measured before ')}`);
    for (const [name, lookup] of lookups) {
      for (const connections of options.connections) {
        const cell = `${name} ${connections}`;
        if (!runs.has(cell)) runs.set(cell, [[], []]);
        for (let rep = 0; rep < options.reps; rep++) {
          for (const each of started) {
            const before = cpuTimeMs(each.app.pid);
            const result = await runLoad(lookupTarget(each, lookup), connections, options.seconds * 1000, 1000);
            runs.get(cell)![trees.indexOf(each.tree)]!.push({ result, cpuMs: (cpuTimeMs(each.app.pid) - before) / result.calls });
          }
        }
      }
    }
    for (const { app } of started) await app.stop();
    secondRound = trees.map((tree) => started.find((each) => each.tree === tree)!);
  }

  console.log(
    `\n[bench] ${options.seconds} s per run after 1 s of warm-up (each tree warmed first: ${options.warmupSeconds} s of each lookup), A = ${baseline.name}, B = ${working.name}, interleaved, ${options.reps} time(s) in each of two rounds (A started first, then B); medians of both rounds`,
  );
  console.log('lookup     conns     A req/s    B req/s   B/A   A CPU ms  B CPU ms   B/A');
  for (const [name] of lookups) {
    for (const connections of options.connections) {
      const [a, b] = runs.get(`${name} ${connections}`)!.map((each) => ({
        rps: median(each.map((run) => run.result.requestsPerSecond)),
        cpu: median(each.map((run) => run.cpuMs)),
        errors: median(each.map((run) => run.result.errors)),
      })) as [{ rps: number; cpu: number; errors: number }, { rps: number; cpu: number; errors: number }];
      console.log(
        [
          name.padEnd(9),
          String(connections).padStart(5),
          a.rps.toFixed(0).padStart(10),
          b.rps.toFixed(0).padStart(10),
          `${(b.rps / a.rps).toFixed(2).padStart(5)}x`,
          a.cpu.toFixed(2).padStart(9),
          b.cpu.toFixed(2).padStart(9),
          `${(b.cpu / a.cpu).toFixed(2).padStart(5)}x`,
          a.errors || b.errors ? `  (errors: A ${a.errors}, B ${b.errors})` : '',
        ].join(' '),
      );
    }
  }
  console.log('\nCPU ms = the instance\'s CPU time (user + system, /proc) per lookup; B/A above 1.00 in CPU (below 1.00 in req/s) is B costing more.');

  if (options.bulk) {
    // Fresh instances with their logs kept, one tree at a time: a running instance's runner would
    // take its jobs' items, and an idle one would share the machine with the measured one.
    const bulkTrees: BulkTree[] = secondRound.map(({ tree, headers, appEnv, scratch }, index) => ({
      name: index === 0 ? 'A' : 'B',
      headers,
      scratch,
      start: async (env, logFile) => {
        const app = await startBenchApp({ ...appEnv, ...env }, [], logFile, tree.directory);
        options.cleanup(() => app.stop());
        return app;
      },
    }));
    // The working tree's settings (BULK_CONCURRENCY, the share): the tables quote them for both.
    await bulkPhase(bulkTrees, options.bulk, await bulkSettings(secondRound[1]!.appEnv));
  }
}
