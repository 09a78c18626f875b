// The integrators' API reads at volume (issue 54, point 6): GET /api/cuenta, /api/cuenta/movimientos,
// /api/consultas, /api/consultas/{request_id}, /api/lotes and /api/vigilancias, asked by the largest
// integration with a token of its own, as its systems would: each first page, a later page reached
// by the cursor an answer gave, a page deep in its history, and each filter the endpoint has. Then,
// unless plans are skipped, the plan of every statement one request of each ran (auto_explain).
import type { BenchApp } from '../app';
import { percentile } from '../stats';
import { PlanRecorder, summarizePlan } from './plans';
import type { VolumeSummary } from './volume';

interface ApiRead {
  name: string;
  path: string;
  /** The status the read answers: 200, or 404 for an id the integration does not have. */
  status?: number;
}

interface Credentials {
  login: string;
  token: string;
}

const LOGIN_HEADER = 'x-integracion-login';
const TOKEN_HEADER = 'x-integracion-token';

/** A Guatemalan calendar day, `offset` days before today. */
const day = (offset: number) => new Date(Date.now() - 6 * 3_600_000 - offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A keyset cursor `daysBack` days back, as an answer's `siguiente` carries one; its id the largest
 * an integer column holds: a job's id is one, and GET /api/lotes answers a larger one with a 500.
 */
const cursorDaysBack = (daysBack: number) =>
  Buffer.from(`${new Date(Date.now() - daysBack * 86_400_000).toISOString().replace('Z', '000Z')}|${2 ** 31 - 1}`).toString('base64url');

export async function timeApiReads(
  app: BenchApp,
  summary: VolumeSummary,
  options: { runs: number; warmup: number; plans?: { url: string; directory: string } },
): Promise<void> {
  const largest = summary.largestIntegrationId;
  const credentials = await largestIntegrationToken(largest);
  const { requestId, traceId } = await knownRequestIds(largest);
  const ask = async (path: string) => {
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { [LOGIN_HEADER]: credentials.login, [TOKEN_HEADER]: credentials.token } });
    return { status: response.status, body: await response.text() };
  };
  // A later page is the one an answer's `siguiente` leads to, as a client pages.
  const next = async (path: string) => {
    const { status, body } = await ask(path);
    const cursor = (JSON.parse(body) as Record<string, unknown>).siguiente;
    if (status !== 200 || typeof cursor !== 'string') throw new Error(`${path}: HTTP ${status}, no siguiente in ${body.slice(0, 300)}`);
    const separator = path.includes('?') ? '&' : '?';
    return `${path}${separator}cursor=${encodeURIComponent(cursor)}`;
  };
  const movements = '/api/cuenta/movimientos';
  const records = '/api/consultas';
  const reads: ApiRead[] = [
    { name: 'GET /api/cuenta', path: '/api/cuenta' },
    { name: 'movimientos, first page', path: movements },
    { name: 'movimientos, page 2 (its siguiente)', path: await next(movements) },
    { name: 'movimientos, 60 days back (cursor)', path: `${movements}?cursor=${cursorDaysBack(60)}` },
    { name: 'movimientos, tipo=recarga', path: `${movements}?tipo=recarga` },
    { name: `movimientos, one day (${day(1)})`, path: `${movements}?desde=${day(1)}&hasta=${day(1)}` },
    { name: 'movimientos, 30 days, 45 days back (cursor)', path: `${movements}?desde=${day(59)}&hasta=${day(30)}&cursor=${cursorDaysBack(45)}` },
    { name: 'consultas, first page', path: records },
    { name: 'consultas, page 2 (its siguiente)', path: await next(records) },
    { name: 'consultas, 45 days back (cursor)', path: `${records}?cursor=${cursorDaysBack(45)}` },
    { name: 'consultas, consulta=omisos', path: `${records}?consulta=omisos` },
    { name: 'consultas, consulta=omisos, page 2', path: await next(`${records}?consulta=omisos`) },
    { name: 'consultas, estado=502', path: `${records}?estado=502` },
    { name: 'consultas, estado=401 (rare)', path: `${records}?estado=401` },
    { name: 'consultas, resultado=source_error', path: `${records}?resultado=source_error` },
    { name: `consultas, one day (${day(1)})`, path: `${records}?desde=${day(1)}&hasta=${day(1)}` },
    { name: 'consultas, omisos + source_error + 7 days', path: `${records}?consulta=omisos&resultado=source_error&desde=${day(7)}&hasta=${day(0)}` },
    { name: 'consultas, cui_nit + 401 + 45 days back', path: `${records}?consulta=cui_nit&estado=401&cursor=${cursorDaysBack(45)}` },
    { name: 'consultas, a lookup it never used (renap)', path: `${records}?consulta=renap` },
    { name: 'consultas/{request_id}, a record', path: `${records}/${requestId}` },
    { name: 'consultas/{request_id}, a traced refusal', path: `${records}/${traceId}` },
    { name: 'consultas/{request_id}, unknown (404)', path: `${records}/req_bench_no_such_request`, status: 404 },
    { name: 'lotes, first page', path: '/api/lotes' },
    { name: 'lotes, page 2 (its siguiente)', path: await next('/api/lotes') },
    { name: 'lotes, 45 days back (cursor)', path: `/api/lotes?cursor=${cursorDaysBack(45)}` },
    { name: 'vigilancias, first page', path: '/api/vigilancias' },
    { name: 'vigilancias, page 2 (its siguiente)', path: await next('/api/vigilancias') },
  ];

  console.log(
    `\nThe integrators' API (reads) as the largest integration (#${largest}) asks them: ${options.warmup} warm-up requests, then ${options.runs} timed requests each, over HTTP (time to the last byte)\n`,
  );
  console.log(`${'request'.padEnd(58)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'rows'.padStart(6)}`);
  let over = 0;
  for (const read of reads) {
    let rows = '';
    const once = async () => {
      const started = performance.now();
      const { status, body } = await ask(read.path);
      const ms = performance.now() - started;
      if (status !== (read.status ?? 200)) throw new Error(`${read.name}: HTTP ${status} ${body.slice(0, 300)}`);
      // How many items a list's page held (a page that came back empty would time nothing).
      const list = read.path === '/api/cuenta' ? undefined : Object.values(JSON.parse(body) as Record<string, unknown>).find(Array.isArray);
      rows = list ? String(list.length) : '';
      return ms;
    };
    for (let run = 0; run < options.warmup; run++) await once();
    const times: number[] = [];
    for (let run = 0; run < options.runs; run++) times.push(await once());
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 0.95);
    if (p95 > 150) over++;
    console.log(`${read.name.padEnd(58)} ${percentile(times, 0.5).toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${rows.padStart(6)}${p95 > 150 ? '  over 150 ms' : ''}`);
  }
  console.log(`\n${over === 0 ? 'Every read\'s p95 is under 150 ms.' : `${over} read(s) over 150 ms p95.`}`);

  if (!options.plans) return;
  console.log('\nPlans of the statements each API read ran (auto_explain, EXPLAIN ANALYZE with buffers; one request each):');
  const recorder = new PlanRecorder(options.plans.url, options.plans.directory);
  let defects = 0;
  for (const read of reads) {
    const plans = await recorder.capture(async () => void (await ask(read.path)));
    console.log(`\n  ${read.name}  (${read.path.replace(/cursor=[^&]+/, 'cursor=…')})`);
    for (const statement of plans.filter((plan) => /query_|ledger_|refusal_|request_traces|bulk_job|watch_list|monthly_|integrations/.test(plan.queryText))) {
      const { line, defects: found } = summarizePlan(statement);
      console.log(`  ${line}`);
      for (const defect of found) console.log(`      !! ${defect}`);
      defects += found.length;
    }
  }
  console.log(`\n${defects === 0 ? 'No API read scans a growing table or sorts a large one.' : `${defects} plan defect(s) flagged above.`}`);
}

