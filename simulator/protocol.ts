// What the server needs from each simulated upstream. A protocol module is pure: it turns a
// parsed request into an answer value, and the server applies latency, faults and the socket.

import type { IncomingHttpHeaders } from 'node:http';
import type { FaultName, SimulatedProtocol } from './faults';

export type SimAnswer =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'raw'; status: number; contentType: string; body: string };

/** Faults the server handles itself: delaying the answer and dropping the connection. */
export type ProtocolFault = Exclude<FaultName, 'slow' | 'connection_dropped'>;

export interface ProtocolOutcome {
  answer: SimAnswer;
  /** True when the upstream had to go to the authority at that moment: the answer takes longer. */
  online: boolean;
}

export interface SimulatedUpstream {
  protocol: SimulatedProtocol;
  /** First path segment, e.g. `/renap`; matches the default *_BASE_URL of lib/sources/settings.ts. */
  prefix: string;
  /** Operation paths below the prefix. */
  operations: readonly string[];
  isAuthorized(headers: IncomingHttpHeaders): boolean;
  unauthorized(): SimAnswer;
  /** The answer to a body that is not JSON. */
  malformedBody(): SimAnswer;
  /** Every NIT or CUI the body carries (for reserved fault identifiers). */
  identifiers(body: unknown): string[];
  faultAnswer(fault: ProtocolFault, body: unknown, now: Date): SimAnswer;
  handle(operation: string, body: unknown, now: Date): ProtocolOutcome;
}

export function json(status: number, body: unknown): SimAnswer {
  return { kind: 'json', status, body };
}

export function raw(status: number, contentType: string, body: string): SimAnswer {
  return { kind: 'raw', status, contentType, body };
}

/** Own string-valued property of a parsed JSON object, or undefined. */
export function stringField(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, key)) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

export function field(body: unknown, key: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, key)) return undefined;
  return (body as Record<string, unknown>)[key];
}

/** A fixed-width token from the clock, for the ids upstreams put on their answers. */
export function requestId(prefix: string, now: Date): string {
  return `${prefix}-${now.getTime().toString(36).toUpperCase()}-${Math.floor(Math.random() * 1_679_616).toString(36).toUpperCase().padStart(4, '0')}`;
}

/** Bearer or Basic credential of an Authorization header. */
export function authorizationCredential(headers: IncomingHttpHeaders, scheme: 'Bearer' | 'Basic'): string | null {
  const header = headers.authorization;
  if (header === undefined) return null;
  const [givenScheme, credential] = header.split(/\s+/, 2);
  if (givenScheme?.toLowerCase() !== scheme.toLowerCase() || credential === undefined) return null;
  return credential;
}
