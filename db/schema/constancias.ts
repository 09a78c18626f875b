import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgSequence, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { integrations } from './integrations';
import { lookupKind } from './query-records';

// Constancias de consulta (docs/constancias.md): signed receipts of lookups, each a leaf of an
// append-only Merkle log (RFC 9162 hashing). Hashes are lower-case hex.

/** The next leaf's index, taken by a receipt before it is signed. */
export const constanciaLeafIndex = pgSequence('constancia_leaf_index', { startWith: 0, minValue: 0 });

/**
 * The log's leaves, by index. A receipt takes its index before it is signed (the index is in what
 * it signs), so an index whose receipt was never written (its instance died in between) becomes a
 * hole: a leaf over a fixed text naming the index, written by the sequencer. The primary key decides
 * between a late receipt and its hole: whichever is written first stays.
 */
export const constanciaLogLeaves = pgTable('constancia_log_leaves', {
  leafIndex: bigint('leaf_index', { mode: 'number' }).primaryKey(),
  leafHash: text('leaf_hash').notNull(),
  hole: boolean('hole').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (table) => [index('constancia_log_leaves_hash').on(table.leafHash)]);

/** A receipt: who asked, what, when; its text sealed like a record's identifiers, kept as long as the records. */
export const constancias = pgTable(
  'constancias',
  {
    id: text('id').primaryKey(),
    leafIndex: bigint('leaf_index', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => constanciaLogLeaves.leafIndex),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id),
    requestId: text('request_id').notNull().unique(),
    lookup: lookupKind('lookup').notNull(),
    httpStatus: smallint('http_status').notNull(),
    keyId: text('key_id').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    // The compact JWS, sealed (lib/core/sealing); null once the records' retention has passed.
    receiptSealed: text('receipt_sealed'),
  },
  (table) => [
    index('constancias_integration_issued').on(table.integrationId, table.issuedAt),
    // The receipts whose text is still kept, oldest first per integration: the purge's batches read
    // only those, never the ones it already emptied (lib/core/constancias/retention.ts).
    index('constancias_text_kept').on(table.integrationId, table.issuedAt).where(sql`${table.receiptSealed} is not null`),
  ],
);

/** The hashes of the log's perfect subtrees above the leaves: (level, position) covers leaves [position·2^level, (position+1)·2^level). */
export const constanciaLogNodes = pgTable(
  'constancia_log_nodes',
  {
    level: smallint('level').notNull(),
    position: bigint('position', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [primaryKey({ columns: [table.level, table.position] }), check('constancia_log_nodes_level_above_leaves', sql`${table.level} >= 1`)],
);

/** The log's signed heads, one per size, and the daily RFC 3161 time stamp over one of them. */
export const constanciaLogHeads = pgTable('constancia_log_heads', {
  treeSize: bigint('tree_size', { mode: 'number' }).primaryKey(),
  rootHash: text('root_hash').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }).notNull(),
  keyId: text('key_id').notNull(),
  // The head as published: a compact JWS over its canonical JSON.
  signedHead: text('signed_head').notNull(),
  // The time-stamping authority's reply (DER, base64) over SHA-256 of the signed head's text.
  timestampReply: text('timestamp_reply'),
  timestampedAt: timestamp('timestamped_at', { withTimezone: true, mode: 'date' }),
});

/** Every signing key that ever signed, with its public half: published forever at /.well-known/jwks.json. */
export const constanciaSigningKeys = pgTable('constancia_signing_keys', {
  keyId: text('key_id').primaryKey(),
  publicJwk: jsonb('public_jwk').notNull(),
  firstUsedAt: timestamp('first_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Where the sequencer's audit of the stored leaves goes on: each run checks the next window of the
 * log against its last head, so a full pass over a log of any size takes a bounded time per run
 * (lib/core/constancias/log.ts). One row.
 */
export const constanciaLogAudit = pgTable(
  'constancia_log_audit',
  {
    id: smallint('id').primaryKey().default(1),
    // The first leaf of the window the next run checks.
    nextLeaf: bigint('next_leaf', { mode: 'number' }).notNull().default(0),
    // When the last pass over the whole log (as its head then stood) ended, and that head's size.
    passCompletedAt: timestamp('pass_completed_at', { withTimezone: true, mode: 'date' }),
    passTreeSize: bigint('pass_tree_size', { mode: 'number' }),
  },
  (table) => [check('constancia_log_audit_one_row', sql`${table.id} = 1`)],
);
