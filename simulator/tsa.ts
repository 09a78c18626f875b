// A time-stamping authority speaking RFC 3161 over HTTP (its section 3.4): POST a DER
// TimeStampReq to `/tsa`, get a DER TimeStampResp whose token it really signs (ECDSA P-256,
// SHA-256, ESS signingCertificateV2, so `openssl ts -verify` accepts it), with the request's nonce,
// increasing serial numbers and its clock's time. Its certificate is self-signed, for time stamping
// only, and served at `/tsa/certificado`. Faults tests can drive make it down, slow, refusing, or
// answer tokens a client must reject. Served under /tsa by simulator/server.ts.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sleep } from './abortable-sleep';
import { FAULT_HEADER } from './faults';

/**
 * Faults, each until cleared (or for one request, named in x-sim-fault): `unavailable` answers
 * HTTP 503; `slow` waits `slowDelayMs` before answering; `rejection` answers PKIStatus rejection;
 * `wrong_imprint` signs a token over another digest; `bad_signature` spoils the token's signature.
 */
export const TSA_SIM_FAULTS = ['unavailable', 'slow', 'rejection', 'wrong_imprint', 'bad_signature'] as const;
export type TsaFault = (typeof TSA_SIM_FAULTS)[number];

/** The policy every token names (an OID under the private enterprise arc used for examples). */
export const TSA_SIM_POLICY = '1.3.6.1.4.1.99999.1';
export const TSA_SIM_COMMON_NAME = 'Autoridad de sellado de tiempo simulada';
/** Beyond a client's usual 30-second wait unless a test shortens it. */
export const DEFAULT_TSA_SLOW_DELAY_MS = 35_000;

export interface TsaSimOptions {
  faults?: TsaFault[];
  /** The authority's clock; genTime is its time to the second (the tokens declare 1 s accuracy). */
  now?: () => Date;
  slowDelayMs?: number;
  log?: (line: string) => void;
}

export interface TsaSimStamp {
  /** Hexadecimal, as the token's serialNumber. */
  serialNumber: string;
  genTime: Date;
  /** The digest the request asked for, in hexadecimal. */
  digest: string;
  /** The fault that spoiled the token, if one did. */
  fault: TsaFault | null;
}

export interface TsaSimControl {
  /** The authority's certificate, PEM: what a client is configured to trust. */
  readonly certificatePem: string;
  /** The tokens it issued, in order. */
  stamps(): TsaSimStamp[];
  setFaults(faults: TsaFault[]): void;
}

export interface TsaSimulator extends TsaSimControl {
  /** `path` is below /tsa: `''` or `/` for the protocol, `/certificado` for the certificate. */
  serve(request: IncomingMessage, response: ServerResponse, path: string): Promise<void>;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  country: '2.5.4.6',
  basicConstraints: '2.5.29.19',
  subjectKeyIdentifier: '2.5.29.14',
  extendedKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  sha256: '2.16.840.1.101.3.4.2.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

// PKIStatus and PKIFailureInfo's bits (RFC 3161 2.4.2).
const STATUS = { granted: 0, rejection: 2 } as const;
const FAILURE = { badAlg: 0, badRequest: 2, badDataFormat: 5, unacceptedPolicy: 15, systemFailure: 25 } as const;
const MAX_REQUEST_BYTES = 16 * 1024;

const engine = new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: webcrypto as unknown as Crypto });

interface Authority {
  certificate: pkijs.Certificate;
  certificateDer: Uint8Array;
  privateKey: CryptoKey;
}

type Reply = { status: number; contentType: string; body: Uint8Array | string };

