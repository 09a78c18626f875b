// Fills a (throwaway) database with a production-like volume for the console benchmark, in SQL,
// batch by batch with progress: 200 integrations of very different sizes, query records over 90
// days (the five lookups, each integration with its own mix, a realistic spread of statuses and
// response times, identifiers looked up many times, /rtu/nits batches of 1 to 50 NITs), the
// ledger those queries imply (a hold and a capture or void per catalog query, weekly top-ups),
// audit rows, refusal counts, and the rollups, made by the product's own rollup job. Identifiers
// are stored as the product stores them: encrypted, with keyed search hashes.
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '@/db/client';

export interface VolumeOptions {
  records: number;
  /** Ledger entries in all: beyond the records' own (a hold and a settlement per catalog query and the top-ups), older history whose records retention purged. */
  ledgerEntries: number;
  integrations: number;
  days: number;
  /** The instant the newest records approach. */
  now: Date;
  log: (line: string) => void;
}

export interface VolumeSummary {
  records: number;
  identifiers: number;
  ledgerEntries: number;
  auditRows: number;
  largestIntegrationId: number;
  smallestIntegrationId: number;
  /** A NIT found in about 5,000 records, some of them /rtu/nits batches, written as support would type it. */
  searchNit: string;
  searchNitRecords: number;
  searchNitBatches: number;
}

const RECORD_BATCH = 250_000;
// /rtu/nits batches start at one of these many places in the pool, with 1 to 50 NITs: each
// (start, size) is sealed once in Node (the keys never reach SQL) and picked by many records.
const BATCH_STARTS = 2_000;
const BATCH_SIZES = 50;
const SEALING_CHUNK = 20_000;
// The largest integration gets about 18 % of the traffic: some 500,000 charged queries a month at
// 10 million records over 90 days (a statement's worst case).
const ZIPF_S = 1.05;
const POOL_SIZE = 400_000;

// Share of each lookup per integration profile (percent): some integrations only use the
// catalogs, some only the registries, most a mix.
const PROFILES: Array<Record<string, number>> = [
  { renap: 15, rtu_nits: 10, cui_nit: 30, rtu: 20, omisos: 25 },
  { cui_nit: 45, omisos: 55 },
  { renap: 60, rtu_nits: 40 },
  { renap: 10, rtu_nits: 5, cui_nit: 35, rtu: 15, omisos: 35 },
];

// Status per lookup (per thousand).
const STATUSES: Record<string, Record<number, number>> = {
  renap: { 200: 920, 404: 50, 400: 10, 500: 20 },
  rtu_nits: { 200: 970, 500: 30 },
  cui_nit: { 200: 860, 404: 70, 502: 30, 400: 10, 429: 10, 401: 5, 402: 5, 403: 5, 500: 5 },
  rtu: { 200: 860, 404: 70, 502: 30, 400: 10, 429: 10, 401: 5, 402: 5, 403: 5, 500: 5 },
  omisos: { 200: 860, 404: 70, 502: 30, 400: 10, 429: 10, 401: 5, 402: 5, 403: 5, 500: 5 },
};

const MEDIAN_MS: Record<string, number> = { renap: 180, rtu_nits: 260, cui_nit: 320, rtu: 420, omisos: 350 };

function slots(weights: Record<string | number, number>, total: number): string[] {
  const result: string[] = [];
  for (const [value, weight] of Object.entries(weights)) for (let index = 0; index < weight; index++) result.push(String(value));
  if (result.length !== total) throw new Error(`weights add up to ${result.length}, not ${total}`);
  return result;
}

/**
 * Ledger history older than the records: holds and captures from 25 to 27 months ago, whose
 * records the retention has purged, with weekly top-ups, so the ledger reaches `ledgerEntries`
 * as a gateway running for more than two years would have it.
 */
async function olderLedgerHistory(run: (text: string) => Promise<Array<Record<string, unknown>>>, options: VolumeOptions, log: (line: string) => void): Promise<void> {
  const [{ entries }] = (await run(`select count(*)::bigint as entries from ledger_entries`)) as [{ entries: string }];
  const pairs = Math.floor((options.ledgerEntries - Number(entries) - 200 * 13) / 2);
  if (pairs <= 0) return;
  log(`older ledger history: ${(2 * pairs).toLocaleString('en-US')} entries from 25 to 27 months ago (their records purged)`);
  const nowIso = options.now.toISOString();
  for (let first = 0; first < pairs; first += RECORD_BATCH) {
    const last = Math.min(pairs, first + RECORD_BATCH) - 1;
    await run(`
      with picked as (
        select n, ids[1 + floor(random() * 10000)::int] as integration_id,
               timestamptz '${nowIso}' - interval '27 months' + interval '1 millisecond' * (${90 * 86_400_000}::double precision * n / ${pairs}) as at
          from generate_series(${first}, ${last}) n, bench_integration_slots
      ),
      holds as (
        insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, request_id, created_at)
        select p.integration_id, 'hold', -i.tariff_centavos, 0, 'system:lookup', 'req_old_' || p.n, p.at - interval '300 milliseconds'
          from picked p join integrations i on i.id = p.integration_id
        returning id, integration_id, amount_centavos, request_id, created_at
      )
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, query_record_id, created_at)
      select h.integration_id, 'capture', 0, h.amount_centavos, 'system:lookup', h.id, h.request_id, null, h.created_at + interval '300 milliseconds'
        from holds h`);
    log(`  ${(2 * (last + 1)).toLocaleString('en-US')} entries`);
  }
  await run(`
    insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, note, created_at)
    select integration_id, 'top_up', amount, amount, 'user:1 admin@example.com', 'Depósito antiguo ' || week || '-' || integration_id,
           timestamptz '${nowIso}' - interval '27 months' + interval '7 days' * week - interval '1 hour'
      from (
        select integration_id, floor(extract(epoch from created_at - (timestamptz '${nowIso}' - interval '27 months')) / 604800)::int as week,
               ceil(-sum(posted_centavos) * 1.3)::bigint + 50000 as amount
          from ledger_entries where kind = 'capture' and query_record_id is null group by 1, 2
      ) weekly`);
}

