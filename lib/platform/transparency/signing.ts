import { createHash, createPrivateKey, generateKeyPairSync, sign as signBytes, type KeyObject as NodeKeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { calculateJwkThumbprint, compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { z } from 'zod';

// Signed statements (RFC 7515 JWS, EdDSA over Ed25519 per RFC 8037) over RFC 8785 canonical JSON:
// anyone holding the published keys verifies them with a standard JOSE library, years later, and
// anyone can re-canonicalize the payload to check it is the one form that was signed.

export const SIGNING_ALGORITHM = 'EdDSA';

/** The one serialization RFC 8785 allows for a JSON value, as UTF-8 bytes. */
export function canonicalJson(value: unknown): Uint8Array {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('a signed statement must be a JSON value');
  return new TextEncoder().encode(text);
}

/** A key as the operator configures it: its JWK (private while it signs), and when it may sign. */
const configuredKeySchema = z.object({
  kid: z.string().trim().min(1).max(100).optional(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string().min(1), d: z.string().min(1).optional() }),
  // From when it signs (ISO 8601): a key added with a later date is published first, so verifiers
  // hold it before its first signature (the rotation's overlap).
  firmaDesde: z.iso.datetime({ offset: true }),
  // Until when (exclusive); absent: until another key's firmaDesde. A retired key may drop its `d`.
  firmaHasta: z.iso.datetime({ offset: true }).nullish(),
});

export const configuredKeysSchema = z.array(configuredKeySchema).min(1);
export type ConfiguredKey = z.infer<typeof configuredKeySchema>;

/** A public key as /.well-known/jwks.json publishes it: a JWK with its validity window. */
export interface PublishedKey extends JWK {
  kid: string;
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  use: 'sig';
  alg: typeof SIGNING_ALGORITHM;
  firmaDesde: string;
  firmaHasta: string | null;
}

/** Signs with one key; a KMS-held key can implement this without handing out its private half. */
export interface StatementSigner {
  readonly keyId: string;
  readonly publicKey: PublishedKey;
  /** A compact JWS over the canonical JSON of `payload`, typed `typ`. */
  sign(payload: unknown, typ: string): Promise<string>;
}

/** The operator's signing keys: which one signs at a time, and every one to publish. */
export interface SigningKeyRing {
  signerAt(now: Date): StatementSigner;
  published(): PublishedKey[];
}

interface LoadedKey {
  published: PublishedKey;
  from: number;
  until: number;
  privateKey: NodeKeyObject | null;
}

/** The key ring of a configured list (JSON text, as a file or a secret holds it). */
export async function keyRingFromJson(text: string): Promise<SigningKeyRing> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('the signing keys are not valid JSON');
  }
  const keys = configuredKeysSchema.parse(parsed);
  const loaded: LoadedKey[] = [];
  for (const key of keys) {
    const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: key.jwk.x } as const;
    const kid = key.kid ?? (await calculateJwkThumbprint(publicJwk));
    if (loaded.some((other) => other.published.kid === kid)) throw new Error(`two signing keys share the key id ${kid}`);
    const from = Date.parse(key.firmaDesde);
    const until = key.firmaHasta ? Date.parse(key.firmaHasta) : Number.POSITIVE_INFINITY;
    if (until <= from) throw new Error(`signing key ${kid}: firmaHasta must come after firmaDesde`);
    loaded.push({
      published: {
        ...publicJwk,
        kid,
        use: 'sig',
        alg: SIGNING_ALGORITHM,
        firmaDesde: new Date(from).toISOString(),
        firmaHasta: Number.isFinite(until) ? new Date(until).toISOString() : null,
      },
      from,
      until,
      privateKey: key.jwk.d ? createPrivateKey({ key: { ...key.jwk, d: key.jwk.d }, format: 'jwk' }) : null,
    });
  }
  if (!loaded.some((key) => key.privateKey)) throw new Error('no signing key holds its private half (d)');
  return new ConfiguredKeyRing(loaded);
}

