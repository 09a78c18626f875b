import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { open } from '@/lib/core/sealing/envelope';
import { leafHash, verifyInclusion } from '@/lib/platform/transparency/merkle';
import { verifyStatement, type PublishedKey } from '@/lib/platform/transparency/signing';
import { publishedConstanciaKeys } from './keys';
import { inclusionProofOf, latestHead, latestTimestampedHead, leafIndexOfHash, type SignedHead } from './log';
import { CONSTANCIA_TYPE, statementTime, type ConstanciaPayload } from './payload';
import { receiptFromStored } from './stored-receipt';

// What the API, the portal, the console and the public verification read of a receipt and of the
// log that holds it.

export interface StoredConstancia {
  id: string;
  integrationId: number;
  leafIndex: number;
  lookup: LookupKind;
  httpStatus: number;
  issuedAt: Date;
  keyId: string;
  /** The signed receipt; null once the records' retention passed (its leaf stays in the log). */
  receipt: string | null;
}

/** Where a receipt stands in the log: in a signed head (with its proof), and in a time-stamped one. */
export interface LogStanding {
  leafIndex: number;
  /** The newest head, when it holds the receipt. */
  head: { signedHead: string; treeSize: number; rootHash: string; proof: string[] } | null;
  /** The newest time-stamped head that holds it: the authority's reply over that head, and the proof. */
  timestamp: { signedHead: string; treeSize: number; proof: string[]; reply: string; at: Date } | null;
}

type ConstanciaRow = {
  id: string;
  integration_id: number;
  leaf_index: string | number;
  lookup: LookupKind;
  http_status: number;
  issued_at: Date | string;
  key_id: string;
  receipt_sealed: string | null;
};

/** A receipt by its id, for its integration only (another's is as unknown as a made-up id). */
export async function constanciaOfIntegration(integrationId: number, id: string): Promise<StoredConstancia | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const handle = await database();
  const [row] = await handle.rows<ConstanciaRow>(sql`
    select id, integration_id, leaf_index, lookup, http_status, issued_at, key_id, receipt_sealed
      from constancias where id = ${id} and integration_id = ${integrationId}`);
  return row ? toStored(row) : null;
}

/** A receipt by its id, whoever asked for it (support's console). */
export async function constanciaById(id: string): Promise<StoredConstancia | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const handle = await database();
  const [row] = await handle.rows<ConstanciaRow>(sql`
    select id, integration_id, leaf_index, lookup, http_status, issued_at, key_id, receipt_sealed from constancias where id = ${id}`);
  return row ? toStored(row) : null;
}

/** The receipt of a query, by its request id (a query has at most one); `integrationId` limits it to one integration's. */
export async function constanciaOfRequest(requestId: string, integrationId?: number): Promise<StoredConstancia | null> {
  const handle = await database();
  const [row] = await handle.rows<ConstanciaRow>(sql`
    select id, integration_id, leaf_index, lookup, http_status, issued_at, key_id, receipt_sealed from constancias
     where request_id = ${requestId} ${integrationId === undefined ? sql`` : sql`and integration_id = ${integrationId}`}`);
  return row ? toStored(row) : null;
}

/** The id of the receipt a request got, if any (its integration's own): a record names it. */
export async function constanciaIdOfRequest(requestId: string, integrationId: number): Promise<string | null> {
  const handle = await database();
  const [row] = await handle.rows<{ id: string }>(sql`select id from constancias where request_id = ${requestId} and integration_id = ${integrationId}`);
  return row?.id ?? null;
}

function toStored(row: ConstanciaRow): StoredConstancia {
  return {
    id: row.id,
    integrationId: Number(row.integration_id),
    leafIndex: Number(row.leaf_index),
    lookup: row.lookup,
    httpStatus: Number(row.http_status),
    issuedAt: new Date(row.issued_at),
    keyId: row.key_id,
    receipt: row.receipt_sealed === null ? null : receiptFromStored(open(row.receipt_sealed, 'constancia')),
  };
}

