import { sql } from 'drizzle-orm';
import { database, type DatabaseHandle } from '@/db/client';
import { open } from '@/lib/core/sealing/envelope';
import {
  alignedSubtrees,
  consistencyProof,
  hashUpToFoldedSubtree,
  inclusionProof,
  leafHash,
  nodeKeyString,
  nodesCompletedByAppending,
  rootAt,
  RootBuilder,
  withStoredNodes,
  type NodeKey,
  type NodeReader,
} from '@/lib/platform/transparency/merkle';
import { constanciaSigner } from './keys';
import { HEAD_TYPE, holeEntry, logAddress, type HeadPayload } from './payload';
import { receiptFromStored } from './stored-receipt';

// The constancias' append-only log (RFC 9162 hashing): receipts take their indexes as they are
// issued; the sequencer (one instance at a time, a periodic job) appends the leaves written since
// the last head to the stored tree, fills the holes an instance left behind, checks the stored log
// still hashes to the last head it signed (its subtrees every run, its leaves a window a run), and
// signs a new head.

/** How long an index may stay unwritten before the sequencer declares it a hole. */
export const HOLE_AFTER_MS = 30_000;
/** The most leaves one run appends; the rest wait for the next. */
const LEAVES_PER_RUN = 50_000;
/** The leaves (with their receipts) one page of the sequencer reads. */
const SEQUENCE_PAGE = 1_000;
/** The leaves the audit reads at once. */
const AUDIT_PAGE = 10_000;
/**
 * The stored leaves one run checks against the last head, the window after the last run's: a log of
 * n leaves is checked whole every n / AUDIT_LEAVES_PER_RUN runs, at a cost per run that does not
 * grow with the log (reading every leaf each run took seconds a run at a few million receipts).
 */
export const AUDIT_LEAVES_PER_RUN = 65_536;

export interface SignedHead {
  treeSize: number;
  rootHash: string;
  signedAt: Date;
  signedHead: string;
  timestampReply: string | null;
  timestampedAt: Date | null;
}

export type SequencerRun =
  | { kind: 'unchanged'; treeSize: number }
  | { kind: 'signed'; head: SignedHead; appended: number; holes: number }
  /** The stored log no longer hashes to a head it signed, or a leaf no longer matches its receipt: nothing is signed. */
  | { kind: 'tampered'; treeSize: number; detail: string };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

type HeadRow = { tree_size: string | number; root_hash: string; signed_at: Date | string; signed_head: string; timestamp_reply: string | null; timestamped_at: Date | string | null };

function toHead(row: HeadRow): SignedHead {
  return {
    treeSize: Number(row.tree_size),
    rootHash: row.root_hash,
    signedAt: new Date(row.signed_at),
    signedHead: row.signed_head,
    timestampReply: row.timestamp_reply,
    timestampedAt: row.timestamped_at === null ? null : new Date(row.timestamped_at),
  };
}

const HEAD_COLUMNS = sql`tree_size, root_hash, signed_at, signed_head, timestamp_reply, timestamped_at`;

export async function latestHead(): Promise<SignedHead | null> {
  const handle = await database();
  const [row] = await handle.rows<HeadRow>(sql`select ${HEAD_COLUMNS} from constancia_log_heads order by tree_size desc limit 1`);
  return row ? toHead(row) : null;
}

export async function headOfSize(treeSize: number): Promise<SignedHead | null> {
  const handle = await database();
  const [row] = await handle.rows<HeadRow>(sql`select ${HEAD_COLUMNS} from constancia_log_heads where tree_size = ${treeSize}`);
  return row ? toHead(row) : null;
}

/** The newest head that carries a time stamp. */
export async function latestTimestampedHead(): Promise<SignedHead | null> {
  const handle = await database();
  const [row] = await handle.rows<HeadRow>(sql`select ${HEAD_COLUMNS} from constancia_log_heads where timestamp_reply is not null order by tree_size desc limit 1`);
  return row ? toHead(row) : null;
}

