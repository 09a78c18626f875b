// npm run bench:console [-- --records 10000000 --integrations 10000 --runs 40 --keep .data/bench-console]
//   Fills a throwaway PostgreSQL 15 with a production-like volume (bench/console/volume.ts), starts
//   the built app on it, signs in as an administrator and times every console page and the CSV
//   export over HTTP (warm-up, then --runs runs, 40 at least: p50 and p95), then shows the plan PostgreSQL chose
//   for each statement a page ran (auto_explain: EXPLAIN ANALYZE, BUFFERS), flagging sequential
//   scans and large sorts. Prints figures; asserts nothing.
//   --keep DIR keeps the cluster in DIR and reuses it when it already holds that many records;
//   --skip-pages, --skip-export, --skip-portal, --skip-billing, --skip-api, --skip-plans leave a part out;
//   --only TEXT times and explains only the console pages whose name contains TEXT (say "Lote");
//   --api-runs N times each of the integrators' API reads N times (default 100: they are cheap).
//   --url URL times against an existing PostgreSQL database instead of a throwaway cluster (the
//   partitioning rehearsal's, bench/partition): its volume must be recorded in its bench_volume table,
//   its server settings are its own, and --skip-plans is implied (auto_explain is a server setting).
import fs from 'node:fs';
import os from 'node:os';
import { benchArguments } from '../arguments';
import postgres from 'postgres';
import { freePort } from '../../scripts/free-port';
import { ensureBuild } from '../../scripts/next-build';
import { startThrowawayPostgres } from '../postgres';
import { startBenchApp, type BenchApp } from '../app';
import { percentile } from '../stats';
import { PlanRecorder, summarizePlan, AUTO_EXPLAIN_SETTINGS } from './plans';
import { ConsoleSession } from './session';
import type { BulkVolumeSummary, VolumeSummary } from './volume';
import { timeApiReads } from './api';

const { values } = benchArguments('npm run bench:console', import.meta.filename, {
  options: {
    records: { type: 'string', default: '200000' },
    // How many integrations share the records (Zipf sizes): 200 as today, 10000 for the list's growth.
    integrations: { type: 'string', default: '200' },
    // Twice the records by default: a hold and a settlement per catalog query, and two years of
    // older ledger whose records the retention purged.
    'ledger-entries': { type: 'string' },
    runs: { type: 'string', default: '40' },
    warmup: { type: 'string', default: '2' },
    keep: { type: 'string' },
    'skip-pages': { type: 'boolean', default: false },
    'skip-export': { type: 'boolean', default: false },
    'skip-plans': { type: 'boolean', default: false },
    'skip-billing': { type: 'boolean', default: false },
    'skip-portal': { type: 'boolean', default: false },
    'skip-api': { type: 'boolean', default: false },
    'api-runs': { type: 'string', default: '100' },
    only: { type: 'string' },
    url: { type: 'string' },
  },
});
if (values.url) values['skip-plans'] = true;
const RECORDS = Number(values.records);
const INTEGRATIONS = Number(values.integrations);
const LEDGER_ENTRIES = Number(values['ledger-entries'] ?? 2 * RECORDS);
// A page's p95 over fewer runs is its largest or second largest time: one stall would decide it
// (issue 70 saw one run in twelve stall on a 2-core machine).
const RUNS = Math.max(40, Number(values.runs));
const WARMUP = Number(values.warmup);

// Settings of a modest production server (24 GiB machine), with durability off: this cluster is
// thrown away, and nothing here measures writes.
const POSTGRES_SETTINGS = {
  shared_buffers: '4GB',
  effective_cache_size: '12GB',
  work_mem: '16MB',
  maintenance_work_mem: '1GB',
  random_page_cost: '1.1',
  max_wal_size: '16GB',
  checkpoint_timeout: '30min',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  jit: 'off',
  ...AUTO_EXPLAIN_SETTINGS,
};

const cleanups: Array<() => Promise<void> | void> = [];
const log = (line: string) => console.log(`[bench:console] ${line}`);

