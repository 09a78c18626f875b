import { configuredOrigin } from '@/lib/platform/http/base-url';

// What a constancia and a signed head say, as they are signed (canonical JSON, RFC 8785) and as a
// verifier reads them back. docs/constancias.md documents every member.

export const CONSTANCIA_TYPE = 'constancia-de-consulta';
export const HEAD_TYPE = 'cabeza-de-registro';

export interface ConstanciaPayload {
  tipo: typeof CONSTANCIA_TYPE;
  version: 1;
  id: string;
  emisor: { servicio: string; nit: string | null; url: string };
  solicitud: { requestId: string; integracion: string; consulta: string; cuerpo: unknown };
  respuesta: { estado: number; cuerpo: unknown; cuerpoSha256: string };
  fuente: { codigo: string; fechaConsulta: string | null };
  emitidaEn: string;
  clave: string;
  registro: { url: string; indice: number };
}

export interface HeadPayload {
  tipo: typeof HEAD_TYPE;
  registro: string;
  tamano: number;
  raizSha256: string;
  emitidaEn: string;
}

/** Where a receipt is read by its integration (JSON or its PDF). */
export function constanciaAddress(id: string): string {
  return `${configuredOrigin()}/api/constancias/${id}`;
}

/** The log's public address: its latest signed head, and its proofs beneath. */
export function logAddress(): string {
  return `${configuredOrigin()}/api/constancias/registro`;
}

/** The entry of a hole: the log says plainly that the index holds no receipt. */
export function holeEntry(leafIndex: number): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ tipo: 'hueco', indice: leafIndex }));
}

/** The time a signed statement gives for itself (its key must have been in its window then). */
export function statementTime(payload: unknown): string | undefined {
  return typeof payload === 'object' && payload !== null && 'emitidaEn' in payload && typeof payload.emitidaEn === 'string' ? payload.emitidaEn : undefined;
}

/** The public page that verifies a receipt kept here, by its id (the PDF's QR code). */
export function verificationAddress(id: string): string {
  return `${configuredOrigin()}/verificar?constancia=${id}`;
}

/** Where every key that ever signed is published. */
export function keysAddress(): string {
  return `${configuredOrigin()}/.well-known/jwks.json`;
}

/** What a receipt signs, read from its text without verifying it (a receipt this service holds). */
export function payloadOf(receipt: string): ConstanciaPayload {
  const [, payload] = receipt.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as ConstanciaPayload;
}
