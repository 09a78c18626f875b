// What the constancias' endpoints answer (docs/constancias.md): a receipt for its integration, the
// log's signed head and its proofs, the published keys, and the verification anyone may ask for.
// Hashes and proofs are lower-case hex; a time-stamping authority's reply is base64 DER.
import { constanciaOfIntegration, logStanding, verifyConstancia, type ConstanciaVerification, type LogStanding, type StoredConstancia } from '@/lib/core/constancias/read';
import { consistencyProofOf, headOfSize, latestHead, latestTimestampedHead, leafIndexOfHash, inclusionProofOf } from '@/lib/core/constancias/log';
import { publishedConstanciaKeys } from '@/lib/core/constancias/keys';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import type { PublishedKey } from '@/lib/platform/transparency/signing';

export const CONSTANCIA_MESSAGES = {
  notFound: 'No encontramos una constancia con ese id.',
  noHead: 'El registro de constancias todavía no tiene una cabeza firmada.',
  sizes: 'Envíe desde y hasta: tamaños del registro, con desde entre 1 y hasta, y hasta no mayor que la cabeza publicada.',
  leaf: 'Envíe hoja (el SHA-256 de la hoja en hexadecimal, 64 caracteres) y tamano, no mayor que la cabeza publicada.',
  leafNotFound: 'El registro no contiene esa hoja en ese tamaño.',
  verifyBody: 'Envíe un objeto JSON con el campo constancia: el texto de la constancia (JWS compacto).',
} as const;

export interface StandingBody {
  indice: number;
  /** incluida: in the newest signed head (the proof below); pendiente: in the log, not yet in a head. */
  estado: 'incluida' | 'pendiente';
  cabeza: string | null;
  tamano: number | null;
  prueba: string[] | null;
  sello: { cabeza: string; tamano: number; prueba: string[]; respuesta: string; selladaEn: string } | null;
}

function standingBody(standing: LogStanding): StandingBody {
  return {
    indice: standing.leafIndex,
    estado: standing.head ? 'incluida' : 'pendiente',
    cabeza: standing.head?.signedHead ?? null,
    tamano: standing.head?.treeSize ?? null,
    prueba: standing.head?.proof ?? null,
    sello: standing.timestamp
      ? {
          cabeza: standing.timestamp.signedHead,
          tamano: standing.timestamp.treeSize,
          prueba: standing.timestamp.proof,
          respuesta: standing.timestamp.reply,
          selladaEn: standing.timestamp.at.toISOString(),
        }
      : null,
  };
}

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

/** Why a receipt does not verify, as the verification's motivo says it. */
const PROBLEM_CODES = {
  malformed: 'mal-formada',
  unknown_key: 'clave-desconocida',
  bad_signature: 'firma-invalida',
  outside_key_window: 'fuera-de-la-vigencia-de-la-clave',
  not_a_constancia: 'no-es-una-constancia',
  not_canonical: 'no-canonica',
  absent: 'fuera-del-registro',
} as const;

export interface VerificationBody {
  valida: boolean;
  motivo: (typeof PROBLEM_CODES)[keyof typeof PROBLEM_CODES] | null;
  constancia: unknown;
  clave: { kid: string; firmaDesde: string; firmaHasta: string | null } | null;
  registro: StandingBody | null;
}

export async function verificationBody(jws: string): Promise<{ body: VerificationBody; verification: ConstanciaVerification }> {
  const verification = await verifyConstancia(jws);
  if (!verification.valid) return { verification, body: { valida: false, motivo: PROBLEM_CODES[verification.problem], constancia: null, clave: null, registro: null } };
  const key = { kid: verification.key.kid, firmaDesde: verification.key.firmaDesde, firmaHasta: verification.key.firmaHasta };
  // Signed by us but not in the log at the index it names: nothing a receipt we issued can be.
  if (verification.inLog === 'absent') return { verification, body: { valida: false, motivo: PROBLEM_CODES.absent, constancia: verification.payload, clave: key, registro: null } };
  return { verification, body: { valida: true, motivo: null, constancia: verification.payload, clave: key, registro: verification.standing ? standingBody(verification.standing) : null } };
}