export async function createTsaSimulator(options: TsaSimOptions = {}): Promise<TsaSimulator> {
  const log = options.log ?? (() => {});
  const now = options.now ?? (() => new Date());
  const slowDelayMs = options.slowDelayMs ?? DEFAULT_TSA_SLOW_DELAY_MS;
  let faults = new Set<TsaFault>(options.faults ?? []);
  const authority = await newAuthority(now());
  const certificatePem = pem(authority.certificateDer);
  const stamps: TsaSimStamp[] = [];
  let lastSerial = 0n;

  async function stamp(requestDer: Uint8Array, active: Set<TsaFault>): Promise<Uint8Array> {
    let request: pkijs.TimeStampReq;
    try {
      const parsed = asn1js.fromBER(requestDer);
      if (parsed.offset === -1) throw new Error('not DER');
      request = new pkijs.TimeStampReq({ schema: parsed.result });
    } catch {
      return refusal('la solicitud no es un TimeStampReq', FAILURE.badDataFormat);
    }
    if (active.has('rejection')) return refusal('la autoridad simulada rechaza la solicitud', FAILURE.systemFailure);
    const imprint = request.messageImprint;
    if (imprint.hashAlgorithm.algorithmId !== OID.sha256) return refusal('solo se acepta SHA-256', FAILURE.badAlg);
    if (imprint.hashedMessage.valueBlock.valueHexView.byteLength !== 32) return refusal('la huella no mide 32 bytes', FAILURE.badRequest);
    if (request.reqPolicy !== undefined && request.reqPolicy !== TSA_SIM_POLICY) return refusal(`política no aceptada: ${request.reqPolicy}`, FAILURE.unacceptedPolicy);

    const digest = Uint8Array.from(imprint.hashedMessage.valueBlock.valueHexView);
    const stamped = Uint8Array.from(digest);
    if (active.has('wrong_imprint')) stamped[0] = stamped[0]! ^ 0xff;
    lastSerial += 1n;
    const serial = integerBytes(lastSerial);
    // Whole seconds: DER's GeneralizedTime would otherwise carry fractions with trailing zeros.
    const genTime = new Date(Math.floor(now().getTime() / 1000) * 1000);
    const info = new pkijs.TSTInfo({
      version: 1,
      policy: TSA_SIM_POLICY,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() }),
        hashedMessage: new asn1js.OctetString({ valueHex: stamped }),
      }),
      serialNumber: new asn1js.Integer({ valueHex: serial }),
      genTime,
      accuracy: new pkijs.Accuracy({ seconds: 1 }),
      ...(request.nonce === undefined ? {} : { nonce: new asn1js.Integer({ valueHex: request.nonce.valueBlock.valueHexView }) }),
    });
    const token = await signedToken(authority, new Uint8Array(info.toSchema().toBER()), genTime, request.certReq === true, active.has('bad_signature'));
    const fault = active.has('wrong_imprint') ? 'wrong_imprint' : active.has('bad_signature') ? 'bad_signature' : null;
    stamps.push({ serialNumber: Buffer.from(serial).toString('hex'), genTime, digest: Buffer.from(digest).toString('hex'), fault });
    const reply = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: STATUS.granted }), timeStampToken: token });
    return new Uint8Array(reply.toSchema().toBER());
  }

  async function answerFor(request: IncomingMessage, response: ServerResponse, route: string): Promise<Reply | 'gone'> {
    if (request.method === 'GET' && route === '/certificado') return { status: 200, contentType: 'application/x-pem-file', body: certificatePem };
    if (route !== '/') return { status: 404, contentType: 'text/plain; charset=utf-8', body: `No route ${request.method} /tsa${route}\n` };
    if (request.method !== 'POST') return { status: 405, contentType: 'text/plain; charset=utf-8', body: 'Method not allowed\n' };

    const named = headerValue(request, FAULT_HEADER);
    if (named !== undefined && !(TSA_SIM_FAULTS as readonly string[]).includes(named)) {
      return { status: 400, contentType: 'text/plain; charset=utf-8', body: `${FAULT_HEADER}: "${named}" is not a fault of the TSA simulator; known: ${TSA_SIM_FAULTS.join(', ')}\n` };
    }
    const active = named === undefined ? new Set(faults) : new Set([named as TsaFault]);
    if (active.has('unavailable')) return { status: 503, contentType: 'text/plain; charset=utf-8', body: 'Servicio no disponible\n' };
    if ((request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/timestamp-query') {
      return { status: 415, contentType: 'text/plain; charset=utf-8', body: 'Expected application/timestamp-query\n' };
    }
    const body = await readBytes(request, MAX_REQUEST_BYTES);
    if (body === null) return { status: 413, contentType: 'text/plain; charset=utf-8', body: 'Request body too large\n' };
    if (active.has('slow')) {
      // Stops waiting when the client goes away (its time-out fired).
      const abort = new AbortController();
      response.once('close', () => {
        if (!response.writableFinished) abort.abort();
      });
      if (!(await sleep(slowDelayMs, abort.signal))) return 'gone';
    }
    return { status: 200, contentType: 'application/timestamp-reply', body: await stamp(body, active) };
  }

  return {
    certificatePem,
    stamps: () => stamps.map((entry) => ({ ...entry })),
    setFaults(next) {
      faults = new Set(next);
    },
    async serve(request, response, path) {
      const route = new URL(path === '' ? '/' : path, 'http://simulator').pathname;
      const answer = await answerFor(request, response, route);
      if (answer === 'gone') {
        log(`tsa ${request.method} /tsa${route} -> client went away`);
        return;
      }
      const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body);
      response.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': body.length });
      response.end(body);
      log(`tsa ${request.method} /tsa${route} -> ${answer.status}`);
    },
  };
}

