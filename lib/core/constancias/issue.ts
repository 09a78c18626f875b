import { createHash, randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { database, type DatabaseHandle } from '@/db/client';
import { compileStatement, type StatementCompanion } from '@/db/compiled-statement';
import type { LookupKind } from '@/db/schema';
import { configuredOrigin } from '@/lib/platform/http/base-url';
import { env } from '@/lib/platform/settings/env';
import { leafHash } from '@/lib/platform/transparency/merkle';
import { seal } from '@/lib/core/sealing/envelope';
import { issuerSettings } from '@/lib/core/issuer/settings';
import { LOOKUP_PATHS, LOOKUP_SOURCE } from '@/lib/vocabulary/lookups';
import { constanciaSigner, indexBlock } from './keys';
import { receiptToStore } from './stored-receipt';
import { CONSTANCIA_TYPE, constanciaAddress, logAddress, type ConstanciaPayload } from './payload';

/** What a receipt says of one lookup: who asked what, and what the gateway answered. */
export interface AnsweredLookup {
  integrationId: number;
  /** The integration's login, as the request's header named it. */
  integrationLogin: string;
  lookup: LookupKind;
  requestId: string;
  /** The request's JSON body as sent (parsed), or null when it was not JSON. */
  requestBody: unknown;
  status: number;
  /** The answer's body, the exact text the client received. */
  responseBody: string;
}

export interface IssuedConstancia {
  id: string;
  url: string;
  leafIndex: number;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** A receipt signed and ready to be written, as a CTE of the statement that records its lookup. */
export interface PreparedConstancia {
  issued: IssuedConstancia;
  companion: StatementCompanion;
}

/**
 * Signs the receipt of an answered lookup and gives its rows as a CTE, for the statement that
 * records the lookup (lib/core/billing/holds.ts, lib/core/records/write.ts): no round trip of its
 * own. Its place in the log is taken first (it is part of what is signed); should the statement not
 * commit, the index becomes a hole the sequencer fills, so the log never waits for it
 * (lib/core/constancias/log.ts).
 */
export async function prepareConstancia(answered: AnsweredLookup, now: Date = new Date()): Promise<PreparedConstancia> {
  const handle = await database();
  const signer = await constanciaSigner(now);
  const leafIndex = await takeLeafIndex(handle);
  const id = randomUUID();
  const payload = constanciaPayload(answered, { id, leafIndex, keyId: signer.keyId, issuedAt: now });
  const receipt = await signer.sign(payload, CONSTANCIA_TYPE);
  const values = {
    constanciaLeafIndex: leafIndex,
    constanciaHash: hex(leafHash(new TextEncoder().encode(receipt))),
    constanciaId: id,
    constanciaIntegrationId: answered.integrationId,
    constanciaRequestId: answered.requestId,
    constanciaLookup: answered.lookup,
    constanciaStatus: answered.status,
    constanciaKeyId: signer.keyId,
    constanciaIssuedAt: now.toISOString(),
    constanciaSealed: seal(receiptToStore(receipt), 'constancia'),
  };
  return { issued: { id, url: constanciaAddress(id), leafIndex }, companion: { ...RECEIPT_COMPANION, values } };
}

const placeholder = (name: string) => sql.placeholder(name);
const LOOKUP_ACTOR = 'system:lookup';

/**
 * The receipt's rows, as CTEs named apart from the record statements' own. A receipt with a tariff
 * (integrations.constancia_tariff_centavos) is written only when the balance covers it, after what
 * the host statement gives back (`credit`: a voided hold's tariff), and is then charged as its own
 * movement, pointing at its lookup's record: the integration's row is locked for the statement, so
 * concurrent receipts can never overdraw it. A free receipt locks nothing.
 */
function receiptFee(credit: SQL): SQL {
  return sql`
    constancia_fee as (
      select i.constancia_tariff_centavos as fee, i.balance_centavos + ${credit} >= i.constancia_tariff_centavos as paid
        from integrations i
       where i.id = ${placeholder('constanciaIntegrationId')}::integer and i.constancia_tariff_centavos > 0
         for update
    )`;
}

function receiptRows(): SQL {
  const integrationId = placeholder('constanciaIntegrationId');
  return sql`
    constancia_leaf as (
      insert into constancia_log_leaves (leaf_index, leaf_hash)
      select ${placeholder('constanciaLeafIndex')}::bigint, ${placeholder('constanciaHash')}::text
       where not exists (select 1 from constancia_fee where not paid)
      returning leaf_index
    ),
    constancia_row as (
      insert into constancias (id, leaf_index, integration_id, request_id, lookup, http_status, key_id, issued_at, receipt_sealed)
      select ${placeholder('constanciaId')}::text, constancia_leaf.leaf_index, ${integrationId}::integer,
             ${placeholder('constanciaRequestId')}::text, ${placeholder('constanciaLookup')}::lookup_kind, ${placeholder('constanciaStatus')}::smallint,
             ${placeholder('constanciaKeyId')}::text, ${placeholder('constanciaIssuedAt')}::timestamptz, ${placeholder('constanciaSealed')}::text
        from constancia_leaf
      returning id
    ),
    constancia_charged as (
      insert into ledger_entries (integration_id, kind, amount_centavos, posted_centavos, actor, request_id, query_record_id)
      select ${integrationId}::integer, 'constancia'::ledger_entry_kind, -constancia_fee.fee, -constancia_fee.fee, ${LOOKUP_ACTOR}::text,
             ${placeholder('constanciaRequestId')}::text, (select id from record)
        from constancia_fee where constancia_fee.paid
    )`;
}

const RECEIPT_DEBIT = sql`coalesce((select fee from constancia_fee where paid), 0)`;

const RECEIPT_COMPANION = {
  name: 'constancia',
  fee: receiptFee,
  cte: receiptRows(),
  debit: RECEIPT_DEBIT,
  charge: sql`
    constancia_balance as (
      update integrations set balance_centavos = balance_centavos - ${RECEIPT_DEBIT}
       where id = ${placeholder('constanciaIntegrationId')}::integer and exists (select 1 from constancia_fee where paid)
    )`,
  written: sql`exists (select 1 from constancia_row)`,
} satisfies Omit<StatementCompanion, 'values'>;

/** How many indexes an instance takes at once, and how long it may hand them out. */
const INDEX_BLOCK = 32;
const INDEX_BLOCK_USABLE_MS = 10_000;

const takeBlock = compileStatement(sql`select nextval('constancia_leaf_index') as leaf_index from generate_series(1, ${INDEX_BLOCK})`);

/**
 * A leaf index for the next receipt, from a block this instance took with one statement. A block
 * is used for at most INDEX_BLOCK_USABLE_MS, well under the sequencer's HOLE_AFTER_MS: an index
 * left unused when its block expires (or its instance stops) becomes a hole, and no index is ever
 * handed out after the sequencer may have declared it one.
 */
async function takeLeafIndex(handle: DatabaseHandle): Promise<number> {
  const block = indexBlock();
  const nowMs = Date.now();
  if (block.indexes.length === 0 || nowMs - block.takenAtMs > INDEX_BLOCK_USABLE_MS) {
    block.pending ??= handle
      .compiled<{ leaf_index: string | number }>(takeBlock, {})
      .then((rows) => {
        block.indexes = rows.map((row) => Number(row.leaf_index));
        block.takenAtMs = Date.now();
      })
      .finally(() => {
        block.pending = undefined;
      });
    await block.pending;
  }
  const index = block.indexes.shift();
  // Concurrent receipts may empty the block between its refill and this shift: take another.
  return index ?? takeLeafIndex(handle);
}


function constanciaPayload(answered: AnsweredLookup, receipt: { id: string; leafIndex: number; keyId: string; issuedAt: Date }): ConstanciaPayload {
  const issuer = issuerSettings();
  const body = parsedOrText(answered.responseBody);
  const data = typeof body === 'object' && body !== null && 'data' in body ? (body as { data: unknown }).data : undefined;
  const reported = typeof data === 'object' && data !== null && 'fechaConsulta' in data ? (data as { fechaConsulta: unknown }).fechaConsulta : undefined;
  return {
    tipo: CONSTANCIA_TYPE,
    version: 1,
    id: receipt.id,
    emisor: { servicio: env().SERVICE_NAME, nit: issuer.ISSUER_NIT ?? null, url: configuredOrigin() },
    solicitud: { requestId: answered.requestId, integracion: answered.integrationLogin, consulta: LOOKUP_PATHS[answered.lookup], cuerpo: answered.requestBody },
    respuesta: {
      estado: answered.status,
      cuerpo: body,
      // The exact bytes, beside their parsed form: whoever kept the answer as received can match it.
      cuerpoSha256: createHash('sha256').update(answered.responseBody, 'utf8').digest('hex'),
    },
    fuente: { codigo: LOOKUP_SOURCE[answered.lookup], fechaConsulta: typeof reported === 'string' ? reported : null },
    emitidaEn: receipt.issuedAt.toISOString(),
    clave: receipt.keyId,
    registro: { url: logAddress(), indice: receipt.leafIndex },
  };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