const textArray = (values: string[]) => `array[${values.map((value) => `'${value}'`).join(',')}]`;

/**
 * The pool as the product would store it: each taxpayer's NIT and CUI sealed (AES-256-GCM under
 * PERSONAL_DATA_KEY) with their search keys (HMAC under PERSONAL_DATA_SEARCH_KEY), and every
 * /rtu/nits batch a record can pick sealed whole, with its NITs' search keys. Sealed once per
 * taxpayer or batch, so repeated lookups of one taxpayer share a ciphertext here where the product
 * gives each record its own IV: the sizes, and so the plans, are the same. Sealing each of 10
 * million records instead (personal-data:reseal, about 2,000 records/s) would take over an hour.
 */
async function sealPool(handle: DatabaseHandle, log: (line: string) => void, elapsed: () => string): Promise<void> {
  const { seal } = await import('@/lib/core/sealing/envelope');
  const { searchKey } = await import('@/lib/core/sealing/search-keys');
  const pool = await handle.rows<{ k: number; nit: string; cui: string }>(sql.raw(`select k, nit, cui from bench_pool order by k`));
  log(`sealing the pool: ${pool.length.toLocaleString('en-US')} NITs and CUIs, ${(BATCH_STARTS * BATCH_SIZES).toLocaleString('en-US')} batches`);
  await handle.rows(sql.raw(`create unlogged table bench_sealed (k integer primary key, nit text not null, nit_sealed text not null, cui_sealed text not null, nit_key text not null, cui_key text not null)`));
  for (let first = 0; first < pool.length; first += SEALING_CHUNK) {
    const chunk = pool.slice(first, first + SEALING_CHUNK).map((entry) => ({
      k: entry.k,
      nit: entry.nit,
      nit_sealed: seal(entry.nit, 'nit'),
      cui_sealed: seal(entry.cui, 'cui'),
      nit_key: searchKey(entry.nit),
      cui_key: searchKey(entry.cui),
    }));
    await handle.rows(sql`
      insert into bench_sealed select * from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
        as v(k integer, nit text, nit_sealed text, cui_sealed text, nit_key text, cui_key text)`);
  }
  await handle.rows(sql.raw(`create unlogged table bench_batches (b integer primary key, nits_sealed text not null, nit_keys text[] not null)`));
  const spacing = Math.floor((pool.length - BATCH_SIZES) / BATCH_STARTS);
  const batches: Array<{ b: number; nits_sealed: string; nit_keys: string[] }> = [];
  const flush = async () => {
    await handle.rows(sql`
      insert into bench_batches select b, nits_sealed, array(select jsonb_array_elements_text(nit_keys))
        from jsonb_to_recordset(${JSON.stringify(batches)}::jsonb) as v(b integer, nits_sealed text, nit_keys jsonb)`);
    batches.length = 0;
  };
  for (let start = 0; start < BATCH_STARTS; start++) {
    for (let size = 1; size <= BATCH_SIZES; size++) {
      const members = pool.slice(start * spacing, start * spacing + size);
      batches.push({
        b: start * BATCH_SIZES + size - 1,
        nits_sealed: seal(members.map((member) => member.nit).join(','), 'nit'),
        nit_keys: members.map((member) => searchKey(member.nit)!),
      });
    }
    if (batches.length >= SEALING_CHUNK) await flush();
  }
  if (batches.length > 0) await flush();
  log(`  done (${elapsed()})`);
}

