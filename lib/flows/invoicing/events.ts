// What the invoice worker tells whoever cares (the alerts, once subscribed in lib/root/reactions.ts).
import { domainEvent } from '@/lib/platform/events/domain-event';

export interface CertifierCredentialsRefused {
  /** "infile". */
  certifier: string;
  /** The queue waits until then before it tries the certifier again. */
  pausedUntil: Date;
}

/** The certifier refused the credentials: every invoice would fail alike, so the queue stopped. */
export const certifierCredentialsRefused = domainEvent<CertifierCredentialsRefused>('invoicing.certifier-credentials-refused');

export interface InvoiceCertified {
  invoiceId: number;
  integrationId: number;
}

/**
 * An invoice became certified (by its certification or by the lookup that found it), emitted by the
 * one worker whose claim wrote the state: the integrator is told (lib/root/reactions.ts). Emitted
 * again by a later round until every listener took it once, so a listener takes a repeat as the
 * same event and throws when it could not take it.
 */
export const invoiceCertified = domainEvent<InvoiceCertified>('invoicing.invoice-certified');
