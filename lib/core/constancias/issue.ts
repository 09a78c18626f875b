import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { configuredOrigin } from '@/lib/platform/http/base-url';
import { env } from '@/lib/platform/settings/env';
import { leafHash } from '@/lib/platform/transparency/merkle';
import { seal } from '@/lib/core/sealing/envelope';
import { issuerSettings } from '@/lib/core/issuer/settings';
import { LOOKUP_PATHS, LOOKUP_SOURCE } from '@/lib/vocabulary/lookups';
import { constanciaSigner } from './keys';
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

/**
 * Signs and keeps the receipt of an answered lookup. Its place in the log is taken first (it is
 * part of what is signed); should the write fail after that, the index becomes a hole the
 * sequencer fills, so the log never waits for it (lib/core/constancias/log.ts).
 */
export async function issueConstancia(answered: AnsweredLookup, now: Date = new Date()): Promise<IssuedConstancia> {
  const handle = await database();
  const signer = await constanciaSigner(now);
  const [taken] = await handle.rows<{ leaf_index: string | number }>(sql`select nextval('constancia_leaf_index') as leaf_index`);
  const leafIndex = Number(taken!.leaf_index);
  const id = randomUUID();
  const payload = constanciaPayload(answered, { id, leafIndex, keyId: signer.keyId, issuedAt: now });
  const receipt = await signer.sign(payload, CONSTANCIA_TYPE);
  const hash = hex(leafHash(new TextEncoder().encode(receipt)));
  await handle.rows(sql`
    with leaf as (
      insert into constancia_log_leaves (leaf_index, leaf_hash) values (${leafIndex}, ${hash}) returning leaf_index
    )
    insert into constancias (id, leaf_index, integration_id, request_id, lookup, http_status, key_id, issued_at, receipt_sealed)
    select ${id}, leaf.leaf_index, ${answered.integrationId}, ${answered.requestId}, ${answered.lookup}, ${answered.status}, ${signer.keyId}, ${now.toISOString()}::timestamptz, ${seal(receipt, 'constancia')}
      from leaf`);
  return { id, url: constanciaAddress(id), leafIndex };
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