/** A token of the largest integration's own, as an administrator or its owner creates one. */
async function largestIntegrationToken(integrationId: number): Promise<Credentials> {
  const { createToken } = await import('@/lib/flows/integration-management/tokens');
  const { findIntegration } = await import('@/lib/flows/integration-management/service');
  const created = await createToken({ kind: 'system', name: 'bench' }, integrationId, { label: `Bench API ${Date.now()}` });
  if (!created.ok) throw new Error(created.error.message);
  const integration = await findIntegration(integrationId);
  // The app's copy of the credentials reloads every INTEGRATION_CACHE_REFRESH_MS (2 s by default).
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return { login: integration!.nombre, token: created.value.token };
}

/**
 * One of the integration's request ids with a record (ten days old), and one of a refusal the
 * gateway traced (a 402 an hour ago, written here as an instance writes its traces).
 */
async function knownRequestIds(integrationId: number): Promise<{ requestId: string; traceId: string }> {
  const { database } = await import('@/db/client');
  const { sql } = await import('drizzle-orm');
  const handle = await database();
  const [record] = await handle.rows<{ request_id: string }>(
    sql`select request_id from query_records where integration_id = ${integrationId}::integer and created_at < now() - interval '10 days' order by created_at desc, id desc limit 1`,
  );
  const traceId = `req_bench_trace_${Date.now()}`;
  await handle.rows(sql`
    insert into request_traces (request_id, at, integration_id, lookup, http_status, reason)
    values (${traceId}::text, now() - interval '1 hour', ${integrationId}::integer, 'omisos', 402, 'balance_exhausted')`);
  return { requestId: record!.request_id, traceId };
}