/** Fixed benchmark keys (never a deployment's): a kept cluster is read with the keys it was sealed with. */
const BENCH_PERSONAL_DATA_KEYS = {
  PERSONAL_DATA_KEY: Buffer.alloc(32, 'bench personal-data key').toString('base64'),
  PERSONAL_DATA_SEARCH_KEY: Buffer.alloc(32, 'bench personal-data search key').toString('base64'),
};

interface Page {
  name: string;
  path: string;
  /** Text the page shows when it rendered (an error page answers 200 too). */
  expect: string;
  /** Requested with the portal session of an owner of the largest integration, not the console's. */
  portal?: boolean;
}

/** The portal's session, set once the app is up (main). */
let portalSession: ConsoleSession | undefined;
const clientFor = (session: ConsoleSession, page: Page) => (page.portal ? portalSession! : session);

async function main(): Promise<void> {
  const port = await freePort();
  const cluster = values.url
    ? { url: values.url, directory: 'an existing database', stop: () => {} }
    : startThrowawayPostgres(port, { settings: POSTGRES_SETTINGS, keepIn: values.keep });
  cleanups.push(() => cluster.stop());
  process.env.DATABASE_URL = cluster.url;
  process.env.NEXT_DIST_DIR = '.next-bench';
  // The volume is sealed here and read by the app: both need the same keys, also for a --keep cluster.
  Object.assign(process.env, BENCH_PERSONAL_DATA_KEYS);
  const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  const [{ version }] = (await admin`select current_setting('server_version') as version`) as unknown as [{ version: string }];
  log(`PostgreSQL ${version} at ${cluster.url} (${cluster.directory}); ${os.cpus().length} cores`);

  const { database } = await import('@/db/client');
  const { applyMigrations } = await import('@/db/migrate');
  const handle = await database();
  await applyMigrations(handle);
  const summary = await loadOrReuseVolume(handle, admin);
  await (await import('./volume')).addSelfServiceVolume(handle, new Date(), log);
  const bulk = await (await import('./volume')).addBulkVolume(handle, new Date(), summary.largestIntegrationId, log);
  const watchLists = await (await import('./volume')).addWatchListVolume(handle, new Date(), summary.largestIntegrationId, log);
  await admin.end();
  log(
    `volume: ${summary.records.toLocaleString('en-US')} records, ${summary.identifiers.toLocaleString('en-US')} search keys, ` +
      `${summary.ledgerEntries.toLocaleString('en-US')} ledger entries, ${summary.auditRows.toLocaleString('en-US')} audit rows, ` +
      `${bulk.jobs.toLocaleString('en-US')} bulk jobs (${bulk.largestIntegrationJobs} of the largest integration) with ${bulk.items.toLocaleString('en-US')} items, ` +
      `${watchLists.lists.toLocaleString('en-US')} watch lists (${watchLists.largestIntegrationLists} of the largest integration)`,
  );

  const { createConsoleUser } = await import('@/lib/flows/auth/users');
  const email = `bench-${Date.now()}@example.com`;
  const created = await createConsoleUser({ kind: 'system', name: 'bench' }, { email, name: 'Benchmark', role: 'admin', mustChangePassword: false });
  if (!created.ok) throw new Error(created.error.message);
  const [record] = await handle.rows<{ id: string | number }>(
    (await import('drizzle-orm')).sql`select id from query_records where created_at < now() - interval '10 days' order by created_at desc, id desc limit 1`,
  );

  await ensureBuild({ distDir: '.next-bench', label: '[bench:console]' });
  const appStartedAt = new Date();
  const app = await startBenchApp({
    APP_ENV: 'development',
    SEED_ON_START: 'false',
    DATABASE_URL: cluster.url,
    NEXTAUTH_SECRET: 'bench-console-secret-bench-console-secret',
    NEXT_DIST_DIR: '.next-bench',
    // The API part asks thousands of times a minute from one address: no limit in its way.
    RATE_LIMIT_GLOBAL_MAX: '1000000000',
    BULK_API_PER_MINUTE: '1000000000',
    ACCOUNT_API_PER_MINUTE: '1000000000',
    ...BENCH_PERSONAL_DATA_KEYS,
  });
  cleanups.push(() => app.stop());
  const session = await ConsoleSession.signIn(app.baseUrl, email, created.value.password);
  portalSession = ConsoleSession.withCookie(app.baseUrl, 'portal-sesion', await portalOwnerSession(summary.largestIntegrationId));
  const only = values.only?.toLowerCase();
  const pages = consolePages(summary, Number(record!.id), bulk).filter((page) => !only || page.name.toLowerCase().includes(only));

  // The exports first, on the freshly started app: their own memory, not what rendering hundreds of
  // pages first left in the heap (docs/performance.md, "The console at volume").
  if (!values['skip-export']) await measureExports(session, app);
  if (!values['skip-pages']) await timePages(session, pages, summary);
  if (!values['skip-portal']) await timePortalPages(app, summary);
  if (!values['skip-billing']) await measureBilling(summary);
  if (!values['skip-api']) await timeApiReads(app, summary, { runs: Math.max(20, Number(values['api-runs'])), warmup: WARMUP, plans: values['skip-plans'] ? undefined : cluster });
  await reportJobsBeside(handle, appStartedAt);
  if (!values['skip-plans']) await showPlans(session, pages, cluster);
}

