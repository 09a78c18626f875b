// What the product asks of a FEL certifier, whichever it is (INFILE first: lib/providers/fel/infile.ts).
// Every answer is a closed outcome; an adapter never throws for what the certifier or the network did.

import type { FelDocument, VoidInput } from './document';

/**
 * The caller's id for one document, fixed for it forever (a top-up's, never a timestamp): the
 * certifier certifies an identifier once, so sending it again can never make a second invoice.
 */
export type FelIdentifier = string & { readonly __felIdentifier: unique symbol };

const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Letters, digits, `-` and `_`, 1 to 64 characters, so it travels safely in a header. */
export function felIdentifier(text: string): FelIdentifier | null {
  return IDENTIFIER_PATTERN.test(text) ? (text as FelIdentifier) : null;
}

/** What names a certified document. */
export interface CertifiedNumbers {
  /** NumeroAutorizacion: an upper-case UUID. */
  uuid: string;
  serie: string;
  numero: string;
}

export interface CertifierMessage {
  /** SAT's or the certifier's code (FEL_RCP…), when the answer gave one. */
  code: string | null;
  /** The certifier's own words, in Spanish; may name the receptor: never log it. */
  message: string;
}

/** Why nothing was certified, and sending again later (same identifier) is right. */
export type RetryReason = 'not_sent' | 'certifier_error' | 'resend_requested' | 'daily_quota' | 'rate_limited';
/** Why we cannot tell whether the certifier certified: the request may have arrived. */
export type IndeterminateReason = 'timeout_after_sending' | 'connection_dropped' | 'unreadable_answer';

export type CertifyOutcome =
  | ({ kind: 'certified'; certifiedAt: Date; xml: string } & CertifiedNumbers)
  /** The identifier was certified before: these are that document's numbers. */
  | ({ kind: 'already_certified' } & CertifiedNumbers)
  /** The certifier or SAT refused the data: fix it (the receptor, say) before sending again. */
  | { kind: 'rejected'; errors: CertifierMessage[] }
  | { kind: 'retry_later'; reason: RetryReason; detail: string }
  /** Wrong credentials: every document would fail alike; stop and fix the settings. */
  | { kind: 'credentials_refused'; detail: string }
  /**
   * Sent, but no readable answer: it may be certified. Settle it with lookupByIdentifier before
   * anything else; never resend on this outcome alone.
   */
  | { kind: 'indeterminate'; reason: IndeterminateReason; detail: string };

export type LookupOutcome =
  | ({ kind: 'found' } & CertifiedNumbers)
  /** The certifier answered that it never certified this identifier on that day. */
  | { kind: 'not_found' }
  | { kind: 'unavailable'; detail: string };

export type VoidOutcome =
  | { kind: 'voided'; voidedAt: Date }
  | { kind: 'rejected'; errors: CertifierMessage[] }
  | { kind: 'retry_later'; reason: RetryReason; detail: string }
  | { kind: 'credentials_refused'; detail: string }
  | { kind: 'indeterminate'; reason: IndeterminateReason; detail: string };

export type NitNameOutcome = { kind: 'name'; name: string } | { kind: 'not_found' } | { kind: 'unavailable'; detail: string };

/** What a lookup by identifier needs besides the identifier: where and when the document was issued. */
export interface LookupQuery {
  identifier: FelIdentifier;
  issuerNit: string;
  documentType: FelDocument['type'];
  establishmentCode: number;
  /** The Guatemalan day of FechaHoraEmision, YYYY-MM-DD (emissionDay() of the document). */
  emittedOn: string;
}

/**
 * A SAT-accredited certifier.
 *
 * Exactly once: a document goes to a certifier with an identifier fixed for it, and to one
 * certifier at a time. After `indeterminate`, `lookupByIdentifier` settles whether it was
 * certified before anything is sent again. Another certifier may take a document over only when
 * this one has answered `not_found` to `lookupByIdentifier` for its identifier and day: that
 * answer is the confirmation that it never issued it (`unavailable` is not, nor is any outcome of
 * `certify`). After that confirmation this certifier must not be sent the identifier again.
 */
export interface FelCertifier {
  /** A short name for logs and the console: "infile". */
  readonly name: string;
  certify(document: FelDocument, identifier: FelIdentifier): Promise<CertifyOutcome>;
  lookupByIdentifier(query: LookupQuery): Promise<LookupOutcome>;
  /** A void prepared by prepareVoid; `identifier` is the void's own, fixed like a document's. */
  voidDocument(request: VoidInput, identifier: FelIdentifier): Promise<VoidOutcome>;
  /** The name SAT's registry holds for a NIT, which a receptor's NombreReceptor must match. */
  lookupNitName(nit: string): Promise<NitNameOutcome>;
}
