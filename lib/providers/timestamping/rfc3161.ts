// RFC 3161's messages, written and read with pkijs over node:crypto's WebCrypto: the request for a
// SHA-256 digest, and the checks a reply must pass before its token is worth keeping (its status,
// imprint and nonce, the CMS signature, the signer's certificate, its purpose and chain).
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { TimeStampOutcome } from './authority';

// Passed to every pkijs call, so nothing depends on pkijs's process-wide engine.
const engine = new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: webcrypto as unknown as Crypto });

export const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  extendedKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

const DIGEST_BYTES = 32;
const GRANTED = 0;
const GRANTED_WITH_MODS = 1;

/** The certificates a token's signer must be or chain to: PEM text (one or more), DER bytes, read ones, or a list of these. */
export type TrustedCertificates = string | Uint8Array | pkijs.Certificate | readonly (string | Uint8Array | pkijs.Certificate)[];

export type TokenCheck = { ok: true; genTime: Date; serialNumber: string; policy: string } | { ok: false; detail: string };

/** Reads trusted certificates; throws on text that holds none, which is a configuration mistake, not an outcome. */
export function readCertificates(trusted: TrustedCertificates): pkijs.Certificate[] {
  const items = typeof trusted === 'string' || trusted instanceof Uint8Array || trusted instanceof pkijs.Certificate ? [trusted] : trusted;
  const certificates = items.flatMap((item) => {
    if (item instanceof pkijs.Certificate) return [item];
    if (typeof item !== 'string') return [pkijs.Certificate.fromBER(Uint8Array.from(item))];
    const blocks = [...item.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
    // A copy: Node's pooled Buffers start inside a larger ArrayBuffer, which pkijs would read from its start.
    return blocks.map((block) => pkijs.Certificate.fromBER(Uint8Array.from(Buffer.from(block[1]!.replace(/\s+/g, ''), 'base64'))));
  });
  if (certificates.length === 0) throw new Error('no certificate in the trusted certificates given');
  return certificates;
}

/** Bytes as a DER INTEGER's content: positive, no redundant leading zero. */
export function positiveIntegerBytes(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && bytes[start + 1]! < 0x80) start++;
  const trimmed = bytes.subarray(start);
  if (trimmed.length === 0) return new Uint8Array([0]);
  return trimmed[0]! >= 0x80 ? Uint8Array.of(0, ...trimmed) : Uint8Array.from(trimmed);
}

/** A DER TimeStampReq (v1) for a SHA-256 digest, with `nonce` and certReq true. */
export function timeStampRequest(digest: Uint8Array, nonce: Uint8Array): Uint8Array<ArrayBuffer> {
  if (digest.length !== DIGEST_BYTES) throw new RangeError(`a SHA-256 digest has ${DIGEST_BYTES} bytes, not ${digest.length}`);
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: positiveIntegerBytes(nonce) }),
    // The signer's certificate in the token: a kept token then verifies without asking for it.
    certReq: true,
  });
  return new Uint8Array(request.toSchema().toBER());
}

/** What a reply from the authority comes to, checked against the request's digest and nonce. */
export async function readTimeStampReply(
  der: Uint8Array,
  expected: { digest: Uint8Array; nonce: Uint8Array; trusted: TrustedCertificates },
): Promise<TimeStampOutcome> {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || parsed.offset !== der.byteLength) return { kind: 'invalid', detail: 'the reply is not one DER structure' };
  let reply: pkijs.TimeStampResp;
  try {
    reply = new pkijs.TimeStampResp({ schema: parsed.result });
  } catch {
    return { kind: 'invalid', detail: 'the reply is not a TimeStampResp' };
  }
  const status = reply.status.status;
  if (status !== GRANTED && status !== GRANTED_WITH_MODS) {
    const text = (reply.status.statusStrings ?? []).map((line) => line.valueBlock.value).join('; ');
    return { kind: 'refused', status, text: text === '' ? null : text };
  }
  // The token's own bytes, as sent: re-encoding a parsed structure need not give them back.
  const token = (parsed.result as asn1js.Sequence).valueBlock.value[1];
  if (token === undefined) return { kind: 'invalid', detail: `status ${status} but no time stamp token` };
  const tokenBytes = new Uint8Array(token.valueBeforeDecodeView);
  const check = await checkToken(tokenBytes, expected.digest, expected.nonce, expected.trusted);
  if (!check.ok) return { kind: 'invalid', detail: check.detail };
  return { kind: 'stamped', token: tokenBytes, reply: Uint8Array.from(der), genTime: check.genTime, serialNumber: check.serialNumber, policy: check.policy };
}