/**
 * RFC 7515's compact serialization, signed by node:crypto's Ed25519 (synchronous, a few tens of
 * microseconds): jose's WebCrypto path costs several times that on the lookups' path. Anything that
 * verifies JWS (jose included, as the tests check) reads it.
 */
function compactJws(payload: Uint8Array, header: Record<string, string>, key: NodeKeyObject): string {
  const signingInput = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(payload).toString('base64url')}`;
  return `${signingInput}.${signBytes(null, Buffer.from(signingInput), key).toString('base64url')}`;
}

class ConfiguredKeyRing implements SigningKeyRing {
  private readonly signers = new Map<string, StatementSigner>();

  constructor(private readonly keys: LoadedKey[]) {}

  signerAt(now: Date): StatementSigner {
    const at = now.getTime();
    // The newest key in its window signs: an overlap hands over to the new key at its firmaDesde.
    const key = this.keys
      .filter((candidate) => candidate.privateKey && candidate.from <= at && at < candidate.until)
      .sort((a, b) => b.from - a.from)[0];
    if (!key?.privateKey) throw new Error(`no signing key may sign at ${now.toISOString()}`);
    let signer = this.signers.get(key.published.kid);
    if (!signer) {
      const privateKey = key.privateKey;
      const published = key.published;
      signer = {
        keyId: published.kid,
        publicKey: published,
        sign: async (payload, typ) => compactJws(canonicalJson(payload), { alg: SIGNING_ALGORITHM, kid: published.kid, typ }, privateKey),
      };
      this.signers.set(published.kid, signer);
    }
    return signer;
  }

  published(): PublishedKey[] {
    return this.keys.map((key) => key.published);
  }
}

export type VerifiedStatement =
  | { valid: true; keyId: string; typ: string | undefined; payload: unknown; canonical: boolean }
  | { valid: false; problem: 'malformed' | 'unknown_key' | 'bad_signature' | 'outside_key_window' };

/**
 * Verifies a compact JWS against published keys: the signature, the key's window (it may not sign
 * outside it: `signedAt` reads the statement's own time), and whether the payload is canonical.
 */
export async function verifyStatement(jws: string, keys: readonly PublishedKey[], signedAt: (payload: unknown) => string | undefined): Promise<VerifiedStatement> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(jws);
    if (header.alg !== SIGNING_ALGORITHM) return { valid: false, problem: 'malformed' };
    kid = header.kid;
  } catch {
    return { valid: false, problem: 'malformed' };
  }
  const key = keys.find((candidate) => candidate.kid === kid);
  if (!key) return { valid: false, problem: 'unknown_key' };
  let verified;
  try {
    verified = await compactVerify(jws, await importJWK({ kty: key.kty, crv: key.crv, x: key.x }, SIGNING_ALGORITHM), { algorithms: [SIGNING_ALGORITHM] });
  } catch {
    return { valid: false, problem: 'bad_signature' };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(verified.payload));
  } catch {
    return { valid: false, problem: 'malformed' };
  }
  const at = Date.parse(signedAt(payload) ?? '');
  if (!Number.isFinite(at) || at < Date.parse(key.firmaDesde) || (key.firmaHasta && at >= Date.parse(key.firmaHasta))) {
    return { valid: false, problem: 'outside_key_window' };
  }
  const canonical = Buffer.from(canonicalJson(payload)).equals(Buffer.from(verified.payload));
  return { valid: true, keyId: key.kid, typ: verified.protectedHeader.typ, payload, canonical };
}

/** A new Ed25519 key as the configuration takes it (the CLI's `constancias:nueva-clave`, development's key). */
export function newConfiguredKey(firmaDesde: Date): ConfiguredKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.d) throw new Error('an Ed25519 key exported without its halves');
  // RFC 7638's thumbprint: the SHA-256 of the required members in lexicographic order.
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: jwk.x })).digest('base64url');
  return { kid, jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }, firmaDesde: firmaDesde.toISOString(), firmaHasta: null };
}
