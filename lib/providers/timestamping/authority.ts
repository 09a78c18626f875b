// What the product asks of an RFC 3161 time-stamping authority (TSA), whichever it is: a token
// that proves a SHA-256 digest existed at the authority's time. Every answer is a closed outcome;
// an adapter never throws for what the authority or the network did.

/**
 * A time-stamping authority. Asking again is harmless: a second token over the same digest is as
 * good as the first, so a call that timed out is simply `unreachable`, to be tried again, and never
 * needs settling the way a payment or an invoice does.
 */
export interface TimeStampAuthority {
  /** Stamps `digest`, the 32 bytes of a SHA-256 hash of the data (the data itself never leaves). */
  stamp(digest: Uint8Array): Promise<TimeStampOutcome>;
}

export type TimeStampOutcome =
  | {
      kind: 'stamped';
      /** The DER TimeStampToken (a CMS ContentInfo of SignedData over a TSTInfo): what to keep. */
      token: Uint8Array;
      /** The whole DER TimeStampResp, as `openssl ts -verify -in` reads it. */
      reply: Uint8Array;
      /** The authority's time for the digest (TSTInfo genTime). */
      genTime: Date;
      /** The token's serial number, in hexadecimal. */
      serialNumber: string;
      /** The authority's policy under which it stamped (an OID). */
      policy: string;
    }
  /** The authority answered and declined: PKIStatus rejection (2), waiting (3), revocation (4, 5). */
  | { kind: 'refused'; status: number; text: string | null }
  /** No answer: network failure, time-out, HTTP 5xx (or 408, 429). Trying again later is right. */
  | { kind: 'unreachable'; detail: string }
  /**
   * An answer that is no usable time stamp: malformed DER, another digest or nonce, a signature
   * that does not verify, a signer that does not chain to the configured certificate, an HTTP
   * answer that is not a reply. Trying again seldom helps; the operator should look.
   */
  | { kind: 'invalid'; detail: string };