/** Checks a kept token again (years later, say): same checks as a fresh reply's, but no nonce to match. */
export async function verifyStoredToken(token: Uint8Array, digest: Uint8Array, trusted: TrustedCertificates): Promise<TokenCheck> {
  return checkToken(token, digest, null, trusted);
}

async function checkToken(token: Uint8Array, digest: Uint8Array, nonce: Uint8Array | null, trusted: TrustedCertificates): Promise<TokenCheck> {
  try {
    return await checkTokenOrThrow(token, digest, nonce, readCertificates(trusted));
  } catch (error) {
    // pkijs and asn1js throw on structures they cannot read: a malformed token, not our failure.
    return { ok: false, detail: `unreadable token: ${(error as Error).message}` };
  }
}

async function checkTokenOrThrow(token: Uint8Array, digest: Uint8Array, nonce: Uint8Array | null, trusted: pkijs.Certificate[]): Promise<TokenCheck> {
  const fail = (detail: string): TokenCheck => ({ ok: false, detail });
  const parsed = asn1js.fromBER(token);
  if (parsed.offset === -1 || parsed.offset !== token.byteLength) return fail('the token is not one DER structure');
  const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  if (contentInfo.contentType !== OID.signedData) return fail(`the token is ${contentInfo.contentType}, not CMS SignedData`);
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  if (signed.encapContentInfo.eContentType !== OID.tstInfo) return fail(`the token signs ${signed.encapContentInfo.eContentType}, not a TSTInfo`);
  const eContent = signed.encapContentInfo.eContent;
  if (eContent === undefined) return fail('the token holds no TSTInfo');
  const content = new Uint8Array(eContent.getValue());
  const info = pkijs.TSTInfo.fromBER(content);

  // What was stamped: our digest, under our nonce.
  if (info.messageImprint.hashAlgorithm.algorithmId !== OID.sha256) return fail(`the imprint's algorithm is ${info.messageImprint.hashAlgorithm.algorithmId}, not SHA-256`);
  if (!sameBytes(info.messageImprint.hashedMessage.valueBlock.valueHexView, digest)) return fail('the token stamps another digest');
  if (nonce !== null) {
    if (info.nonce === undefined) return fail('the token carries no nonce');
    if (!sameBytes(positiveIntegerBytes(info.nonce.valueBlock.valueHexView), positiveIntegerBytes(nonce))) return fail('the token carries another nonce');
  }

  // Who signed it: one signer, whose certificate the token carries (or one of ours names).
  if (signed.signerInfos.length !== 1) return fail(`the token has ${signed.signerInfos.length} signers, not one`);
  const signer = signed.signerInfos[0]!;
  const carried = (signed.certificates ?? []).filter((item): item is pkijs.Certificate => item instanceof pkijs.Certificate);
  const signerCertificate = await findSigner(signer, [...carried, ...trusted]);
  if (signerCertificate === null) return fail("the signer's certificate is neither in the token nor among the trusted ones");

  // The signed attributes bind the TSTInfo (content type, message digest) and the signer's certificate (ESS).
  const attributes = signer.signedAttrs?.attributes;
  if (attributes === undefined) return fail('the signature has no signed attributes');
  const attribute = (type: string) => attributes.find((candidate) => candidate.type === type)?.values[0];
  const contentType = attribute(OID.contentType);
  if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== OID.tstInfo) return fail('the signed content type is not a TSTInfo');
  const hashName = hashNameOf(signer.digestAlgorithm.algorithmId);
  if (hashName === null) return fail(`unsupported digest algorithm ${signer.digestAlgorithm.algorithmId}`);
  const messageDigest = attribute(OID.messageDigest);
  const contentDigest = new Uint8Array(await webcrypto.subtle.digest(hashName, content));
  if (!(messageDigest instanceof asn1js.OctetString) || !sameBytes(messageDigest.valueBlock.valueHexView, contentDigest)) return fail('the signed message digest is not the TSTInfo’s');
  const essProblem = await essCertificateProblem(attribute(OID.signingCertificateV2), attribute(OID.signingCertificate), signerCertificate);
  if (essProblem !== null) return fail(essProblem);
  const signatureOk = await engine
    .verifyWithPublicKey(signer.signedAttrs!.encodedValue, signer.signature, signerCertificate.subjectPublicKeyInfo, signer.signatureAlgorithm, hashName)
    .catch(() => false);
  if (!signatureOk) return fail('the signature does not verify');

  // Whether to believe the signer: a time-stamping certificate that is, or chains to, a trusted one.
  const purposeProblem = timeStampingPurposeProblem(signerCertificate);
  if (purposeProblem !== null) return fail(purposeProblem);
  const chainProblem = await chainProblemOf(signerCertificate, carried, trusted, info.genTime);
  if (chainProblem !== null) return fail(chainProblem);

  return { ok: true, genTime: info.genTime, serialNumber: Buffer.from(info.serialNumber.valueBlock.valueHexView).toString('hex'), policy: info.policy };
}

