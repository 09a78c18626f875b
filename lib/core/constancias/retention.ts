import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
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

type Purged = { integration_id: number; id: string; leaf_index: string | number; leaf_hash: string };

/** Drops what is past its retention: texts issued before `recordsKeptFrom`, rows past each integration's years. */
export async function purgeExpiredConstancias(recordsKeptFrom: Date, now: Date = new Date()): Promise<ConstanciaPurge> {
  const handle = await database();
  const texts = await handle.db.transaction(async (tx) => {
    const purged = await rowsIn<Purged>(tx, sql`
      update constancias c set receipt_sealed = null
        from integrations i, constancia_log_leaves l
       where i.id = c.integration_id and l.leaf_index = c.leaf_index
         and not i.constancias_legal_hold
         and c.receipt_sealed is not null and c.issued_at < ${recordsKeptFrom.toISOString()}::timestamptz
      returning c.integration_id, c.id, c.leaf_index, l.leaf_hash`);
    for (const [integrationId, group] of byIntegration(purged)) {
      await writeAudit(tx, RETENTION_ACTOR, { action: 'constancia.text_purged', targetType: 'integration', targetId: integrationId, before: null, after: proofOfDeletion(group, { hasta: recordsKeptFrom.toISOString() }) });
    }
    return purged.length;
  });
  const proofs = await handle.db.transaction(async (tx) => {
    const purged = await rowsIn<Purged>(tx, sql`
      delete from constancias c
       using integrations i, constancia_log_leaves l
       where i.id = c.integration_id and l.leaf_index = c.leaf_index
         and not i.constancias_legal_hold
         and c.issued_at < ${now.toISOString()}::timestamptz - make_interval(years => i.constancia_retention_years)
      returning c.integration_id, c.id, c.leaf_index, l.leaf_hash`);
    for (const [integrationId, group] of byIntegration(purged)) {
      await writeAudit(tx, RETENTION_ACTOR, { action: 'constancia.proof_purged', targetType: 'integration', targetId: integrationId, before: null, after: proofOfDeletion(group, {}) });
    }
    return purged.length;
  });
  return { textsPurged: texts, proofsPurged: proofs };
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