/**
 * The integrators' portal's Consultas for the largest integration (issue 33, point 6), as its owner
 * reads them: the list (first page, a status, 45 days back), a search by request id and by NIT
 * (each the posted form's answer and the page it leads to), a record's page, and the CSV export's
 * first bytes for 30 days. The owner is the one portalOwnerSession() signed in.
 */
async function timePortalPages(app: BenchApp, summary: VolumeSummary): Promise<void> {
  const { database: open } = await import('@/db/client');
  const { sql } = await import('drizzle-orm');
  const largest = summary.largestIntegrationId;
  const session = portalSession!;
  const [record] = await (await open()).rows<{ request_id: string }>(
    sql`select request_id from query_records where integration_id = ${largest}::integer and created_at < now() - interval '10 days' order by created_at desc, id desc limit 1`,
  );
  const requestId = record!.request_id;
  const deep = Buffer.from(`${new Date(Date.now() - 45 * 86_400_000).toISOString().replace('Z', '000Z')}|${Number.MAX_SAFE_INTEGER}`).toString('base64url');
  const pages: Page[] = [
    { name: `Portal Consultas, largest (#${largest}), first page`, path: '/portal/consultas', expect: 'Consultas' },
    { name: 'Portal Consultas, largest, status 502', path: '/portal/consultas?estado=502', expect: 'Consultas' },
    { name: 'Portal Consultas, largest, 45 days back (cursor)', path: `/portal/consultas?despues=${deep}`, expect: 'Consultas' },
    { name: 'Portal Consulta, one record\'s page (by request id)', path: `/portal/consultas/${requestId}`, expect: requestId },
  ];
  console.log(`\nPortal pages (Consultas) of the largest integration: ${WARMUP} warm-up runs, then ${RUNS} timed runs each, over HTTP\n`);
  console.log(`${'page'.padEnd(58)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
  const row = (name: string, times: number[]) => console.log(`${name.padEnd(58)} ${percentile(times, 0.5).toFixed(1).padStart(8)} ${percentile(times, 0.95).toFixed(1).padStart(8)}`);
  for (const page of pages) row(page.name, await timePage(session, page));
  // A search is the posted form's 303 and the page it leads to, as a person waits for both.
  for (const [name, typed, expect] of [
    ['Portal search by request id (POST + record page)', requestId, requestId],
    [`Portal search by NIT ${summary.searchNit} (POST + list)`, summary.searchNit, 'Consultas'],
  ] as const) {
    const searchOnce = async () => {
      const started = performance.now();
      const posted = await session.request('/portal/consultas/buscar', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.baseUrl },
        body: new URLSearchParams({ identificador: typed }).toString(),
        redirect: 'manual',
      });
      await posted.arrayBuffer();
      const location = posted.headers.get('location');
      if (posted.status !== 303 || !location) throw new Error(`${name}: HTTP ${posted.status}`);
      await fetchPage(session, { name, path: location, expect });
      return performance.now() - started;
    };
    for (let run = 0; run < WARMUP; run++) await searchOnce();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) times.push(await searchOnce());
    row(name, times.sort((a, b) => a - b));
  }
  // The export's first bytes: how long the owner waits before the download starts.
  const firstBytes: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const started = performance.now();
    const response = await session.request(`/portal/consultas/exportar?desde=${day(29)}&hasta=${day(0)}`);
    if (response.status !== 200) throw new Error(`Portal CSV export: HTTP ${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    await reader.read();
    if (run >= WARMUP) firstBytes.push(performance.now() - started);
    await reader.cancel();
  }
  row('Portal CSV export, 30 days, first bytes', firstBytes.sort((a, b) => a - b));
}

/**
 * A portal session of a new owner of the integration, as accepting an invitation starts one (the
 * bench app is a development deployment: no second factor, the link printed, not mailed).
 */
async function portalOwnerSession(integrationId: number): Promise<string> {
  const { invitePortalUser, acceptInvitation } = await import('@/lib/flows/portal-identity/invitations');
  const printed: string[] = [];
  const email = `bench-portal-${Date.now()}@example.com`;
  const sent = await invitePortalUser({ kind: 'staff', actor: { kind: 'system', name: 'bench' }, integrationId }, { email, role: 'propietario' }, { printer: (line) => printed.push(line) });
  if (!sent.ok) throw new Error(sent.error.message);
  const code = /codigo=([A-Za-z0-9_-]{43})/.exec(printed.join('\n'))?.[1];
  if (!code) throw new Error('no invitation link was printed');
  const accepted = await acceptInvitation(code, { nombre: 'Bench', clave: 'mango verde con pepita y limón' }, { clientIp: '127.0.0.1', userAgent: 'bench' });
  if (!accepted.ok) throw new Error(accepted.error.message);
  return accepted.value.sessionId;
}

/**
 * The billing work that is not a page: last month's statement for the largest integration
 * (computed and stored, as the console button and the monthly job do) and the reconciliation over
 * everything (as `npm run cli -- ledger:verify` and the daily job do).
 */
async function measureBilling(summary: VolumeSummary): Promise<void> {
  const { issueStatement } = await import('@/lib/flows/statements/statements');
  const { previousMonth } = await import('@/lib/flows/statements/monthly');
  const { verifyLedger } = await import('@/lib/core/billing/verify');
  const { database: open } = await import('@/db/client');
  const { sql } = await import('drizzle-orm');
  const handle = await open();
  const month = previousMonth();
  console.log('\nBilling at this volume, one run each (in this process, on the same database)\n');
  await handle.rows(sql`delete from monthly_statements where integration_id = ${summary.largestIntegrationId}::integer and month = ${month}::text`);
  let started = performance.now();
  const statement = await issueStatement({ kind: 'system', name: 'bench' }, summary.largestIntegrationId, month);
  const statementMs = performance.now() - started;
  if (!statement.ok) throw new Error(`the statement was refused: ${statement.error.message}`);
  console.log(
    `${`Monthly statement, largest integration, ${month} (${statement.value.figures.charges.count.toLocaleString('en-US')} charges)`.padEnd(78)} ${(statementMs / 1000).toFixed(2).padStart(7)} s`,
  );
  started = performance.now();
  const run = await verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 });
  const [counted] = await handle.rows<{ entries: string }>(sql`select count(*) as entries from ledger_entries`);
  const entries = counted?.entries ?? 0;
  console.log(
    `${`ledger:verify over everything (${run.integrationsChecked} integrations, ${Number(entries).toLocaleString('en-US')} ledger entries)`.padEnd(78)} ${((performance.now() - started) / 1000).toFixed(2).padStart(7)} s  ${run.ok ? 'no differences' : `${(run.differences as unknown[]).length} difference(s)`}`,
  );
}