async function findSigner(signer: pkijs.SignerInfo, candidates: pkijs.Certificate[]): Promise<pkijs.Certificate | null> {
  for (const certificate of candidates) {
    if (signer.sid instanceof pkijs.IssuerAndSerialNumber) {
      if (certificate.issuer.isEqual(signer.sid.issuer) && certificate.serialNumber.isEqual(signer.sid.serialNumber)) return certificate;
      continue;
    }
    // SubjectKeyIdentifier [0]: the SHA-1 of the public key, as RFC 5280's first method makes it.
    const sid = signer.sid as asn1js.Primitive | asn1js.Constructed;
    const keyId = sid.idBlock.isConstructed
      ? ((sid as asn1js.Constructed).valueBlock.value[0] as asn1js.OctetString).valueBlock.valueHexView
      : (sid as asn1js.Primitive).valueBlock.valueHexView;
    const keyHash = new Uint8Array(await webcrypto.subtle.digest('SHA-1', certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView));
    const named = (certificate.extensions ?? []).find((extension) => extension.extnID === '2.5.29.14');
    const namedId = named === undefined ? null : (asn1js.fromBER(named.extnValue.valueBlock.valueHexView).result as asn1js.OctetString).valueBlock.valueHexView;
    if (sameBytes(keyHash, keyId) || (namedId !== null && sameBytes(namedId, keyId))) return certificate;
  }
  return null;
}