export async function generateVolume(handle: DatabaseHandle, options: VolumeOptions): Promise<VolumeSummary> {
  const run = (text: string) => handle.rows<Record<string, unknown>>(sql.raw(text));
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const { records, integrations, days } = options;
  const nowIso = options.now.toISOString();

  options.log(`integrations: ${integrations}, sizes following a Zipf law (s = ${ZIPF_S})`);
  await run(`
    insert into integrations (nombre, is_renap_enabled, is_rtu_enabled, is_cui_nit_enabled, is_rtu_v2_enabled,
                              is_omisos_enabled, tariff_centavos, balance_centavos, created_at, updated_at)
    select 'integracion-' || lpad(n::text, 5, '0'),
           true, true, true, true, true, 50 + (n * 37) % 251, 0,
           timestamptz '${nowIso}' - interval '${days + 10} days', timestamptz '${nowIso}' - interval '${days + 10} days'
      from generate_series(1, ${integrations}) n`);
  await run(`
    insert into integration_tokens (integration_id, label, token_hash, token_prefix, created_at)
    select id, 'Principal', md5(id::text) || md5((id + 1)::text), 'tlk_' || substr(md5(id::text), 1, 6), created_at from integrations`);
  // 10,000 slots filled in proportion to each integration's weight: a row picks a random slot.
  // Computed here: in SQL each slot searched the cumulative weights, 10,000 × 10,000 rows with
  // --integrations 10000, which ran for over 20 minutes.
  const ids = (await run(`select id from integrations order by id`)).map((row) => Number(row.id));
  const weights = ids.map((_, rank) => Math.pow(rank + 1, -ZIPF_S));
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const slotIds: number[] = [];
  for (let rank = 0, upto = 0, slot = 1; slot <= 10_000; slot++) {
    while (rank < ids.length - 1 && upto + weights[rank]! / totalWeight < slot / 10_000) upto += weights[rank++]! / totalWeight;
    slotIds.push(ids[rank]!);
  }
  await run(`create unlogged table bench_integration_slots as select array[${slotIds.join(',')}]::integer[] as ids`);

  options.log(`identifier pool: ${POOL_SIZE.toLocaleString('en-US')} taxpayers (valid NIT check characters); a few looked up thousands of times`);
  await run(`
    create unlogged table bench_pool as
    select k,
           body || (case when check_value = 10 then 'K' else check_value::text end) as nit,
           lpad((10000000 + k::bigint * 13 % 89999999)::text, 8, '0') || (k % 10)::text || lpad((1 + k % 22)::text, 2, '0') || '01' as cui
      from (
        select k, body,
               (11 - (select sum(substr(reverse(body), position, 1)::int * (position + 1)) from generate_series(1, length(body)) position) % 11) % 11 as check_value
          from (select k, (100000 + (k::bigint * 7919) % 99000000)::text as body from generate_series(0, ${POOL_SIZE - 1}) k) bodies
      ) checked`);
  await run(`create unique index on bench_pool (k)`);
  await sealPool(handle, options.log, elapsed);

  // Secondary indexes are dropped while loading and rebuilt from their own definitions after.
  const bulkTables = ['query_records', 'query_record_identifiers', 'ledger_entries'];
  const indexes = await run(`
    select indexname, indexdef from pg_indexes
     where tablename in (${bulkTables.map((table) => `'${table}'`).join(',')})
       and indexname not in (select conname from pg_constraint)`);
  for (const index of indexes) await run(`drop index ${index.indexname as string}`);
  // Partitioned records (db/migrations/0066) need their months first: a new database has only the
  // current one and those ahead. A database seeded at an older migration has no partitions.
  if ((await run(`select to_regproc('query_records_ensure_months') is not null as partitioned`))[0]?.partitioned) {
    await run(`select query_records_ensure_months((timestamptz '${nowIso}' at time zone 'UTC' - interval '${days} days')::date, (timestamptz '${nowIso}' at time zone 'UTC')::date)`);
  }

  const profileSlots = PROFILES.flatMap((profile) => slots(profile, 100));
  const statusSlots = Object.fromEntries(Object.entries(STATUSES).map(([lookup, weights]) => [lookup, slots(weights, 1000)]));
  const spanMs = days * 86_400_000;
  options.log(`query records: ${records.toLocaleString('en-US')} over ${days} days, in batches of ${RECORD_BATCH.toLocaleString('en-US')}`);
  for (let first = 0; first < records; first += RECORD_BATCH) {
    const last = Math.min(records, first + RECORD_BATCH) - 1;
    await run(`
      insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos,
                                 error_message, request_id, created_at)
      select integration_id, lookup::lookup_kind, status, response_ms,
             case when lookup = 'renap' then null
                  when lookup = 'rtu_nits' then (select b.nits_sealed from bench_batches b where b.b = batch)
                  when identifier_kind < 0.8 then (select p.nit_sealed from bench_sealed p where p.k = popular)
                  else null end,
             case when lookup = 'renap' or (lookup not in ('rtu_nits') and identifier_kind >= 0.8) then (select p.cui_sealed from bench_sealed p where p.k = popular) else null end,
             case when lookup in ('cui_nit', 'rtu', 'omisos') and status = 200 then tariff else 0 end,
             case when lookup in ('cui_nit', 'rtu', 'omisos') then tariff else null end,
             case when status = 502 then 'catalog source answered HTTP 503: <html><body>Service Unavailable</body></html>'
                  when status = 500 then 'registry answered 503'
                  when status >= 400 then 'source answered ' || status
                  else null end,
             'req_bench_' || n,
             timestamptz '${nowIso}' - interval '1 millisecond' * (${spanMs} - ${spanMs}::double precision * n / ${records}) + interval '1 millisecond' * floor(random() * 20000)
        from (
          select chosen.*,
                 case lookup ${Object.keys(STATUSES)
                   .map((lookup) => `when '${lookup}' then (${textArray(statusSlots[lookup]!)})[1 + floor(random() * 1000)::int]::smallint`)
                   .join(' ')} end as status,
                 greatest(1, least(29000, round(exp(ln(case lookup ${Object.entries(MEDIAN_MS)
                   .map(([lookup, median]) => `when '${lookup}' then ${median}`)
                   .join(' ')} end) + 0.8 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())))))::int as response_ms
            from (
              select n, picked.integration_id, i.tariff_centavos as tariff,
                     (${textArray(profileSlots)})[picked.integration_id % ${PROFILES.length} * 100 + 1 + floor(random() * 100)::int] as lookup,
                     random() as identifier_kind,
                     floor(${POOL_SIZE} * power(random(), 1.87))::int as popular,
                     floor(random() * ${BATCH_STARTS})::int * ${BATCH_SIZES} + floor(${BATCH_SIZES} * power(random(), 3))::int as batch
                from (
                  select n, ids[1 + floor(random() * 10000)::int] as integration_id
                    from generate_series(${first}, ${last}) n, bench_integration_slots
                ) picked
                join integrations i on i.id = picked.integration_id
            ) chosen
        ) row_values`);
    options.log(`  ${(last + 1).toLocaleString('en-US')} records (${elapsed()})`);
  }
  // A 502 is a source that did not answer in time: most of them waited for the 30 s ceiling.
  await run(`update query_records set response_time_ms = 30000 + (id % 40) where http_status = 502 and id % 3 <> 0`);

  // Each sealed value stands for one pool entry or batch (sealed once, see sealPool), so the
  // search keys are found by joining back on it: three hash joins, no per-row lookups.
  options.log('search keys of every record (keyed hashes of each NIT of a batch, of a NIT and a CUI)');
  await run(`
    insert into query_record_identifiers (record_id, identifier, created_at)
    select r.id, p.nit_key, r.created_at from query_records r join bench_sealed p on p.nit_sealed = r.nit where r.lookup <> 'rtu_nits'`);
  await run(`
    insert into query_record_identifiers (record_id, identifier, created_at)
    select r.id, p.cui_key, r.created_at from query_records r join bench_sealed p on p.cui_sealed = r.cui`);
  await run(`
    insert into query_record_identifiers (record_id, identifier, created_at)
    select r.id, unnest(b.nit_keys), r.created_at from query_records r join bench_batches b on b.nits_sealed = r.nit where r.lookup = 'rtu_nits'`);
  await run(`update personal_data_state set clear_records_remain = false, reseal_after_id = null, reseal_key_ids = null where id = 1`);
  options.log(`  done (${elapsed()})`);

  // A NIT found in about 5,000 records, some of them batches: what support searches for.
  const [search] = await run(`
    select p.nit as identifier, count(*) as found, count(*) filter (where r.lookup = 'rtu_nits') as batches
      from bench_sealed p join query_record_identifiers i on i.identifier = p.nit_key join query_records r on r.id = i.record_id
     where p.k between 1 and 12
     group by p.nit order by abs(count(*) - 5000) limit 1`);

  options.log('ledger: a hold and its capture or void per catalog query, weekly top-ups that cover each week');
  const [bounds] = await run(`select min(id) as low, max(id) as high from query_records`);
  for (let low = Number(bounds!.low); low <= Number(bounds!.high); low += RECORD_BATCH) {
    const high = low + RECORD_BATCH - 1;
    await run(`
      with holds as (
        insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, request_id, created_at)
        select integration_id, 'hold', -tariff_centavos, 0, 'system:lookup', request_id, created_at - interval '1 millisecond' * response_time_ms
          from query_records where id between ${low} and ${high} and tariff_centavos is not null order by id
        returning id, request_id
      )
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, hold_id, request_id, query_record_id, created_at)
      select r.integration_id, case when r.charged_centavos > 0 then 'capture'::ledger_entry_kind else 'void'::ledger_entry_kind end,
             case when r.charged_centavos > 0 then 0 else r.tariff_centavos end, -r.charged_centavos, 'system:lookup', holds.id, r.request_id, r.id, r.created_at
        from holds join query_records r on r.request_id = holds.request_id`);
    options.log(`  records up to id ${Math.min(high, Number(bounds!.high)).toLocaleString('en-US')} (${elapsed()})`);
  }
  await olderLedgerHistory(run, options, options.log);
  await run(`
    insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, note, created_at)
    select integration_id, 'top_up', amount, amount, 'user:1 admin@example.com', 'Depósito ' || (1000 + week) || '-' || integration_id,
           timestamptz '${nowIso}' - interval '${days} days' + interval '7 days' * week - interval '1 hour'
      from (
        select integration_id, floor(extract(epoch from created_at - (timestamptz '${nowIso}' - interval '${days} days')) / 604800)::int as week,
               ceil(sum(charged_centavos) * 1.3)::bigint + 50000 as amount
          from query_records group by 1, 2
      ) weekly`);
  await run(`
    update integrations i set balance_centavos = l.total
      from (select integration_id, sum(amount_centavos) as total from ledger_entries group by integration_id) l
     where l.integration_id = i.id`);
  options.log(`  done (${elapsed()})`);

  options.log('rebuilding the secondary indexes');
  // A partitioned table's index is defined `ON ONLY` the parent: rebuilt on every month too.
  for (const index of indexes) await run((index.indexdef as string).replace(' ON ONLY ', ' ON '));
  options.log(`  done (${elapsed()})`);

  options.log('audit log: each top-up (linked from its ledger entry), and flag and tariff changes');
  await run(`
    with audited as (
      insert into audit_log (actor, action, target_type, target_id, before, after, created_at)
      select 'user:1 admin@example.com', 'balance.top_up', 'integration', integration_id::text,
             jsonb_build_object('balanceCentavos', 0), jsonb_build_object('balanceCentavos', amount_centavos, 'amountCentavos', amount_centavos, 'note', note), created_at
        from ledger_entries where kind = 'top_up'
      returning id, target_id, created_at
    )
    update ledger_entries e set audit_id = a.id from audited a
     where e.kind = 'top_up' and e.integration_id = a.target_id::integer and e.created_at = a.created_at`);
  await run(`
    insert into audit_log (actor, action, target_type, target_id, before, after, created_at)
    select 'user:' || (1 + n % 4) || ' operador' || (1 + n % 4) || '@example.com',
           case when n % 3 = 0 then 'integration.set_tariff' else 'integration.set_flags' end, 'integration', (1 + n % ${integrations})::text,
           case when n % 3 = 0 then jsonb_build_object('tariffCentavos', 150) else jsonb_build_object('isOmisosEnabled', false) end,
           case when n % 3 = 0 then jsonb_build_object('tariffCentavos', 175) else jsonb_build_object('isOmisosEnabled', true) end,
           timestamptz '${nowIso}' - interval '1 second' * (n * ${Math.floor((days * 86_400) / 20_000)})
      from generate_series(1, 20000) n`);

  options.log('rollups, by the product\'s own job (lib/core/rollups/job.ts) over every record');
  await run(`
    insert into query_rollup_queue (integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at)
    select integration_id, lookup, http_status, response_time_ms, charged_centavos, created_at from query_records`);
  const { rollUpQueuedRecords } = await import('@/lib/core/rollups/job');
  for (let total = 0; ; ) {
    const rolled = await rollUpQueuedRecords(1_000_000);
    total += rolled;
    options.log(`  ${total.toLocaleString('en-US')} records rolled up (${elapsed()})`);
    if (rolled < 1_000_000) break;
  }
  // Refusals are counted, never recorded: about one for every twenty queries, for some integrations.
  await run(`
    insert into refusal_rollups_by_integration (integration_id, hour, lookup, reason, refusals)
    select integration_id, hour, lookup,
           (array['rate_limited', 'invalid_request', 'balance_exhausted', 'not_enabled', 'credentials_invalid']::refusal_reason[])[1 + integration_id % 5],
           greatest(1, queries / 20)
      from query_hourly_rollups_by_integration where http_status = 200 and integration_id % 3 = 0`);
  await run(`
    insert into refusal_rollups (hour, lookup, reason, refusals)
    select hour, lookup, reason, sum(refusals) from refusal_rollups_by_integration group by hour, lookup, reason`);

  options.log('hourly balance checkpoints, by the product\'s own job (lib/core/billing/checkpoints.ts)');
  const { advanceBalanceCheckpoints } = await import('@/lib/core/billing/checkpoints');
  options.log(`  ${(await advanceBalanceCheckpoints(options.now)).toLocaleString('en-US')} checkpoints (${elapsed()})`);

  options.log('vacuum analyze');
  await run('vacuum analyze');
  options.log(`  done (${elapsed()})`);

  const [sizes] = await run(`
    select (select count(*) from query_records) as records, (select count(*) from query_record_identifiers) as identifiers,
           (select count(*) from ledger_entries) as ledger, (select count(*) from audit_log) as audit`);
  const [largest] = await run(`select integration_id from query_daily_rollups_by_integration group by 1 order by sum(queries) desc limit 1`);
  const [smallest] = await run(`select integration_id from query_daily_rollups_by_integration group by 1 order by sum(queries) limit 1`);
  await run('drop table bench_pool, bench_sealed, bench_batches, bench_integration_slots');
  const identifier = String(search!.identifier);
  return {
    records: Number(sizes!.records),
    identifiers: Number(sizes!.identifiers),
    ledgerEntries: Number(sizes!.ledger),
    auditRows: Number(sizes!.audit),
    largestIntegrationId: Number(largest!.integration_id),
    smallestIntegrationId: Number(smallest!.integration_id),
    // As a customer reads it out: hyphen before the check character, lower case.
    searchNit: `${identifier.slice(0, -1)}-${identifier.slice(-1).toLowerCase()}`,
    searchNitRecords: Number(search!.found),
    searchNitBatches: Number(search!.batches),
  };
}