async function timePages(session: ConsoleSession, pages: Page[], summary: VolumeSummary): Promise<void> {
  console.log(`\nConsole pages at ${summary.records.toLocaleString('en-US')} query records: ${WARMUP} warm-up runs, then ${RUNS} timed runs each, over HTTP (time to the last byte)\n`);
  console.log(`${'page'.padEnd(58)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
  for (const page of pages) {
    const times = await timePage(session, page);
    console.log(`${page.name.padEnd(58)} ${percentile(times, 0.5).toFixed(1).padStart(8)} ${percentile(times, 0.95).toFixed(1).padStart(8)}`);
  }
  if (values.only) return;
  const cursorTimes = await timeCursorWalk(session, 20);
  console.log(
    `${'Registros: pages 2-21, each reached by its cursor'.padEnd(58)} ${percentile(cursorTimes, 0.5).toFixed(1).padStart(8)} ${percentile(cursorTimes, 0.95).toFixed(1).padStart(8)}`,
  );

}

/**
 * The periodic jobs that started while the app was timed, longest first: what shared the machine
 * with the pages. The daily ones start only within DAILY_JOBS_HOURS (02:00 to 05:00 Guatemala time
 * by default); run in them, this bench times pages beside them (docs/performance.md, "No stalls beside the pages").
 */
async function reportJobsBeside(handle: Awaited<ReturnType<typeof import('@/db/client').database>>, since: Date): Promise<void> {
  const { sql } = await import('drizzle-orm');
  const rows = await handle.rows<{ name: string; seconds: number | null }>(sql`
    select name, extract(epoch from last_finished_at - last_started_at)::float8 as seconds
      from job_leases where last_started_at >= ${since.toISOString()}::timestamptz
     order by seconds desc nulls first, name`);
  const runs = rows.map((row) => `${row.name} ${row.seconds === null || row.seconds < 0 ? '(still running)' : `${row.seconds.toFixed(1)} s`}`);
  console.log(`\nBackground jobs whose latest run started while the app was timed: ${runs.length ? runs.join(', ') : 'none'}`);
}

async function showPlans(session: ConsoleSession, pages: Page[], cluster: { url: string; directory: string }): Promise<void> {
  console.log('\nPlans of the statements each page ran (auto_explain, EXPLAIN ANALYZE with buffers; one request each):');
  const recorder = new PlanRecorder(cluster.url, cluster.directory);
  let defects = 0;
  for (const page of pages) {
    const plans = await recorder.capture(async () => void (await (await clientFor(session, page).request(page.path)).text()));
    console.log(`\n  ${page.name}  (${page.path})`);
    for (const statement of plans.filter((plan) => /query_|ledger_|audit_log|refusal_|integration_activity|top_up_|portal_users|bulk_job/.test(plan.queryText))) {
      const { line, defects: found } = summarizePlan(statement);
      console.log(`  ${line}`);
      for (const defect of found) console.log(`      !! ${defect}`);
      defects += found.length;
    }
  }
  console.log(`\n${defects === 0 ? 'No sequential scan or large sort on a growing table.' : `${defects} plan defect(s) flagged above.`}`);
}

async function loadOrReuseVolume(handle: Awaited<ReturnType<typeof import('@/db/client').database>>, admin: postgres.Sql): Promise<VolumeSummary> {
  await admin.unsafe('create table if not exists bench_volume (records bigint primary key, summary jsonb not null)');
  const [kept] = await admin<Array<{ summary: VolumeSummary }>>`select summary from bench_volume where records = ${RECORDS}`;
  const [{ integrations }] = (await admin`select count(*)::int as integrations from integrations`) as unknown as [{ integrations: number }];
  if (kept && integrations !== INTEGRATIONS) throw new Error(`the kept cluster has ${integrations} integrations, not ${INTEGRATIONS}; remove ${values.keep} or pass another --keep`);
  if (kept) {
    log(`reusing the ${RECORDS.toLocaleString('en-US')}-record volume kept in ${values.keep}`);
    return kept.summary;
  }
  const [{ count }] = (await admin`select count(*)::int as count from query_records`) as unknown as [{ count: number }];
  if (count > 0) throw new Error(`the kept cluster holds another volume (${count} records); remove ${values.keep} or pass another --keep`);
  const { generateVolume } = await import('./volume');
  const started = performance.now();
  const summary = await generateVolume(handle, { records: RECORDS, ledgerEntries: LEDGER_ENTRIES, integrations: INTEGRATIONS, days: 90, now: new Date(), log });
  log(`volume generated in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  await admin`insert into bench_volume (records, summary) values (${RECORDS}, ${admin.json(summary as never)})`;
  return summary;
}

/** A Guatemalan calendar day, `offset` days before today. */
const day = (offset: number) => new Date(Date.now() - 6 * 3_600_000 - offset * 86_400_000).toISOString().slice(0, 10);

function consolePages(summary: VolumeSummary, recordId: number, bulk: BulkVolumeSummary): Page[] {
  const largest = summary.largestIntegrationId;
  // A position 45 days back, as a cursor link carries it: paging from deep in the table.
  const deep = Buffer.from(`${new Date(Date.now() - 45 * 86_400_000).toISOString().replace('Z', '000Z')}|${Number.MAX_SAFE_INTEGER}`).toString('base64url');
  const records = 'Registros de consultas';
  const historyDeep = Buffer.from(`${new Date(Date.now() - 60 * 86_400_000).toISOString().replace('Z', '000Z')}|${Number.MAX_SAFE_INTEGER}`).toString('base64url');
  return [
    { name: 'Panel, 24 h', path: '/admin?rango=24h', expect: 'Últimas 24 horas' },
    { name: 'Panel, 7 d', path: '/admin?rango=7d', expect: 'Últimos 7 días' },
    { name: 'Panel, 30 d', path: '/admin?rango=30d', expect: 'Últimos 30 días' },
    { name: 'Registros, first page, no filter', path: '/admin/registros', expect: records },
    { name: 'Registros, a page 45 days back (cursor)', path: `/admin/registros?despues=${deep}`, expect: records },
    { name: `Registros, largest integration (#${largest})`, path: `/admin/registros?integracion=${largest}`, expect: records },
    { name: 'Registros, lookup omisos', path: '/admin/registros?consulta=omisos', expect: records },
    { name: 'Registros, status 502', path: '/admin/registros?estado=502', expect: records },
    { name: 'Registros, outcome 5xx', path: '/admin/registros?estado=source_error', expect: records },
    { name: 'Registros, status 401 (rare)', path: '/admin/registros?estado=401', expect: records },
    { name: `Registros, one day (${day(1)})`, path: `/admin/registros?desde=${day(1)}&hasta=${day(1)}`, expect: records },
    {
      name: `Registros, NIT ${summary.searchNit} (${summary.searchNitRecords} records)`,
      path: `/admin/registros?identificador=${encodeURIComponent(summary.searchNit)}`,
      expect: records,
    },
    {
      name: 'Registros, largest + omisos + 5xx + 7 days',
      path: `/admin/registros?integracion=${largest}&consulta=omisos&estado=source_error&desde=${day(7)}&hasta=${day(0)}`,
      expect: records,
    },
    {
      name: `Registros, smallest (#${summary.smallestIntegrationId}) + rtu + 404`,
      path: `/admin/registros?integracion=${summary.smallestIntegrationId}&consulta=rtu&estado=404`,
      expect: records,
    },
    {
      // Integration 1 follows profile 1 (volume.ts): catalogs only, never RENAP.
      name: `Registros, largest + a lookup it never used (renap)`,
      path: `/admin/registros?integracion=${largest}&consulta=renap`,
      expect: records,
    },
    {
      name: 'Registros, largest + cui_nit + 401 (rare)',
      path: `/admin/registros?integracion=${largest}&consulta=cui_nit&estado=401`,
      expect: records,
    },
    {
      name: 'Registros, NIT + largest integration',
      path: `/admin/registros?identificador=${encodeURIComponent(summary.searchNit)}&integracion=${largest}`,
      expect: records,
    },
    { name: 'Registro, one record\'s detail', path: `/admin/registros/${recordId}`, expect: `Consulta ${recordId}` },
    { name: 'Integraciones, the list', path: '/admin/integraciones', expect: 'Integraciones' },
    { name: 'Integraciones, the last page', path: `/admin/integraciones?pagina=${Math.ceil(INTEGRATIONS / 50)}`, expect: 'Integraciones' },
    { name: 'Integraciones, by balance', path: '/admin/integraciones?orden=saldo', expect: 'Integraciones' },
    { name: 'Integraciones, by latest query', path: '/admin/integraciones?orden=ultima', expect: 'Integraciones' },
    { name: 'Integraciones, name search ("99")', path: '/admin/integraciones?q=99', expect: 'Integraciones' },
    // Its sections, each a page of its own (issue 32, point 5).
    { name: `Integración, the largest (#${largest}): Resumen`, path: `/admin/integraciones/${largest}`, expect: 'Consultas habilitadas' },
    { name: 'Integración, largest: Credenciales', path: `/admin/integraciones/${largest}/credenciales`, expect: 'Direcciones IP permitidas' },
    { name: 'Integración, largest: Saldo y estados de cuenta', path: `/admin/integraciones/${largest}/saldo`, expect: 'Movimientos de saldo' },
    { name: 'Integración, largest: Notificaciones', path: `/admin/integraciones/${largest}/notificaciones`, expect: 'Últimos avisos' },
    { name: 'Integración, largest: Datos de la integración', path: `/admin/integraciones/${largest}/datos`, expect: 'Finalidad declarada' },
    { name: 'Integración, largest: Uso', path: `/admin/integraciones/${largest}/uso`, expect: 'Uso en los últimos 30 días' },
    { name: 'Historial de saldo, largest, first page', path: `/admin/integraciones/${largest}/movimientos`, expect: 'Historial de saldo' },
    { name: 'Historial de saldo, largest, 60 days back (cursor)', path: `/admin/integraciones/${largest}/movimientos?despues=${historyDeep}`, expect: 'Historial de saldo' },
    { name: 'Historial de saldo, largest, top-ups only', path: `/admin/integraciones/${largest}/movimientos?tipo=top_up`, expect: 'Historial de saldo' },
    { name: `Historial de saldo, largest, one day (${day(1)})`, path: `/admin/integraciones/${largest}/movimientos?desde=${day(1)}&hasta=${day(1)}`, expect: 'Historial de saldo' },
    // The integrators' portal (issue 33, point 6), as an owner of the largest integration.
    { name: `Portal: Inicio, largest integration (owner)`, path: '/portal', expect: 'Uso en los últimos 30 días', portal: true },
    { name: 'Portal: Movimientos, largest, first page', path: '/portal/movimientos', expect: 'Saldo después', portal: true },
    { name: 'Portal: Movimientos, largest, 60 days back (cursor)', path: `/portal/movimientos?despues=${historyDeep}`, expect: 'Saldo después', portal: true },
    { name: 'Portal: Estados de cuenta, largest', path: '/portal/estados', expect: 'Estados de cuenta', portal: true },
    { name: 'Portal: Credenciales, largest', path: '/portal/credenciales', expect: 'Direcciones permitidas', portal: true },
    { name: 'Portal: Equipo, largest', path: '/portal/equipo', expect: 'Personas del equipo', portal: true },
    { name: 'Portal: Mi cuenta', path: '/portal/cuenta', expect: 'Sesiones activas', portal: true },
    { name: 'Recargas pendientes (and every page\'s badge count)', path: '/admin/recargas', expect: 'Recargas pendientes' },
    { name: 'Integración, largest: Portal (Actividad del portal)', path: `/admin/integraciones/${largest}/portal`, expect: 'Actividad del portal' },
    { name: 'Auditoría, largest, portal people only', path: `/admin/auditoria?tipo=integration&id=${largest}&quien=integrator`, expect: 'Auditoría' },
    { name: 'Portal: Recargas, largest', path: '/portal/recargas', expect: 'Recargas', portal: true },
    { name: 'Portal: Notificaciones, largest', path: '/portal/notificaciones', expect: 'Notificaciones', portal: true },
    // Bulk jobs (issue 35, point 6): every job's figures count its items, up to 10,000 each.
    { name: 'Lotes, first page (every integration)', path: '/admin/lotes', expect: 'Lotes' },
    { name: `Lotes, largest integration (${bulk.largestIntegrationJobs} jobs)`, path: `/admin/lotes?integracion=${largest}`, expect: 'Lotes' },
    { name: 'Lotes, completed only', path: '/admin/lotes?estado=completado', expect: 'Lotes' },
    { name: 'Lote, largest\'s 10,000 items: figures, first rows', path: `/admin/lotes/${bulk.largestJobPublicId}`, expect: 'Estado y cifras' },
    { name: 'Lote, largest\'s 10,000 items: rows 9,901-10,000', path: `/admin/lotes/${bulk.largestJobPublicId}?desde=9900`, expect: 'Estado y cifras' },
    { name: 'Portal: Lotes, largest, first page', path: '/portal/lotes', expect: 'Lotes', portal: true },
    { name: 'Portal: Lote, largest\'s 10,000 items', path: `/portal/lotes/${bulk.largestJobPublicId}`, expect: bulk.largestJobPublicId, portal: true },
    { name: 'Auditoría, first page', path: '/admin/auditoria', expect: 'Auditoría' },
    { name: `Auditoría, one integration (#${largest})`, path: `/admin/auditoria?tipo=integration&id=${largest}`, expect: 'Auditoría' },
  ];
}

async function fetchPage(session: ConsoleSession, page: Page): Promise<{ ms: number; html: string }> {
  const started = performance.now();
  const response = await clientFor(session, page).request(page.path);
  const html = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200 || !html.includes(page.expect)) {
    throw new Error(`${page.name}: HTTP ${response.status}, ${html.includes(page.expect) ? '' : `no "${page.expect}" in the page`}\n${html.slice(0, 400)}`);
  }
  return { ms, html };
}

