import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import { open, seal, sealedKeyId, type SealedPurpose } from '@/lib/core/sealing/envelope';
import { personalDataKeys, type PersonalDataKeyring } from '@/lib/core/sealing/keys';

// The other tables that keep personal data sealed with PERSONAL_DATA_KEY for longer than a rotation
// can wait: a bulk job's items (30 days after the job ends) and a watch list's entries and changes
// (as long as the list exists), and beside them the two secrets sealed with the same key, an
// integration's webhook signing secret (kept until the webhook is changed) and its identity
// provider's client secret (kept until its owners change it). `personal-data:reseal`
// rewrites them after the query records, so emptying PERSONAL_DATA_PREVIOUS_KEYS leaves nothing
// they need unreadable. Not here:
// idempotency_keys and identifier_searches, which expire within 24 hours and an hour.

interface SealedColumn {
  name: string;
  /** The purpose the writers seal it with (lib/flows/bulk, lib/flows/watch-lists): GCM's additional data. */
  purpose: SealedPurpose;
}

interface SealedTable {
  name: SealedTableName;
  /** The primary key, in its index's order, with each column's SQL type. */
  key: { name: string; type: 'integer' | 'text' }[];
  columns: SealedColumn[];
}

export type SealedTableName = 'bulk_job_items' | 'watch_list_entries' | 'watch_list_changes' | 'integrations' | 'integration_identity_providers' | 'constancias';

export const SEALED_TABLES: readonly SealedTable[] = [
  {
    name: 'bulk_job_items',
    key: [
      { name: 'job_id', type: 'integer' },
      { name: 'position', type: 'integer' },
    ],
    columns: [
      { name: 'identifier_sealed', purpose: 'bulk_identifier' },
      { name: 'result_sealed', purpose: 'bulk_result' },
    ],
  },
  {
    name: 'watch_list_entries',
    key: [
      { name: 'watch_list_id', type: 'integer' },
      { name: 'position', type: 'integer' },
    ],
    // A list's NITs are sealed as a job's items are (a run copies them into its items as they are).
    columns: [
      { name: 'identifier_sealed', purpose: 'bulk_identifier' },
      { name: 'snapshot_sealed', purpose: 'watch_snapshot' },
    ],
  },
  {
    name: 'watch_list_changes',
    key: [
      { name: 'watch_list_id', type: 'integer' },
      { name: 'run', type: 'integer' },
      { name: 'position', type: 'integer' },
      { name: 'kind', type: 'text' },
    ],
    columns: [
      { name: 'before_sealed', purpose: 'watch_snapshot' },
      { name: 'after_sealed', purpose: 'watch_snapshot' },
    ],
  },
  {
    // Not personal data, but sealed with its key: without it, every webhook notice fails to sign.
    name: 'integrations',
    key: [{ name: 'id', type: 'integer' }],
    columns: [{ name: 'notification_webhook_secret_sealed', purpose: 'webhook_secret' }],
  },
  {
    // Not personal data either: an integration's client secret at its own identity provider
    // (lib/flows/portal-identity/identity-provider.ts), kept until its owners change it. Without
    // it, no member of the integration signs in through the provider.
    name: 'integration_identity_providers',
    key: [{ name: 'integration_id', type: 'integer' }],
    columns: [{ name: 'client_secret_sealed', purpose: 'identity_provider_client_secret' }],
  },
  {
    // Constancias de consulta (lib/core/constancias): the signed receipt, kept as long as the records.
    name: 'constancias',
    key: [{ name: 'id', type: 'text' }],
    columns: [{ name: 'receipt_sealed', purpose: 'constancia' }],
  },
];

/** Rows rewritten per table. */
export type SealedTablesResealed = Record<SealedTableName, number>;

export interface SealedTablesOptions {
  batchRows: number;
  pauseMs?: number;
  onBatch?: (table: SealedTableName, resealed: number) => void;
}

const ident = (name: string): SQL => sql.raw(`"${name}"`);