/** Every stored node a computation asks for (leaves and perfect subtrees), read in one statement per kind. */
function storedNodes(handle: DatabaseHandle) {
  return async (keys: NodeKey[]): Promise<Map<string, Uint8Array>> => {
    const found = new Map<string, Uint8Array>();
    const leaves = keys.filter((key) => key.level === 0).map((key) => key.position);
    const inner = keys.filter((key) => key.level > 0);
    if (leaves.length > 0) {
      const rows = await handle.rows<{ leaf_index: string | number; leaf_hash: string }>(
        sql`select leaf_index, leaf_hash from constancia_log_leaves where leaf_index in (${sql.join(leaves.map((index) => sql`${index}`), sql`, `)})`,
      );
      for (const row of rows) found.set(nodeKeyString(0, Number(row.leaf_index)), bytes(row.leaf_hash));
    }
    if (inner.length > 0) {
      const rows = await handle.rows<{ level: number; position: string | number; hash: string }>(
        sql`select level, position, hash from constancia_log_nodes where (level, position) in (${sql.join(
          inner.map((key) => sql`(${key.level}::smallint, ${key.position}::bigint)`),
          sql`, `,
        )})`,
      );
      for (const row of rows) found.set(nodeKeyString(Number(row.level), Number(row.position)), bytes(row.hash));
    }
    return found;
  };
}

/** The inclusion proof of a leaf in the tree of `treeSize` leaves (RFC 9162 §2.1.3), hex. */
export async function inclusionProofOf(leafIndex: number, treeSize: number): Promise<string[]> {
  const handle = await database();
  const proof = await withStoredNodes((read) => inclusionProof(leafIndex, treeSize, read), storedNodes(handle));
  return proof.map(hex);
}

/** The consistency proof between two sizes (RFC 9162 §2.1.4), hex. */
export async function consistencyProofOf(oldSize: number, newSize: number): Promise<string[]> {
  const handle = await database();
  const proof = await withStoredNodes((read) => consistencyProof(oldSize, newSize, read), storedNodes(handle));
  return proof.map(hex);
}

/** The index of a leaf by its hash (hex), if the log holds it. */
export async function leafIndexOfHash(hash: string): Promise<number | null> {
  const handle = await database();
  const [row] = await handle.rows<{ leaf_index: string | number }>(sql`select leaf_index from constancia_log_leaves where leaf_hash = ${hash} order by leaf_index limit 1`);
  return row ? Number(row.leaf_index) : null;
}

/**
 * One run of the sequencer: fills holes, appends the leaves written since the last head, checks the
 * log against its last head and the new leaves against their receipts, and signs the new head.
 */
