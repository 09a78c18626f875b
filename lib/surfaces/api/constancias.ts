// What the constancias' endpoints answer (docs/constancias.md): a receipt for its integration, the
// log's signed head and its proofs, the published keys, and the verification anyone may ask for.
// Hashes and proofs are lower-case hex; a time-stamping authority's reply is base64 DER.
import { constanciaOfIntegration, logStanding, type StoredConstancia } from '@/lib/core/constancias/read';
import { consistencyProofOf, headOfSize, latestHead, latestTimestampedHead, leafIndexOfHash, inclusionProofOf } from '@/lib/core/constancias/log';
import { publishedConstanciaKeys } from '@/lib/core/constancias/keys';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import type { PublishedKey } from '@/lib/platform/transparency/signing';
import type { StandingBody } from '@/lib/presentation/constancia-words';
import { standingBody } from '@/lib/presentation/constancia-verification';

export { verificationBody } from '@/lib/presentation/constancia-verification';

export const CONSTANCIA_MESSAGES = {
  notFound: 'No encontramos una constancia con ese id.',
  purged: 'El texto de esa constancia ya se depuró con los registros: su hoja y sus pruebas siguen en el registro público.',
  noHead: 'El registro de constancias todavía no tiene una cabeza firmada.',
  sizes: 'Envíe desde y hasta: tamaños del registro, con desde entre 1 y hasta, y hasta no mayor que la cabeza publicada.',
  leaf: 'Envíe hoja (el SHA-256 de la hoja en hexadecimal, 64 caracteres) y tamano, no mayor que la cabeza publicada.',
  leafNotFound: 'El registro no contiene esa hoja en ese tamaño.',
  verifyBody: 'Envíe un objeto JSON con el campo constancia: el texto de la constancia (JWS compacto).',
} as const;

export interface ConstanciaBody {
  id: string;
  /** The signed receipt (compact JWS); null once the records' retention has passed. */
  constancia: string | null;
  emitidaEn: string;
  consulta: string;
  estado: number;
  clave: string;
  registro: StandingBody;
}

export async function constanciaBody(integrationId: number, id: string): Promise<{ stored: StoredConstancia; body: ConstanciaBody } | null> {
  const stored = await constanciaOfIntegration(integrationId, id);
  if (!stored) return null;
  return {
    stored,
    body: {
      id: stored.id,
      constancia: stored.receipt,
      emitidaEn: stored.issuedAt.toISOString(),
      consulta: LOOKUP_PATHS[stored.lookup],
      estado: stored.httpStatus,
      clave: stored.keyId,
      registro: standingBody(await logStanding(stored.leafIndex)),
    },
  };
}

export interface HeadBody {
  cabeza: string;
  tamano: number;
  raizSha256: string;
  firmadaEn: string;
  sello: { cabeza: string; tamano: number; respuesta: string; selladaEn: string } | null;
}

/** The newest signed head, and the newest time-stamped one. */
export async function headBody(): Promise<HeadBody | null> {
  const [head, stamped] = await Promise.all([latestHead(), latestTimestampedHead()]);
  if (!head) return null;
  return {
    cabeza: head.signedHead,
    tamano: head.treeSize,
    raizSha256: head.rootHash,
    firmadaEn: head.signedAt.toISOString(),
    sello:
      stamped?.timestampReply && stamped.timestampedAt
        ? { cabeza: stamped.signedHead, tamano: stamped.treeSize, respuesta: stamped.timestampReply, selladaEn: stamped.timestampedAt.toISOString() }
        : null,
  };
}

const SIZE = /^[1-9][0-9]{0,15}$/;

/** The consistency proof between two signed heads, each given with its signed text. */
export async function consistencyBody(search: URLSearchParams): Promise<{ desde: string; hasta: string; tamanoDesde: number; tamanoHasta: number; prueba: string[] } | 'sizes'> {
  const from = search.get('desde') ?? '';
  const to = search.get('hasta') ?? '';
  if (!SIZE.test(from) || !SIZE.test(to)) return 'sizes';
  const [older, newer] = await Promise.all([headOfSize(Number(from)), headOfSize(Number(to))]);
  if (!older || !newer || older.treeSize > newer.treeSize) return 'sizes';
  return { desde: older.signedHead, hasta: newer.signedHead, tamanoDesde: older.treeSize, tamanoHasta: newer.treeSize, prueba: await consistencyProofOf(older.treeSize, newer.treeSize) };
}

/** The inclusion proof of a leaf, by its hash, in a signed head's tree (RFC 9162's get-proof-by-hash). */
export async function inclusionBody(search: URLSearchParams): Promise<{ indice: number; tamano: number; cabeza: string; prueba: string[] } | 'leaf' | 'leafNotFound'> {
  const leaf = (search.get('hoja') ?? '').toLowerCase();
  const size = search.get('tamano') ?? '';
  if (!/^[0-9a-f]{64}$/.test(leaf) || !SIZE.test(size)) return 'leaf';
  const head = await headOfSize(Number(size));
  if (!head) return 'leaf';
  const index = await leafIndexOfHash(leaf);
  if (index === null || index >= head.treeSize) return 'leafNotFound';
  return { indice: index, tamano: head.treeSize, cabeza: head.signedHead, prueba: await inclusionProofOf(index, head.treeSize) };
}

export async function jwksBody(): Promise<{ keys: PublishedKey[] }> {
  return { keys: await publishedConstanciaKeys() };
}