/**
 * Rewrites, under the current PERSONAL_DATA_KEY and with the same purpose, every value of these
 * tables sealed under another key (a previous one; a value under a key no longer configured stops the
 * pass, naming it, as for the records). Values already under the current key are not touched.
 *
 * Each table is read once in its primary key's order, a batch of rows at a time, and each batch is
 * rewritten by one statement (one short transaction). Not resumable: simply idempotent. Run again,
 * it reads the tables again and rewrites only what is still under a previous key.
 *
 * A column is replaced only if it still holds the value read: a run that wrote a new snapshot, or the
 * runner that answered an item meanwhile (both under the current key), keeps its value.
 */
export async function resealSealedTables(options: SealedTablesOptions, keys: PersonalDataKeyring = personalDataKeys()): Promise<SealedTablesResealed> {
  const resealed: SealedTablesResealed = { bulk_job_items: 0, watch_list_entries: 0, watch_list_changes: 0, integrations: 0, integration_identity_providers: 0, constancias: 0 };
  for (const table of SEALED_TABLES) resealed[table.name] = await resealTable(table, options, keys);
  return resealed;
}

async function resealTable(table: SealedTable, options: SealedTablesOptions, keys: PersonalDataKeyring): Promise<number> {
  const handle = await database();
  const keyList = sql.join(
    table.key.map((column) => ident(column.name)),
    sql`, `,
  );
  const columnList = sql.join(
    table.columns.map((column) => ident(column.name)),
    sql`, `,
  );
  // A value not under the current key: a previous key's, or (never written so, but harmless) clear.
  const stale = sql.join(
    table.columns.map((column) => sql`(${ident(column.name)} is not null and split_part(${ident(column.name)}, ':', 2) <> ${keys.encryption.id}::text)`),
    sql` or `,
  );
  const recordColumns = sql.raw(
    [...table.key.map((column) => `"${column.name}" ${column.type}`), ...table.columns.flatMap((_, index) => [`o${index} text`, `n${index} text`])].join(', '),
  );
  const assignments = sql.join(
    table.columns.map((column, index) => {
      const name = ident(column.name);
      return sql`${name} = case when t.${name} is not distinct from c.${sql.raw(`o${index}`)} then c.${sql.raw(`n${index}`)} else t.${name} end`;
    }),
    sql`, `,
  );
  const sameRow = sql.join(
    table.key.map((column) => sql`t.${ident(column.name)} = c.${ident(column.name)}`),
    sql` and `,
  );

  let after: (string | number)[] | null = null;
  let rewritten = 0;
  for (;;) {
    const from: SQL =
      after === null
        ? sql``
        : sql`and (${keyList}) > (${sql.join(
            table.key.map((column, index) => (column.type === 'integer' ? sql`${Number(after![index])}::integer` : sql`${String(after![index])}::text`)),
            sql`, `,
          )})`;
    const rows = await handle.rows<Record<string, string | number | null>>(sql`
      select ${keyList}, ${columnList} from ${ident(table.name)}
       where (${stale}) ${from}
       order by ${keyList} limit ${options.batchRows}::integer`);
    if (rows.length === 0) return rewritten;
    const changes = rows.map((row) => {
      const change: Record<string, string | number | null> = {};
      for (const column of table.key) change[column.name] = row[column.name] ?? null;
      table.columns.forEach((column, index) => {
        const stored = (row[column.name] ?? null) as string | null;
        const current = stored === null || sealedKeyId(stored) === keys.encryption.id;
        change[`o${index}`] = stored;
        change[`n${index}`] = current ? stored : seal(open(stored, column.purpose, keys), column.purpose, keys);
      });
      return change;
    });
    // One statement per batch. A row deleted meanwhile (a job purged, a list deleted) is not updated.
    await handle.rows(sql`
      update ${ident(table.name)} t set ${assignments}
        from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as c(${recordColumns})
       where ${sameRow}`);
    rewritten += rows.length;
    const last = rows.at(-1)!;
    after = table.key.map((column) => last[column.name] as string | number);
    options.onBatch?.(table.name, rewritten);
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
}