/**
 * The portal's self-service at volume (issue 34): an owner per integration who reported most of the
 * last 90 days' top-ups as deposits in the portal (approved, each linked to its ledger entry), about
 * one integration in fifty with a report waiting for an administrator (with a slip), one in a
 * hundred with a rejected one, and a dozen changes per integration by its own people in the audit
 * log (what "Actividad del portal" reads). Added once to a kept cluster made before issue 34, too.
 */
export async function addSelfServiceVolume(handle: DatabaseHandle, now: Date, log: (line: string) => void): Promise<void> {
  const run = (text: string) => handle.rows<Record<string, unknown>>(sql.raw(text));
  const [existing] = await run('select count(*)::int as n from top_up_requests');
  if (Number(existing!.n) > 0) return;
  const nowIso = now.toISOString();
  const started = performance.now();
  log('self-service volume: portal owners, reported deposits, portal activity in the audit log');
  await run(`
    insert into portal_users (integration_id, email, name, role, password_hash, created_at)
    select id, 'duena-' || id || '@example.com', 'Dueña ' || id, 'propietario', 'bench: never signs in', timestamptz '${nowIso}' - interval '100 days'
      from integrations
    on conflict do nothing`);
  await run(`
    insert into top_up_requests (integration_id, reported_by, bank, reference, deposit_date, amount_centavos,
                                 state, decided_by, decided_at, ledger_entry_id, created_at)
    select e.integration_id, u.id, (array['BI', 'BANRURAL', 'BAM', 'GYT', 'BANTRAB'])[1 + e.id % 5], 'BOL-' || e.id,
           (e.created_at - interval '1 day')::date, e.amount_centavos, 'approved', 'user:1 admin@example.com', e.created_at, e.id,
           e.created_at - interval '20 hours'
      from ledger_entries e join portal_users u on u.integration_id = e.integration_id and u.email like 'duena-%'
     where e.kind = 'top_up' and e.created_at > timestamptz '${nowIso}' - interval '90 days'`);
  await run(`
    insert into top_up_requests (integration_id, reported_by, bank, reference, deposit_date, amount_centavos, state,
                                 reason, decided_by, decided_at, created_at)
    select u.integration_id, u.id, 'BANRURAL', 'RECH-' || u.integration_id, (timestamptz '${nowIso}' - interval '9 days')::date,
           150000, 'rejected', 'La referencia no aparece en el estado de cuenta del banco.', 'user:1 admin@example.com',
           timestamptz '${nowIso}' - interval '7 days', timestamptz '${nowIso}' - interval '8 days'
      from portal_users u where u.integration_id % 100 = 0 and u.email like 'duena-%'`);
  const pending = await run(`
    insert into top_up_requests (integration_id, reported_by, bank, reference, deposit_date, amount_centavos, created_at)
    select u.integration_id, u.id, 'BI', 'PEND-' || u.integration_id, (timestamptz '${nowIso}' - interval '2 days')::date,
           250000, timestamptz '${nowIso}' - interval '1 minute' * u.integration_id
      from portal_users u where u.integration_id % 50 = 0 and u.email like 'duena-%'
    returning id`);
  // A photo of a slip is some 100 to 500 KB; the lists never read its bytes, only its type and size.
  await run(`
    insert into top_up_slips (request_id, content_type, size_bytes, content)
    select id, 'image/png', 200000, decode('89504e470d0a1a0a', 'hex') || decode(repeat('00', 200000 - 8), 'hex')
      from top_up_requests where state = 'pending'`);
  await run(`
    insert into audit_log (actor, action, target_type, target_id, before, after, created_at)
    select 'integrator:' || u.id || ' ' || u.integration_id || ' ' || u.email || ' (integración ' || u.integration_id || ')',
           (array['token.create', 'token.revoke', 'integration.set_allowed_networks', 'top_up_request.report'])[1 + n % 4], 'integration', u.integration_id::text,
           '{}'::jsonb, jsonb_build_object('label', 'servidor ' || n), timestamptz '${nowIso}' - interval '1 hour' * (n * 180 + u.integration_id % 97)
      from portal_users u cross join generate_series(1, 12) n where u.email like 'duena-%'`);
  await run('analyze portal_users, top_up_requests, top_up_slips, audit_log');
  const [sizes] = await run(`select (select count(*) from top_up_requests) as requests, ${pending.length} as pending, (select count(*) from audit_log where actor like 'integrator:%') as activity`);
  log(`  ${Number(sizes!.requests).toLocaleString('en-US')} top-up requests (${Number(sizes!.pending)} pending), ${Number(sizes!.activity).toLocaleString('en-US')} portal changes in the audit log (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

export interface BulkVolumeSummary {
  jobs: number;
  items: number;
  /** The largest integration's newest job of 10,000 items: what its pages are timed on. */
  largestJobPublicId: string;
  largestIntegrationJobs: number;
}

const BULK_JOBS = 3_000;
const BULK_LARGEST_SHARE = 300;
const BULK_IDENTIFIER_POOL = 20_000;

/** A classic NIT's check character (modulo 11, weights from 2 at the right), as SAT computes it. */
function nitCheck(body: string): string {
  let sum = 0;
  for (let position = 1; position <= body.length; position++) sum += Number(body[body.length - position]) * (position + 1);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'K' : String(check);
}

/**
 * Bulk jobs at volume (issue 35): 3,000 jobs over the integrations, the largest with 300 of them,
 * one job in ten of 10,000 items and the rest of 50 to 2,000 (about 5 million items), over the last
 * 90 days. Their items as the runner leaves them: found (with a sealed answer), not found, failed,
 * set aside (invalid, duplicated), charged at the integration's tariff when found; a few jobs
 * cancelled halfway and a few paused by an administrator with half their items pending (paused, so
 * the bench app's runner never claims them). Identifiers and answers are sealed as the product
 * seals them, from a pool sealed once (as sealPool). Added once to a kept cluster.
 */
export async function addBulkVolume(handle: DatabaseHandle, now: Date, largestIntegrationId: number, log: (line: string) => void): Promise<BulkVolumeSummary> {
  const run = (text: string) => handle.rows<Record<string, unknown>>(sql.raw(text));
  const [existing] = await run('select count(*)::int as n from bulk_jobs');
  if (Number(existing!.n) === 0) {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
    const { seal } = await import('@/lib/core/sealing/envelope');
    const nowIso = now.toISOString();
    log(`bulk jobs: ${BULK_JOBS.toLocaleString('en-US')} jobs (${BULK_LARGEST_SHARE} of the largest integration, #${largestIntegrationId}), one in ten of 10,000 items`);
    const pool: Array<{ k: number; s: string }> = [];
    for (let k = 0; pool.length < BULK_IDENTIFIER_POOL; k++) {
      const body = String(1_000_000 + ((k * 7_919) % 98_000_000));
      pool.push({ k: pool.length, s: seal(`${body}${nitCheck(body)}`, 'bulk_identifier') });
    }
    const answers = Array.from({ length: 100 }, (_, k) => ({
      k,
      s: seal(
        JSON.stringify({
          nit: `${1_000_000 + k}${nitCheck(String(1_000_000 + k))}`,
          nombre: `CONTRIBUYENTE DE PRUEBA NÚMERO ${k}, SOCIEDAD ANÓNIMA`,
          estado: k % 9 === 0 ? 'OMISO' : 'ACTIVO',
          domicilioFiscal: `${k} AVENIDA ${k % 20}-${k % 50} ZONA ${1 + (k % 21)}, GUATEMALA, GUATEMALA`,
          afiliacionIva: k % 3 === 0 ? 'PEQUEÑO CONTRIBUYENTE' : 'GENERAL',
          fechaInscripcion: '2009-03-17',
        }),
        'bulk_result',
      ),
    }));
    await run('create unlogged table bench_bulk_pool (k integer primary key, s text not null)');
    await run('create unlogged table bench_bulk_answers (k integer primary key, s text not null)');
    for (let first = 0; first < pool.length; first += SEALING_CHUNK) {
      await handle.rows(sql`insert into bench_bulk_pool select * from jsonb_to_recordset(${JSON.stringify(pool.slice(first, first + SEALING_CHUNK))}::jsonb) as v(k integer, s text)`);
    }
    await handle.rows(sql`insert into bench_bulk_answers select * from jsonb_to_recordset(${JSON.stringify(answers)}::jsonb) as v(k integer, s text)`);
    // The other jobs go to the 900 busiest integrations (all of them when fewer), the busier the more jobs.
    await run(`
      create unlogged table bench_bulk_owners as
      select array_agg(integration_id order by queries desc) as ids
        from (select integration_id, sum(queries) as queries from query_daily_rollups_by_integration
               where integration_id <> ${largestIntegrationId}::integer group by 1 order by 2 desc limit 900) busiest`);
    await run(`
      insert into bulk_jobs (public_id, integration_id, catalog, state, idempotency_key_hash, request_hash, total_items, created_at, finished_at)
      select 'lote_' || substr(md5('bench-bulk-' || n), 1, 20),
             case when n % 10 = 3 then ${largestIntegrationId}::integer else ids[1 + floor(array_length(ids, 1) * power(random(), 2))::int] end,
             (array['omisos', 'rtu', 'cui_nit'])[1 + n % 3],
             case when n % 97 = 5 then 'en_pausa'::bulk_job_state when n % 31 = 7 then 'cancelado'::bulk_job_state else 'completado'::bulk_job_state end,
             md5('bench-key-' || n), md5('bench-list-' || n),
             case when n % 10 = 0 or n % 30 = 3 then 10000 else 50 + floor(1950 * power(random(), 2))::int end,
             at, case when n % 97 = 5 then null else at + interval '2 hours' end
        from (
          select n, ids, timestamptz '${nowIso}' - interval '90 days' + interval '90 days' * n / ${BULK_JOBS} as at
            from generate_series(1, ${BULK_JOBS}) n, bench_bulk_owners
        ) numbered`);
    const jobIds = (await run('select id from bulk_jobs order by id')).map((row) => Number(row.id));
    for (let first = 0; first < jobIds.length; first += 250) {
      const low = jobIds[first]!;
      const high = jobIds[Math.min(jobIds.length, first + 250) - 1]!;
      // A job paused or cancelled halfway: its second half never ran (pending, nothing charged).
      await run(`
        insert into bulk_job_items (job_id, position, identifier_sealed, status, reason, result_sealed, answered_at, source, request_id, charged_centavos)
        select job_id, position, p.s, status::bulk_item_status,
               case status when 'invalido' then case when draw < 0.02 then 'nit_invalido' else 'duplicado' end
                           when 'error_fuente' then 'timeout' end,
               case when status = 'encontrado' then (select a.s from bench_bulk_answers a where a.k = position % 100) end,
               case when status <> 'pendiente' then created_at + interval '150 milliseconds' * position end,
               case when status not in ('pendiente', 'invalido') then 'catalog' end,
               case when status not in ('pendiente', 'invalido') then 'req_bulk_' || job_id || '_' || position end,
               case when status = 'encontrado' then tariff else 0 end
          from (
            select j.id as job_id, s.position, j.created_at, g.tariff_centavos as tariff, draw,
                   case when j.state in ('en_pausa', 'cancelado') and s.position >= j.total_items / 2 then 'pendiente'
                        when draw < 0.03 then 'invalido' when draw < 0.06 then 'error_fuente'
                        when draw < 0.20 then 'no_encontrado' else 'encontrado' end as status
              from bulk_jobs j join integrations g on g.id = j.integration_id,
                   lateral (select position, random() as draw from generate_series(0, j.total_items - 1) position) s
             where j.id between ${low} and ${high}
          ) planned
          join bench_bulk_pool p on p.k = (job_id * 7 + position) % ${BULK_IDENTIFIER_POOL}`);
      log(`  jobs up to #${high} (${elapsed()})`);
    }
    await run('drop table bench_bulk_pool, bench_bulk_answers, bench_bulk_owners');
    await run('vacuum analyze bulk_jobs, bulk_job_items');
    log(`  done (${elapsed()})`);
  }
  const [sizes] = await run(`
    select (select count(*) from bulk_jobs) as jobs, (select count(*) from bulk_job_items) as items,
           (select count(*) from bulk_jobs where integration_id = ${largestIntegrationId}::integer) as largest_jobs,
           (select public_id from bulk_jobs where integration_id = ${largestIntegrationId}::integer and total_items = 10000
             order by created_at desc, id desc limit 1) as job`);
  return {
    jobs: Number(sizes!.jobs),
    items: Number(sizes!.items),
    largestIntegrationJobs: Number(sizes!.largest_jobs),
    largestJobPublicId: String(sizes!.job),
  };
}

export interface WatchListVolumeSummary {
  lists: number;
  largestIntegrationLists: number;
}

const WATCH_LISTS = 2_000;
const WATCH_LISTS_LARGEST = 120;

/**
 * Watch lists (Vigilancias) at volume, for the API's list (GET /api/vigilancias): 2,000 lists over
 * the last 90 days, 120 of them the largest integration's (three pages of 50), the others spread
 * over the 300 busiest integrations; weekly or monthly, each with its runs as completed bulk jobs
 * (their figures on the job's row, no items: the lists never read them) and, from its second run
 * on, a few changes per run. Every list's next run is days away, so the bench app's scheduler
 * starts none. Their entries are left out: no list read opens them. Added once to a kept cluster.
 */
export async function addWatchListVolume(handle: DatabaseHandle, now: Date, largestIntegrationId: number, log: (line: string) => void): Promise<WatchListVolumeSummary> {
  const run = (text: string) => handle.rows<Record<string, unknown>>(sql.raw(text));
  const [existing] = await run('select count(*)::int as n from watch_lists');
  if (Number(existing!.n) === 0) {
    const started = performance.now();
    const { seal } = await import('@/lib/core/sealing/envelope');
    const nowIso = now.toISOString();
    log(`watch lists: ${WATCH_LISTS.toLocaleString('en-US')} lists (${WATCH_LISTS_LARGEST} of the largest integration, #${largestIntegrationId}), their runs as jobs, a few changes each run`);
    await run(`
      create unlogged table bench_watch_owners as
      select array_agg(integration_id order by queries desc) as ids
        from (select integration_id, sum(queries) as queries from query_daily_rollups_by_integration
               where integration_id <> ${largestIntegrationId}::integer group by 1 order by 2 desc limit 300) busiest`);
    await run(`
      insert into watch_lists (public_id, integration_id, name, catalog, schedule, state, total_entries, next_run_at, runs, changes_total, created_at)
      select 'vig_' || substr(md5('bench-watch-' || n), 1, 20),
             case when n % ${Math.floor(WATCH_LISTS / WATCH_LISTS_LARGEST)} = 0 and n <= ${WATCH_LISTS_LARGEST * Math.floor(WATCH_LISTS / WATCH_LISTS_LARGEST)}
                  then ${largestIntegrationId}::integer else ids[1 + floor(least(array_length(ids, 1), 300) * power(random(), 2))::int] end,
             'Proveedores ' || n, case when n % 2 = 0 then 'rtu' else 'omisos' end,
             case when n % 3 = 0 then 'mensual' else 'semanal' end,
             case when n % 17 = 4 then 'en_pausa' else 'activa' end,
             50 + (n * 37) % 1950,
             timestamptz '${nowIso}' + interval '1 day' + interval '6 days' * random(),
             1 + floor(extract(epoch from timestamptz '${nowIso}' - at) / case when n % 3 = 0 then 2592000 else 604800 end)::int,
             0, at
        from (select n, ids, timestamptz '${nowIso}' - interval '90 days' + interval '89 days' * n / ${WATCH_LISTS} as at
                from generate_series(1, ${WATCH_LISTS}) n, bench_watch_owners) numbered`);
    await run(`
      insert into bulk_jobs (public_id, integration_id, catalog, state, idempotency_key_hash, request_hash, total_items, created_at, finished_at,
                             watch_list_id, watch_list_run, changes_computed_at, found_items, not_found_items, failed_items, charged_centavos)
      select 'lote_' || substr(md5('bench-watch-run-' || w.id || '-' || r), 1, 20), w.integration_id, w.catalog, 'completado',
             md5('bench-watch-key-' || w.id || '-' || r), md5('bench-watch-list-' || w.id), w.total_entries,
             w.created_at + (r - 1) * case w.schedule when 'mensual' then interval '30 days' else interval '7 days' end,
             w.created_at + (r - 1) * case w.schedule when 'mensual' then interval '30 days' else interval '7 days' end + interval '1 hour',
             w.id, r,
             w.created_at + (r - 1) * case w.schedule when 'mensual' then interval '30 days' else interval '7 days' end + interval '1 hour',
             w.total_entries * 9 / 10, w.total_entries / 20, w.total_entries - w.total_entries * 9 / 10 - w.total_entries / 20,
             (w.total_entries * 9 / 10)::bigint * i.tariff_centavos
        from watch_lists w join integrations i on i.id = w.integration_id, generate_series(1, w.runs) r`);
    const before = seal(JSON.stringify({ tieneIncumplimientos: false, tieneProcesoCoactivo: false, estadoContribuyente: 'ACTIVO' }), 'watch_snapshot');
    const after = seal(JSON.stringify({ tieneIncumplimientos: true, tieneProcesoCoactivo: false, estadoContribuyente: 'ACTIVO' }), 'watch_snapshot');
    await handle.rows(sql`
      insert into watch_list_changes (watch_list_id, run, position, kind, job_public_id, before_sealed, after_sealed, detected_at)
      select j.watch_list_id, j.watch_list_run, p, case when j.catalog = 'omisos' then 'omiso' else 'estado_rtu' end,
             j.public_id, ${before}::text, ${after}::text, j.finished_at
        from bulk_jobs j, generate_series(0, (j.total_items / 100) - 1) p
       where j.watch_list_id is not null and j.watch_list_run > 1`);
    await run(`
      update watch_lists w set changes_total = c.n
        from (select watch_list_id, count(*)::int as n from watch_list_changes group by 1) c where c.watch_list_id = w.id`);
    await run('drop table bench_watch_owners');
    await run('vacuum analyze watch_lists, watch_list_changes, bulk_jobs');
    log(`  done (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const [sizes] = await run(`
    select (select count(*) from watch_lists) as lists,
           (select count(*) from watch_lists where integration_id = ${largestIntegrationId}::integer) as largest`);
  return { lists: Number(sizes!.lists), largestIntegrationLists: Number(sizes!.largest) };
}