export async function sequenceLog(now: Date = new Date(), options: { auditLeavesPerRun?: number } = {}): Promise<SequencerRun> {
  const handle = await database();
  const previous = await latestHead();
  const size = previous?.treeSize ?? 0;
  const holes = await fillHoles(handle, size, now);

  const audit = await auditStoredLog(handle, previous, options.auditLeavesPerRun ?? AUDIT_LEAVES_PER_RUN, now);
  if (audit) return { kind: 'tampered', treeSize: size, detail: audit };

  const appended: Uint8Array[] = [];
  // A page at a time: each leaf's receipt is opened and hashed, and only its 32 bytes are kept.
  while (appended.length < LEAVES_PER_RUN) {
    const from = size + appended.length;
    const rows = await handle.rows<{ leaf_index: string | number; leaf_hash: string; hole: boolean; receipt_sealed: string | null }>(sql`
      select l.leaf_index, l.leaf_hash, l.hole, c.receipt_sealed
        from constancia_log_leaves l left join constancias c on c.leaf_index = l.leaf_index
       where l.leaf_index >= ${from}
       order by l.leaf_index
       limit ${Math.min(SEQUENCE_PAGE, LEAVES_PER_RUN - appended.length)}`);
    let contiguous = true;
    for (const row of rows) {
      const index = Number(row.leaf_index);
      if (index !== size + appended.length) {
        contiguous = false;
        break;
      }
      const entry = row.hole ? holeEntry(index) : row.receipt_sealed === null ? null : new TextEncoder().encode(receiptFromStored(open(row.receipt_sealed, 'constancia')));
      // A leaf is appended only once its entry is written: the receipt's row commits with its leaf.
      if (entry === null) {
        contiguous = false;
        break;
      }
      if (hex(leafHash(entry)) !== row.leaf_hash) return { kind: 'tampered', treeSize: size, detail: `leaf ${index} does not hash its receipt` };
      appended.push(bytes(row.leaf_hash));
    }
    if (!contiguous || rows.length < SEQUENCE_PAGE) break;
  }
  if (appended.length === 0) return { kind: 'unchanged', treeSize: size };

  const nodes = await withStoredNodes((read) => nodesCompletedByAppending(size, appended, read), storedNodes(handle));
  const inner = nodes.filter((node) => node.level > 0);
  const newSize = size + appended.length;
  const fresh = new Map(nodes.map((node) => [nodeKeyString(node.level, node.position), node.hash]));
  const root = await withStoredNodes((read) => rootAt(newSize, overlaid(read, fresh)), async (keys) => {
    const missing = keys.filter((key) => !fresh.has(nodeKeyString(key.level, key.position)));
    return storedNodes(handle)(missing);
  });
  const signer = await constanciaSigner(now);
  const payload: HeadPayload = { tipo: HEAD_TYPE, registro: logAddress(), tamano: newSize, raizSha256: hex(root), emitidaEn: now.toISOString() };
  const signedHead = await signer.sign(payload, HEAD_TYPE);
  await handle.db.transaction(async (tx) => {
    for (let start = 0; start < inner.length; start += 1_000) {
      const batch = inner.slice(start, start + 1_000);
      await tx.execute(sql`insert into constancia_log_nodes (level, position, hash) values ${sql.join(
        batch.map((node) => sql`(${node.level}, ${node.position}, ${hex(node.hash)})`),
        sql`, `,
      )} on conflict (level, position) do nothing`);
    }
    await tx.execute(sql`insert into constancia_log_heads (tree_size, root_hash, signed_at, key_id, signed_head)
      values (${newSize}, ${hex(root)}, ${now.toISOString()}::timestamptz, ${signer.keyId}, ${signedHead})`);
  });
  const head = await headOfSize(newSize);
  return { kind: 'signed', head: head!, appended: appended.length, holes };
}

/** A reader that prefers the nodes just computed (not stored yet) to the stored ones. */
function overlaid(read: NodeReader, fresh: Map<string, Uint8Array>): NodeReader {
  return (level, position) => fresh.get(nodeKeyString(level, position)) ?? read(level, position);
}

/**
 * Writes a hole at every index from `size` on that no receipt took and that a later receipt, older
 * than HOLE_AFTER_MS, has passed: the instance that took it is gone. The leaf's primary key decides
 * should that receipt come after all: it then fails, and its lookup answers without a receipt.
 */
async function fillHoles(handle: DatabaseHandle, size: number, now: Date): Promise<number> {
  const before = new Date(now.getTime() - HOLE_AFTER_MS).toISOString();
  const rows = await handle.rows<{ leaf_index: string | number }>(sql`
    with passed as (
      select max(leaf_index) as last from constancia_log_leaves where leaf_index >= ${size} and created_at < ${before}::timestamptz
    )
    select candidate as leaf_index
      from passed, generate_series(${size}::bigint, passed.last) as candidate
     where passed.last is not null
       and not exists (select 1 from constancia_log_leaves l where l.leaf_index = candidate)
     limit ${LEAVES_PER_RUN}`);
  for (const row of rows) {
    const index = Number(row.leaf_index);
    await handle.rows(
      sql`insert into constancia_log_leaves (leaf_index, leaf_hash, hole) values (${index}, ${hex(leafHash(holeEntry(index)))}, true) on conflict (leaf_index) do nothing`,
    );
  }
  return rows.length;
}

export interface LogAudit {
  /** The first leaf the next run checks. */
  nextLeaf: number;
  /** When the last check of the whole log ended, and the size of the head it was checked against. */
  passCompletedAt: Date | null;
  passTreeSize: number | null;
}