/** A P-256 key and its self-signed certificate, valid around both the real and the simulated clock. */
async function newAuthority(clock: Date): Promise<Authority> {
  // Node's WebCrypto, typed as the DOM's, which pkijs's signatures name.
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: integerBytes(BigInt(`0x${randomBytes(12).toString('hex')}`) | 1n) });
  // One attribute per RDN, read back from DER: pkijs would write them all into a single RDN.
  const attributes = [
    new pkijs.AttributeTypeAndValue({ type: OID.country, value: new asn1js.PrintableString({ value: 'GT' }) }),
    new pkijs.AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: 'Simulador de la pasarela' }) }),
    new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: TSA_SIM_COMMON_NAME }) }),
  ];
  const nameDer = new asn1js.Sequence({ value: attributes.map((attribute) => new asn1js.Set({ value: [attribute.toSchema()] })) }).toBER();
  certificate.subject = pkijs.RelativeDistinguishedNames.fromBER(nameDer);
  certificate.issuer = pkijs.RelativeDistinguishedNames.fromBER(nameDer);
  const day = 86_400_000;
  // openssl checks validity at the real time, the client at genTime (the simulated clock).
  certificate.notBefore.value = new Date(Math.min(Date.now(), clock.getTime()) - day);
  certificate.notAfter.value = new Date(Math.max(Date.now(), clock.getTime()) + 365 * day);
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  const keyIdentifier = createHash('sha1').update(certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest();
  certificate.extensions = [
    // As `openssl req -x509` makes a self-signed certificate: its own trust anchor.
    new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: true }).toSchema().toBER() }),
    new pkijs.Extension({ extnID: OID.subjectKeyIdentifier, critical: false, extnValue: new asn1js.OctetString({ valueHex: keyIdentifier }).toBER() }),
    // RFC 3161 2.3: time stamping only, and critical.
    new pkijs.Extension({ extnID: OID.extendedKeyUsage, critical: true, extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] }).toSchema().toBER() }),
  ];
  await certificate.sign(keys.privateKey, 'SHA-256', engine);
  return { certificate, certificateDer: new Uint8Array(certificate.toSchema(true).toBER()), privateKey: keys.privateKey };
}

/** The TimeStampToken: CMS SignedData over the TSTInfo, its signed attributes binding the certificate (ESS v2). */
async function signedToken(authority: Authority, tstInfo: Uint8Array, genTime: Date, withCertificate: boolean, spoil: boolean): Promise<pkijs.ContentInfo> {
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
  // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with SHA-256, the default, names only the hash.
  const signingCertificateV2 = new asn1js.Sequence({
    value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(authority.certificateDer) })] })] })],
  });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: authority.certificate.issuer, serialNumber: authority.certificate.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })] }),
        new pkijs.Attribute({ type: OID.signingTime, values: [new asn1js.UTCTime({ valueDate: genTime })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: sha256(tstInfo) })] }),
        new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
      ],
    }),
  });
  const signed = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.tstInfo, eContent: new asn1js.OctetString({ valueHex: tstInfo }) }),
    signerInfos: [signerInfo],
    ...(withCertificate ? { certificates: [authority.certificate] } : {}),
  });
  await signed.sign(authority.privateKey, 0, 'SHA-256', undefined, engine);
  if (spoil) {
    // The last byte of ECDSA's s: the DER stays readable, the signature no longer verifies.
    const signature = signed.signerInfos[0]!.signature.valueBlock.valueHexView;
    signature[signature.length - 1] = signature[signature.length - 1]! ^ 0x01;
  }
  return new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) });
}

function refusal(text: string, failureBit: number): Uint8Array {
  // PKIFailureInfo is a named BIT STRING: DER drops the trailing zero bits.
  const bits = new Uint8Array(Math.floor(failureBit / 8) + 1);
  bits[bits.length - 1] = 0x80 >> failureBit % 8;
  const reply = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: STATUS.rejection,
      statusStrings: [new asn1js.Utf8String({ value: text })],
      failInfo: new asn1js.BitString({ valueHex: bits, unusedBits: 7 - (failureBit % 8) }),
    }),
  });
  return new Uint8Array(reply.toSchema().toBER());
}

/** A positive INTEGER's content octets, minimal as DER wants them. */
function integerBytes(value: bigint): Uint8Array {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

function pem(der: Uint8Array): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBytes(request: IncomingMessage, maxBytes: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
