import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { database, rowsIn } from '@/db/client';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';

// What is kept of a receipt, and for how long (docs/constancias.md, "What we keep"; docs/decisions.md,
// "Constancias: what is kept"). Its text (the identifiers and the registry's answer) goes with the
// query records; the row that ties it to its integration and request, with the integration's proof
// retention (5 to 15 years). The log's leaf, a hash of a signed text nobody can forge again, stays:
// the log is append-only. An integration under legal hold loses neither until the hold is lifted.
// Each purge leaves in the audit log how many, which leaves, and a digest of what went.

const RETENTION_ACTOR: Actor = { kind: 'system', name: 'retention' };

export interface ConstanciaPurge {
  /** Receipts whose text was dropped (past the records' retention). */
  textsPurged: number;
  /** Receipts whose row was deleted (past their integration's proof retention). */
  proofsPurged: number;
}

export interface ConstanciaPurgeOptions {
  /** Receipts per statement (and per audit entry); PURGE_BATCH_ROWS by default. */
  batchRows?: number;
  /** Pause between batches, so the purge never competes for long with live traffic. */
  pauseMs?: number;
}

/** As the query records' purge (lib/flows/retention/purge.ts): short statements, a few thousand rows each. */
const PURGE_BATCH_ROWS = 5_000;

type Purged = { integration_id: number; id: string; leaf_index: string | number; leaf_hash: string };

/**
 * Drops what is past its retention: texts issued before `recordsKeptFrom`, rows past each
 * integration's years. One integration at a time, oldest first, in batches: a month of a large
 * integration's receipts is millions of rows, which one statement would hold locked and bring back
 * whole. Each batch is its own transaction with its proof of deletion, and reads through an index
 * only the receipts it may purge (constancias_text_kept, constancias_integration_issued). A legal
 * hold set meanwhile stops the integration's next batch.
 */
export async function purgeExpiredConstancias(recordsKeptFrom: Date, now: Date = new Date(), options: ConstanciaPurgeOptions = {}): Promise<ConstanciaPurge> {
  const handle = await database();
  const batchRows = options.batchRows ?? PURGE_BATCH_ROWS;
  const holders = await handle.rows<{ id: number }>(sql`
    select i.id from integrations i
     where not i.constancias_legal_hold and exists (select 1 from constancias c where c.integration_id = i.id)
     order by i.id`);
  const purged: ConstanciaPurge = { textsPurged: 0, proofsPurged: 0 };
  for (const { id } of holders) {
    purged.textsPurged += await inBatches(batchRows, options.pauseMs, 'constancia.text_purged', { hasta: recordsKeptFrom.toISOString() }, sql`
      with batch as (
        select c.id from constancias c
         where c.integration_id = ${id} and c.receipt_sealed is not null and c.issued_at < ${recordsKeptFrom.toISOString()}::timestamptz
           and exists (select 1 from integrations i where i.id = ${id} and not i.constancias_legal_hold)
         order by c.issued_at
         limit ${batchRows}::integer
      )
      update constancias c set receipt_sealed = null
        from batch, constancia_log_leaves l
       where c.id = batch.id and l.leaf_index = c.leaf_index
      returning c.integration_id, c.id, c.leaf_index, l.leaf_hash`);
    purged.proofsPurged += await inBatches(batchRows, options.pauseMs, 'constancia.proof_purged', {}, sql`
      with batch as (
        select c.id from constancias c, integrations i
         where c.integration_id = ${id} and i.id = ${id} and not i.constancias_legal_hold
           and c.issued_at < ${now.toISOString()}::timestamptz - make_interval(years => i.constancia_retention_years)
         order by c.issued_at
         limit ${batchRows}::integer
      )
      delete from constancias c
       using batch, constancia_log_leaves l
       where c.id = batch.id and l.leaf_index = c.leaf_index
      returning c.integration_id, c.id, c.leaf_index, l.leaf_hash`);
  }
  return purged;
}

/** Runs `batch` (one integration's next rows, at most batchRows) until it purges fewer, each with its audit entry; how many in all. */
async function inBatches(batchRows: number, pauseMs: number | undefined, action: string, extra: Record<string, unknown>, batch: SQL): Promise<number> {
  const handle = await database();
  let total = 0;
  for (;;) {
    const count = await handle.db.transaction(async (tx) => {
      const rows = await rowsIn<Purged>(tx, batch);
      for (const [integrationId, group] of byIntegration(rows)) {
        await writeAudit(tx, RETENTION_ACTOR, { action, targetType: 'integration', targetId: integrationId, before: null, after: proofOfDeletion(group, extra) });
      }
      return rows.length;
    });
    total += count;
    if (count < batchRows) return total;
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

function byIntegration(rows: Purged[]): Map<number, Purged[]> {
  const groups = new Map<number, Purged[]>();
  for (const row of rows) {
    const id = Number(row.integration_id);
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  return groups;
}

/**
 * What the audit keeps of a purge: how many, the leaves' range, and the SHA-256 of "id leaf hash"
 * lines in leaf order, which anyone holding a receipt can check it was among them (its id and its
 * leaf's hash are in it), while the entry holds nothing personal.
 */
function proofOfDeletion(rows: Purged[], extra: Record<string, unknown>): Record<string, unknown> {
  const sorted = [...rows].sort((a, b) => Number(a.leaf_index) - Number(b.leaf_index));
  const digest = createHash('sha256');
  for (const row of sorted) digest.update(`${row.id} ${row.leaf_index} ${row.leaf_hash}\n`);
  return {
    constancias: sorted.length,
    primeraHoja: Number(sorted[0]!.leaf_index),
    ultimaHoja: Number(sorted.at(-1)!.leaf_index),
    sha256: digest.digest('hex'),
    ...extra,
  };
}
