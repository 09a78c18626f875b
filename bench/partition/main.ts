// npm run bench:partition -- --url postgres://…/partition_rehearsal [--batch 50000] [--readers 4] [--writers 2]
//   Rehearses the online partitioning of query records (docs/deploy.md, "Partitioned query records")
//   on a database an older release filled (bench/partition/seed.ts: the console benchmark's volume,
//   migrations up to 0060): applies the migrations (0066 leaves a large table unpartitioned), then
//   runs `records:partition`'s conversion while lookups by request id and record writes go on through
//   the product's own code, and prints its time, the longest lock it held and the lookups' latency,
//   the longest during the swap. Asserts that no record was lost.
import { benchArguments } from '../arguments';
import { percentile } from '../stats';

const { values } = benchArguments('npm run bench:partition', import.meta.filename, {
  options: {
    url: { type: 'string' },
    batch: { type: 'string', default: '50000' },
    readers: { type: 'string', default: '4' },
    writers: { type: 'string', default: '2' },
  },
});

interface Operation {
  kind: 'lookup' | 'write';
  startedAt: number;
  ms: number;
  failed?: string;
}

const log = (line: string) => console.log(`[bench:partition] ${line}`);

async function main(): Promise<void> {
  if (!values.url) throw new Error('--url is required');
  process.env.DATABASE_URL = values.url;
  process.env.PERSONAL_DATA_KEY = Buffer.alloc(32, 'bench personal-data key').toString('base64');
  process.env.PERSONAL_DATA_SEARCH_KEY = Buffer.alloc(32, 'bench personal-data search key').toString('base64');
  const { sql } = await import('drizzle-orm');
  const { database, closeDatabase } = await import('@/db/client');
  const { applyMigrations } = await import('@/db/migrate');
  const { recordIdForRequestId } = await import('@/lib/core/request-ids/search');
  const { recordUnbilledQuery } = await import('@/lib/core/records/write');
  const { partitionRecordsOnline } = await import('@/lib/core/records/partition-online');
  const { recordsArePartitioned } = await import('@/lib/core/records/partitions');
  const handle = await database();
  const count = async (text: string) => Number((await handle.rows<{ n: string }>(sql.raw(text)))[0]!.n);

  const migrateStarted = performance.now();
  await applyMigrations(handle);
  log(`migrations applied in ${((performance.now() - migrateStarted) / 1000).toFixed(1)} s; partitioned: ${await recordsArePartitioned()}`);
  const before = await count('select count(*) as n from query_records');
  const maxBench = await count(`select count(*) as n from query_records where request_id like 'req_bench_%'`);
  const [integration] = await handle.rows<{ id: number }>(sql`select id from integrations order by id limit 1`);
  log(`${before.toLocaleString('en-US')} records before; load: ${values.readers} lookup loops by request id, ${values.writers} record-writing loops`);

  const operations: Operation[] = [];
  let running = true;
  let written = 0;
  const timed = async (kind: Operation['kind'], fn: () => Promise<unknown>) => {
    const startedAt = performance.now();
    try {
      await fn();
      operations.push({ kind, startedAt, ms: performance.now() - startedAt });
    } catch (error) {
      operations.push({ kind, startedAt, ms: performance.now() - startedAt, failed: (error as Error).message });
    }
  };
  const readers = Array.from({ length: Number(values.readers) }, async () => {
    while (running) {
      const requestId = `req_bench_${Math.floor(Math.random() * maxBench)}`;
      await timed('lookup', async () => {
        if ((await recordIdForRequestId(requestId)) === undefined) throw new Error(`${requestId} not found`);
      });
    }
  });
  const writers = Array.from({ length: Number(values.writers) }, async (_, writer) => {
    while (running) {
      const requestId = `req_rehearsal_${writer}_${written++}`;
      await timed('write', () =>
        recordUnbilledQuery({ integrationId: integration!.id, lookup: 'renap', httpStatus: 200, responseTimeMs: 100, nit: null, cui: '1587 56444 0904', errorMessage: null, requestId }),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const conversionStarted = performance.now();
  let lastReport = 0;
  const result = await partitionRecordsOnline({
    batchRows: Number(values.batch),
    onProgress: ({ copiedUpToId, batches, elapsedMs }) => {
      if (elapsedMs - lastReport < 30_000) return;
      lastReport = elapsedMs;
      log(`  copied up to id ${copiedUpToId.toLocaleString('en-US')} (${batches} batches, ${(elapsedMs / 1000).toFixed(0)} s)`);
    },
  });
  const conversionEnded = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  running = false;
  await Promise.all([...readers, ...writers]);
  if (result.kind !== 'partitioned') throw new Error(`conversion: ${result.kind}`);

  const after = await count('select count(*) as n from query_records');
  const writes = operations.filter((operation) => operation.kind === 'write' && !operation.failed).length;
  const failures = operations.filter((operation) => operation.failed);
  await applyMigrations(handle);

  const switchEnd = performance.now() - (Date.now() - result.switchedAt.getTime());
  const switchStart = switchEnd - result.switchMs;
  const overlaps = (operation: Operation) => operation.startedAt <= switchEnd && operation.startedAt + operation.ms >= switchStart;
  const summary = (kind: Operation['kind'], within: (operation: Operation) => boolean) => {
    const sorted = operations.filter((operation) => operation.kind === kind && within(operation)).map((operation) => operation.ms).sort((a, b) => a - b);
    return `${sorted.length.toLocaleString('en-US')} ${kind}s, p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
  };
  const during = (operation: Operation) => operation.startedAt >= conversionStarted && operation.startedAt <= conversionEnded;
  console.log('');
  log(`records: ${before.toLocaleString('en-US')} before, ${writes.toLocaleString('en-US')} written during, ${after.toLocaleString('en-US')} after (${after === before + writes ? 'none lost' : 'MISMATCH'})`);
  log(`conversion: ${(result.totalMs / 1000).toFixed(1)} s in all — prepare ${(result.prepareMs / 1000).toFixed(1)} s, copy ${((result.copyMs - result.prepareMs) / 1000).toFixed(1)} s in ${result.batches} batches, analyze ${(result.analyzeMs / 1000).toFixed(1)} s, swap ${result.switchMs.toFixed(0)} ms (attempt ${result.switchAttempts}), old tables dropped`);
  log(`longest exclusive lock: the swap, ${result.switchMs.toFixed(0)} ms (the prepare's triggers took SHARE ROW EXCLUSIVE within its ${(result.prepareMs / 1000).toFixed(1)} s)`);
  log(`during the conversion: ${summary('lookup', during)}; ${summary('write', during)}`);
  log(`overlapping the swap:   ${summary('lookup', overlaps)}; ${summary('write', overlaps)}`);
  log(`failed operations: ${failures.length}${failures.length ? ` (first: ${failures[0]!.failed})` : ''}`);
  await closeDatabase();
  if (after !== before + writes || failures.length > 0) process.exitCode = 1;
}

await main();