async function timePage(session: ConsoleSession, page: Page): Promise<number[]> {
  for (let run = 0; run < WARMUP; run++) await fetchPage(session, page);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push((await fetchPage(session, page)).ms);
  return times.sort((a, b) => a - b);
}

/** Walks the unfiltered list by its "older" links, as someone paging through would. */
async function timeCursorWalk(session: ConsoleSession, pages: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < Math.max(1, Math.floor(RUNS / 4)); run++) {
    let page: Page = { name: 'Registros', path: '/admin/registros', expect: 'Registros de consultas' };
    for (let index = 0; index <= pages; index++) {
      const { ms, html } = await fetchPage(session, page);
      if (index > 0) times.push(ms);
      const older = /href="(\/admin\/registros\?despues=[^"]+)"/.exec(html);
      if (!older) break;
      page = { ...page, path: older[1]!.replaceAll('&amp;', '&') };
    }
  }
  return times.sort((a, b) => a - b);
}

async function measureExports(session: ConsoleSession, app: BenchApp): Promise<void> {
  console.log(`\nCSV export (/admin/registros/exportar) on the freshly started app, one run each; its resident memory sampled every 100 ms\n`);
  console.log(`${'range'.padEnd(28)} ${'rows'.padStart(11)} ${'first byte'.padStart(11)} ${'total'.padStart(9)} ${'MB'.padStart(7)} ${'app RSS before'.padStart(15)} ${'peak'.padStart(9)}`);
  for (const [name, from, to] of [
    [`1 day (${day(1)})`, day(1), day(1)],
    [`30 days (${day(29)} to ${day(0)})`, day(29), day(0)],
  ] as const) {
    const before = residentMb(app.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(app.pid))), 100);
    const started = performance.now();
    const response = await session.request(`/admin/registros/exportar?desde=${from}&hasta=${to}`);
    const reader = response.body!.getReader();
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - started;
      bytes += value.length;
      for (const byte of value) if (byte === 10) lines++;
    }
    const totalMs = performance.now() - started;
    clearInterval(sampler);
    if (response.status !== 200) {
      console.log(`${name.padEnd(28)} HTTP ${response.status}`);
      continue;
    }
    console.log(
      `${name.padEnd(28)} ${(lines - 1).toLocaleString('en-US').padStart(11)} ${`${(firstByteMs / 1000).toFixed(2)} s`.padStart(11)} ${`${(totalMs / 1000).toFixed(1)} s`.padStart(9)} ${(bytes / 1_048_576).toFixed(0).padStart(7)} ${`${before} MB`.padStart(15)} ${`${peak} MB`.padStart(9)}`,
    );
  }
}

function residentMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

main()
  .then(
    () => 0,
    (error: unknown) => {
      console.error('[bench:console] failed:', error);
      return 1;
    },
  )
  .then(async (code) => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    process.exit(code);
  });
