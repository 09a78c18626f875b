// npm run bench [-- --seconds 5 --connections 1,50]
//   Each lookup against `node server.mjs` on PostgreSQL with the simulator at zero latency, next
//   to a bare route handler of the same app returning the same JSON, in the same run, so the
//   gateway's own cost shows as a ratio.
// npm run bench -- --instances 2 [--seconds 5 --connections 50]
//   Throughput of one instance versus two on the same PostgreSQL and Redis.
// --lookups renap,rtu_nits,cui_nit,rtu,omisos runs only those.
// Prints figures; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBenchApp } from './app';
import { runLoad, type LoadResult, type LoadTarget } from './load';
import { freePort } from '../scripts/free-port';
import { ensureBuild } from '../scripts/next-build';
import { startThrowawayPostgres } from './postgres';
import { startThrowawayRedis } from './redis';

const UNLIMITED = '1000000000';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string' },
    instances: { type: 'string', default: '1' },
    lookups: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const TWO_INSTANCES = values.instances === '2';
const CONNECTIONS = (values.connections ?? (TWO_INSTANCES ? '50' : '1,50')).split(',').map(Number);
const SELECTED_LOOKUPS = values.lookups?.split(',');

const cleanups: Array<() => Promise<void> | void> = [];

async function startInstance(env: Record<string, string>): Promise<string> {
  const app = await startBenchApp(env);
  cleanups.push(() => app.stop());
  return app.baseUrl;
}

function format(result: LoadResult): string {
  return `${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2).padStart(6)} ms  p99 ${result.p99Ms.toFixed(2).padStart(7)} ms${result.errors ? `  (${result.errors} errors)` : ''}`;
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    const postgres = startThrowawayPostgres(await freePort());
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
  // The servers this script starts inherit it, so they run the benchmark's own build.
  process.env.NEXT_DIST_DIR = '.next-bench';
  await ensureBuild({ distDir: '.next-bench', label: '[bench]' });

  const { database, closeDatabase } = await import('@/db/client');
  const { applyMigrations } = await import('@/db/migrate');
  const { createIntegration } = await import('@/lib/integrations/service');
  const { topUp } = await import('@/lib/billing/ledger');
  const { FLAG_NAMES } = await import('@/lib/integrations/flags');
  await applyMigrations(await database());
  const actor = { kind: 'system', name: 'bench' } as const;
  const created = await createIntegration(actor, {
    nombre: `bench-${Date.now()}`,
    tariffCentavos: 1,
    flags: Object.fromEntries(FLAG_NAMES.map((flag) => [flag, true])),
  });
  if (!created.ok) throw new Error(created.error.message);
  await topUp(actor, created.value.integration.id, 10_000_000_000, 'Saldo para el benchmark');
  await closeDatabase();

  const { startSimulator, samplePopulation, DEFAULT_SIMULATOR_SEED } = await import('../simulator/index');
  const simulator = await startSimulator({ port: 0, latencyMs: 0, onlineLatencyMs: 0 });
  cleanups.push(() => simulator.close());
  const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });

  const bareResponsesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-')), 'bare-responses.json');
  const appEnv: Record<string, string> = {
    APP_ENV: 'development',
    SEED_ON_START: 'false',
    NEXTAUTH_SECRET: 'bench-secret-bench-secret-bench-secret!!',
    DATABASE_URL: process.env.DATABASE_URL!,
    RENAP_BASE_URL: `${simulator.url}/renap`,
    RTU_BASE_URL: `${simulator.url}/rtu`,
    CATALOG_BASE_URL: `${simulator.url}/catalog`,
    RATE_LIMIT_GLOBAL_MAX: UNLIMITED,
    RATE_LIMIT_RENAP_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_RTU_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_CATALOG_PER_MINUTE: UNLIMITED,
    DATABASE_POOL_MAX: '20',
    BENCH_BARE_RESPONSES_FILE: bareResponsesFile,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };
  const instances = await Promise.all(Array.from({ length: TWO_INSTANCES ? 2 : 1 }, () => startInstance(appEnv)));

  const headers = {
    'content-type': 'application/json',
    'x-integracion-login': created.value.integration.nombre,
    'x-integracion-token': created.value.token,
  };
  const nit = sample.individual.nit;
  const allLookups: Record<string, { path: string; body: unknown }> = {
    renap: { path: '/api/renap/buscar-cui', body: { cui: sample.individual.cui } },
    rtu_nits: { path: '/api/rtu/nits', body: { nits: [nit, sample.legalEntity.nit, sample.omiso.nit] } },
    cui_nit: { path: '/api/catalogos/cui-nit', body: { nit } },
    rtu: { path: '/api/catalogos/rtu', body: { nit } },
    omisos: { path: '/api/catalogos/omisos', body: { nit } },
  };
  const lookups = Object.fromEntries(Object.entries(allLookups).filter(([name]) => !SELECTED_LOOKUPS || SELECTED_LOOKUPS.includes(name)));
  const target = (urls: string[], body: unknown): LoadTarget => ({ urls, headers, body: JSON.stringify(body), expectedStatus: 200 });

  console.log(`\n[bench] ${SECONDS} s per run after 1 s of warm-up; ${os.cpus().length} cores shared by the load generator, the app, the simulator and PostgreSQL\n`);
  if (TWO_INSTANCES) {
    console.log(`one instance versus two, on the same PostgreSQL and Redis (${process.env.REDIS_URL})`);
    console.log('lookup     conns  one instance                             two instances                            speed-up');
    for (const [name, lookup] of Object.entries(lookups)) {
      for (const connections of CONNECTIONS) {
        const one = await runLoad(target([`${instances[0]}${lookup.path}`], lookup.body), connections, SECONDS * 1000, 1000);
        const two = await runLoad(target(instances.map((base) => `${base}${lookup.path}`), lookup.body), connections, SECONDS * 1000, 1000);
        console.log(
          `${name.padEnd(10)} ${String(connections).padStart(5)}  ${format(one).padEnd(40)} ${format(two).padEnd(40)} ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2).padStart(6)}x`,
        );
      }
    }
    return;
  }

  // The bare route answers with exactly what each lookup answered.
  const [baseUrl] = instances as [string];
  const bareResponses: Record<string, unknown> = {};
  for (const [name, lookup] of Object.entries(lookups)) {
    const response = await fetch(`${baseUrl}${lookup.path}`, { method: 'POST', headers, body: JSON.stringify(lookup.body) });
    if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${await response.text()}`);
    bareResponses[name] = await response.json();
  }
  fs.writeFileSync(bareResponsesFile, JSON.stringify(bareResponses));

  console.log('lookup     conns  gateway                                  bare handler                             throughput  added p50');
  for (const [name, lookup] of Object.entries(lookups)) {
    for (const connections of CONNECTIONS) {
      const gateway = await runLoad(target([`${baseUrl}${lookup.path}`], lookup.body), connections, SECONDS * 1000, 1000);
      const bare = await runLoad(target([`${baseUrl}/api/bench/bare?lookup=${name}`], lookup.body), connections, SECONDS * 1000, 1000);
      const ratio = (gateway.requestsPerSecond / bare.requestsPerSecond) * 100;
      console.log(
        `${name.padEnd(10)} ${String(connections).padStart(5)}  ${format(gateway).padEnd(40)} ${format(bare).padEnd(40)} ${ratio.toFixed(0).padStart(6)} %  ${(gateway.p50Ms - bare.p50Ms).toFixed(2).padStart(7)} ms`,
      );
    }
  }
  console.log("\nthroughput = gateway req/s as a share of the bare handler's; added p50 = gateway p50 - bare p50.");
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