/** Where the audit of the stored leaves stands. */
export async function logAudit(): Promise<LogAudit> {
  const handle = await database();
  const [row] = await handle.rows<{ next_leaf: string | number; pass_completed_at: Date | string | null; pass_tree_size: string | number | null }>(
    sql`select next_leaf, pass_completed_at, pass_tree_size from constancia_log_audit where id = 1`,
  );
  return {
    nextLeaf: Number(row?.next_leaf ?? 0),
    passCompletedAt: row?.pass_completed_at ? new Date(row.pass_completed_at) : null,
    passTreeSize: row?.pass_tree_size === null || row?.pass_tree_size === undefined ? null : Number(row.pass_tree_size),
  };
}

/**
 * Checks the stored log against the last head: the stored subtrees must hash to its root, every
 * run; and one window of its leaves, after the last run's, must hash to those subtrees (each perfect
 * subtree of the window recomputed from its leaves, then hashed up with its stored siblings to the
 * subtree the root is folded from). A leaf rewritten anywhere is caught within one pass. Null when
 * the log is as signed; the window then moves on.
 */
async function auditStoredLog(handle: DatabaseHandle, head: SignedHead | null, leavesPerRun: number, now: Date): Promise<string | null> {
  if (!head) return null;
  const stored = await withStoredNodes((read) => rootAt(head.treeSize, read), storedNodes(handle));
  if (hex(stored) !== head.rootHash) return `the stored subtrees no longer hash to the head of size ${head.treeSize}`;

  const { nextLeaf } = await logAudit();
  const start = nextLeaf < head.treeSize ? nextLeaf : 0;
  const end = Math.min(start + leavesPerRun, head.treeSize);
  let index = start;
  for (const subtree of alignedSubtrees(start, end)) {
    const builder = new RootBuilder();
    while (index < subtree.to) {
      const rows = await handle.rows<{ leaf_index: string | number; leaf_hash: string }>(sql`
        select leaf_index, leaf_hash from constancia_log_leaves
         where leaf_index >= ${index} and leaf_index < ${subtree.to}
         order by leaf_index limit ${AUDIT_PAGE}`);
      if (rows.length === 0) return `leaf ${index} is missing`;
      for (const row of rows) {
        if (Number(row.leaf_index) !== index) return `leaf ${index} is missing`;
        builder.push(bytes(row.leaf_hash));
        index += 1;
      }
    }
    const recomputed = { level: subtree.level, position: subtree.position, hash: builder.root() };
    const agrees = await withStoredNodes((read) => {
      const folded = hashUpToFoldedSubtree(recomputed, head.treeSize, read);
      return hex(folded.hash) === hex(read(folded.level, folded.position));
    }, storedNodes(handle));
    if (!agrees) return `the leaves ${subtree.from} to ${subtree.to - 1} no longer hash to the head of size ${head.treeSize}`;
  }
  const passEnded = end === head.treeSize;
  await handle.rows(sql`
    insert into constancia_log_audit (id, next_leaf, pass_completed_at, pass_tree_size)
    values (1, ${passEnded ? 0 : end}, ${passEnded ? now.toISOString() : null}::timestamptz, ${passEnded ? head.treeSize : null}::bigint)
    on conflict (id) do update set next_leaf = excluded.next_leaf,
      pass_completed_at = coalesce(excluded.pass_completed_at, constancia_log_audit.pass_completed_at),
      pass_tree_size = coalesce(excluded.pass_tree_size, constancia_log_audit.pass_tree_size)`);
  return null;
}

/** Keeps a time-stamping authority's reply over a head. */
export async function keepHeadTimestamp(treeSize: number, reply: Uint8Array, at: Date): Promise<void> {
  const handle = await database();
  await handle.rows(
    sql`update constancia_log_heads set timestamp_reply = ${Buffer.from(reply).toString('base64')}, timestamped_at = ${at.toISOString()}::timestamptz where tree_size = ${treeSize}`,
  );
}