/** RFC 3161 (with RFC 5816) binds the signer's certificate: its hash must be the first ESSCertID's. */
async function essCertificateProblem(v2: asn1js.AsnType | undefined, v1: asn1js.AsnType | undefined, certificate: pkijs.Certificate): Promise<string | null> {
  const certificateDer = new Uint8Array(certificate.toSchema().toBER());
  const first = (value: asn1js.AsnType | undefined) => {
    const certs = value instanceof asn1js.Sequence ? value.valueBlock.value[0] : undefined;
    const essCertId = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
    return essCertId instanceof asn1js.Sequence ? essCertId.valueBlock.value : undefined;
  };
  const v2Id = first(v2);
  if (v2Id !== undefined) {
    // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash OCTET STRING, issuerSerial OPTIONAL }
    const withAlgorithm = v2Id[0] instanceof asn1js.Sequence;
    const algorithm = withAlgorithm ? new pkijs.AlgorithmIdentifier({ schema: v2Id[0] }).algorithmId : OID.sha256;
    const hashName = hashNameOf(algorithm);
    const certHash = v2Id[withAlgorithm ? 1 : 0];
    if (hashName === null || !(certHash instanceof asn1js.OctetString)) return 'the signing certificate attribute cannot be read';
    const hash = new Uint8Array(await webcrypto.subtle.digest(hashName, certificateDer));
    return sameBytes(hash, certHash.valueBlock.valueHexView) ? null : "the signing certificate attribute names another certificate than the signer's";
  }
  const v1Id = first(v1);
  if (v1Id !== undefined) {
    const certHash = v1Id[0];
    if (!(certHash instanceof asn1js.OctetString)) return 'the signing certificate attribute cannot be read';
    const hash = new Uint8Array(await webcrypto.subtle.digest('SHA-1', certificateDer));
    return sameBytes(hash, certHash.valueBlock.valueHexView) ? null : "the signing certificate attribute names another certificate than the signer's";
  }
  return 'the signature binds no signing certificate (ESS signingCertificate or signingCertificateV2)';
}

/** RFC 3161 2.3: one extended key usage, timeStamping, and critical. */
function timeStampingPurposeProblem(certificate: pkijs.Certificate): string | null {
  const usage = (certificate.extensions ?? []).find((extension) => extension.extnID === OID.extendedKeyUsage);
  if (usage === undefined) return "the signer's certificate has no extended key usage";
  if (!usage.critical) return "the signer's extended key usage is not critical";
  const purposes = new pkijs.ExtKeyUsage({ schema: asn1js.fromBER(usage.extnValue.valueBlock.valueHexView).result }).keyPurposes;
  if (purposes.length !== 1 || purposes[0] !== OID.timeStamping) return "the signer's certificate is not for time stamping only";
  return null;
}

async function chainProblemOf(signer: pkijs.Certificate, carried: pkijs.Certificate[], trusted: pkijs.Certificate[], at: Date): Promise<string | null> {
  const signerDer = Buffer.from(signer.toSchema().toBER());
  if (trusted.some((certificate) => signerDer.equals(Buffer.from(certificate.toSchema().toBER())))) {
    const within = signer.notBefore.value.getTime() <= at.getTime() && at.getTime() <= signer.notAfter.value.getTime();
    return within ? null : "the time stamp falls outside its certificate's validity";
  }
  const chain = new pkijs.CertificateChainValidationEngine({
    trustedCerts: trusted,
    // The engine takes the last of these as the certificate to validate.
    certs: [...carried.filter((certificate) => !Buffer.from(certificate.toSchema().toBER()).equals(signerDer)), signer],
    checkDate: at,
  });
  const result = await chain.verify({}, engine).catch((error: unknown) => ({ result: false, resultMessage: String((error as { resultMessage?: string }).resultMessage ?? error) }));
  return result.result ? null : `the signer's certificate does not chain to the trusted certificate: ${result.resultMessage}`;
}

function hashNameOf(oid: string): 'SHA-256' | 'SHA-384' | 'SHA-512' | null {
  const names: Record<string, 'SHA-256' | 'SHA-384' | 'SHA-512'> = {
    [OID.sha256]: 'SHA-256',
    '2.16.840.1.101.3.4.2.2': 'SHA-384',
    '2.16.840.1.101.3.4.2.3': 'SHA-512',
  };
  return names[oid] ?? null;
}

function sameBytes(left: ArrayBufferView | ArrayBuffer, right: ArrayBufferView | ArrayBuffer): boolean {
  const view = (value: ArrayBufferView | ArrayBuffer) => (value instanceof ArrayBuffer ? Buffer.from(value) : Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  return view(left).equals(view(right));
}