/** Where the leaf at `leafIndex` stands: its proofs against the newest head and the newest time-stamped one. */
export async function logStanding(leafIndex: number): Promise<LogStanding> {
  const [head, stamped] = await Promise.all([latestHead(), latestTimestampedHead()]);
  const within = (candidate: SignedHead | null) => candidate !== null && leafIndex < candidate.treeSize;
  return {
    leafIndex,
    head: head && within(head) ? { signedHead: head.signedHead, treeSize: head.treeSize, rootHash: head.rootHash, proof: await inclusionProofOf(leafIndex, head.treeSize) } : null,
    timestamp:
      stamped && within(stamped) && stamped.timestampReply && stamped.timestampedAt
        ? { signedHead: stamped.signedHead, treeSize: stamped.treeSize, proof: await inclusionProofOf(leafIndex, stamped.treeSize), reply: stamped.timestampReply, at: stamped.timestampedAt }
        : null,
  };
}

export type ConstanciaVerification =
  | { valid: false; problem: 'malformed' | 'unknown_key' | 'bad_signature' | 'outside_key_window' | 'not_a_constancia' | 'not_canonical' }
  | {
      valid: true;
      payload: ConstanciaPayload;
      key: PublishedKey;
      /** Whether the log holds this very receipt at the index it names. */
      inLog: 'included' | 'pending' | 'absent';
      standing: LogStanding | null;
    };

/**
 * Verifies a receipt as anyone would, from the published keys and the public log: its signature
 * and key window, its canonical form, and its leaf at the index it names.
 */
export async function verifyConstancia(jws: string): Promise<ConstanciaVerification> {
  const keys = await publishedConstanciaKeys();
  const checked = await verifyStatement(jws.trim(), keys, statementTime);
  if (!checked.valid) return { valid: false, problem: checked.problem };
  if (checked.typ !== CONSTANCIA_TYPE || !isConstanciaPayload(checked.payload)) return { valid: false, problem: 'not_a_constancia' };
  if (!checked.canonical) return { valid: false, problem: 'not_canonical' };
  const payload = checked.payload;
  const key = keys.find((candidate) => candidate.kid === checked.keyId)!;
  const hash = Buffer.from(leafHash(new TextEncoder().encode(jws.trim()))).toString('hex');
  const index = await leafIndexOfHash(hash);
  if (index === null || index !== payload.registro.indice) return { valid: true, payload, key, inLog: 'absent', standing: null };
  const standing = await logStanding(index);
  if (!standing.head) return { valid: true, payload, key, inLog: 'pending', standing };
  // The head logStanding read: its root, not a second read of the same row.
  const head = standing.head;
  const proven = verifyInclusion({
    leafHash: Buffer.from(hash, 'hex'),
    index,
    size: head.treeSize,
    proof: head.proof.map((node) => Buffer.from(node, 'hex')),
    root: Buffer.from(head.rootHash, 'hex'),
  });
  return { valid: true, payload, key, inLog: proven ? 'included' : 'absent', standing };
}

function isConstanciaPayload(payload: unknown): payload is ConstanciaPayload {
  if (typeof payload !== 'object' || payload === null) return false;
  const candidate = payload as Partial<ConstanciaPayload>;
  return (
    candidate.tipo === CONSTANCIA_TYPE &&
    typeof candidate.id === 'string' &&
    typeof candidate.emitidaEn === 'string' &&
    typeof candidate.registro?.indice === 'number' &&
    typeof candidate.respuesta?.estado === 'number' &&
    typeof candidate.solicitud?.consulta === 'string'
  );
}

/** SHA-256 of a signed head's text: the digest the time-stamping authority signs. */
export function headDigest(signedHead: string): Uint8Array {
  return createHash('sha256').update(signedHead, 'utf8').digest();
}
