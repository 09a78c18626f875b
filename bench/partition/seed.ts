// Seeds a database at a given migration with the console benchmark's volume (bench/console/volume.ts):
// the "existing deployment" the partitioning rehearsal starts from.
//   tsx bench/partition/seed.ts --url postgres://…/db --records 10000000 --upto 0060_invoice_reversal_standing
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string' }, records: { type: 'string', default: '10000000' }, upto: { type: 'string' } } });

/** A copy of db/migrations holding only the migrations up to `upto` (included). */
export function migrationsUpTo(upto: string): string {
  const source = path.join(process.cwd(), 'db', 'migrations');
  const target = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-migrations-'));
  fs.mkdirSync(path.join(target, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(source, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === upto);
  if (last < 0) throw new Error(`no migration ${upto}`);
  journal.entries = journal.entries.slice(0, last + 1);
  for (const entry of journal.entries) fs.copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(target, `${entry.tag}.sql`));
  fs.writeFileSync(path.join(target, 'meta', '_journal.json'), JSON.stringify(journal));
  return target;
}

async function main(): Promise<void> {
  if (!values.url || !values.upto) throw new Error('--url and --upto are required');
  process.env.DATABASE_URL = values.url;
  process.env.PERSONAL_DATA_KEY = Buffer.alloc(32, 'bench personal-data key').toString('base64');
  process.env.PERSONAL_DATA_SEARCH_KEY = Buffer.alloc(32, 'bench personal-data search key').toString('base64');
  const { database, closeDatabase } = await import('@/db/client');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const postgres = (await import('postgres')).default;
  const connection = postgres(values.url, { max: 1, onnotice: () => {} });
  await migrate(drizzle(connection), { migrationsFolder: migrationsUpTo(values.upto) });
  await connection.end();
  const { generateVolume } = await import('../console/volume');
  const started = performance.now();
  const summary = await generateVolume(await database(), {
    records: Number(values.records),
    ledgerEntries: 2 * Number(values.records),
    integrations: 200,
    days: 90,
    now: new Date(),
    log: (line) => console.log(`[seed] ${line}`),
  });
  console.log(`[seed] ${JSON.stringify(summary)} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  await closeDatabase();
}

if (process.argv[1]?.endsWith('seed.ts')) await main();
